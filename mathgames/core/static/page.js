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

function shownText(element) {
  return element && element.offsetParent !== null ? element.textContent.trim() : "";
}

// A control has a name when aria names it or a label that is shown holds text (ipywidgets
// draws an empty, hidden label for every control without a description).
function hasLabel(control) {
  if (control.getAttribute("aria-label") || control.getAttribute("aria-labelledby")) return true;
  if (shownText(control.closest("label"))) return true;
  if (!control.id) return false;
  return Array.from(document.querySelectorAll(`label[for="${CSS.escape(control.id)}"]`))
    .some((label) => shownText(label));
}

// A form control that ipywidgets labels only by its tooltip (title) or placeholder, such as
// the cells of a grid of drop-downs, is named by that text (aria-label). A title alone is no
// label for a screen reader's form mode, so the name takes the tooltip's place.
function nameFormControls() {
  for (const control of document.querySelectorAll(
    ".jupyter-widgets select, .jupyter-widgets input, .jupyter-widgets textarea")) {
    if (hasLabel(control)) continue;
    const text = (control.getAttribute("title") || control.getAttribute("placeholder") || "").trim();
    if (!text) continue;
    control.setAttribute("aria-label", text);
    control.removeAttribute("title");
  }
}

// A page opened without ?lang= (a class's join address, typed or scanned) follows the
// device: the first of its languages that the games speak, if that is not the page's.
function followDeviceLanguage(current, spoken) {
  const url = new URL(window.location.href);
  if (url.searchParams.has("lang") || !Array.isArray(spoken)) return;
  const wanted = (navigator.languages || [navigator.language || ""])
    .map((tag) => String(tag).slice(0, 2).toLowerCase())
    .find((code) => spoken.includes(code));
  if (wanted && wanted !== current) {
    url.searchParams.set("lang", wanted);
    window.location.replace(url.toString());
  }
}

function render({ model, el }) {
  el.style.display = "none";
  followDeviceLanguage(model.get("language"), model.get("languages"));
  let pending = false;
  const run = () => {
    pending = false;
    nameControls(model.get("labels") || {});
    nameFormControls();
  };
  const observer = new MutationObserver(() => {
    if (!pending) { pending = true; window.requestAnimationFrame(run); }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  run();
  return () => observer.disconnect();
}

export default { render };
