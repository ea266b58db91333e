// mathgames "Enter sends the form": answers Python's echo so that Python acts only once
// every value typed before the Enter key has reached it (ipywidgets may hold a text box's
// last keystrokes back while the kernel is busy, and sends the Enter key's message at
// once). It draws nothing, reads no key and holds no rules: it only echoes a number.

function render({ model, el }) {
  el.style.display = "none";
  const onMessage = (message) => {
    if (message && message.type === "echo" && Number.isInteger(message.id)) {
      model.send({ type: "echo", id: message.id });
    }
  };
  model.on("msg:custom", onMessage);
  return () => model.off("msg:custom", onMessage);
}

export default { render };
