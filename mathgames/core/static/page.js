// mathgames page helper: names the controls that ipywidgets draws without a name
// (a slider's handle, the Play widget's icon buttons), so that screen readers can say
// what they are. It draws nothing and holds no rules.

function nameControls(labels) {
  for (const handle of document.querySelectorAll(".noUi-handle:not([aria-label])")) {
    const slider = handle.closest(".widget-slider, .widget-inline-hbox");
    const label = slider && slider.querySelector(".widget-label");
    const text = label && label.textContent.trim();
    handle.setAttribute("aria-label", text || labels.value || "value");
  }
  for (const button of document.querySelectorAll(".widget-play button:not([aria-label])")) {
    const icon = button.querySelector("i");
    const kind = icon ? ["play", "pause", "stop", "repeat", "retweet"]
      .find((name) => icon.classList.contains("fa-" + name)) : null;
    const text = labels[kind === "retweet" ? "repeat" : kind];
    if (text) { button.setAttribute("aria-label", text); button.title = text; }
  }
}

function render({ model, el }) {
  el.style.display = "none";
  let pending = false;
  const run = () => {
    pending = false;
    nameControls(model.get("labels") || {});
  };
  const observer = new MutationObserver(() => {
    if (!pending) { pending = true; window.requestAnimationFrame(run); }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  run();
  return () => observer.disconnect();
}

export default { render };
