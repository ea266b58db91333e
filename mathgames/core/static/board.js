// mathgames board widget: a renderer and an event forwarder, nothing more.
// Python renders the SVG and owns every rule; this file draws what it is given,
// forwards clicks on elements that carry data-cell, forwards a few keys, shows
// hover overlays that Python drew (data-hover-for), and keeps a copy of the game
// in localStorage when Python asks it to (storage_key / storage_value).

const KEYS = new Set([
  "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Enter", "Escape", " ",
  "Backspace", "Delete", "+", "-",
]);
const PREFIX = "mathgames:";

// The key to forward, or null. A letter or digit that another layout writes otherwise
// (Russian "к" on the R key, Czech "ě" on the 2 key) is sent as the key's Latin label, so
// the games' shortcuts (r rotates, 1-9 pick a tile, u undoes) work in every language.
function keyOf(event) {
  const key = event.key;
  if (typeof key !== "string") { return null; }
  if (KEYS.has(key) || /^[a-zA-Z0-9]$/.test(key)) { return key; }
  const code = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(event.code || "");
  if (!code || key.length !== 1) { return null; }  // "Dead", "Process": not a key of ours
  return code[1] ? code[1].toLowerCase() : code[2];
}

function storageGet(key) {
  try { return window.localStorage.getItem(PREFIX + key); } catch (e) { return null; }
}
function storageSet(key, value) {
  try {
    if (value) { window.localStorage.setItem(PREFIX + key, value); }
    else { window.localStorage.removeItem(PREFIX + key); }
  } catch (e) { /* private mode or quota: the game simply is not kept */ }
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "mathgames-board";
  root.tabIndex = 0;
  root.setAttribute("role", "application");
  // JupyterLab and Notebook 7 leave keys inside this element to the board.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.setAttribute("data-p-suppress-shortcuts", "true");
  el.appendChild(root);
  // A polite live region beside the board: screen readers hear each move, refusal and result.
  const live = document.createElement("div");
  live.className = "mathgames-live";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  el.appendChild(live);
  let shown = [];

  function hideHover() {
    for (const node of shown) { node.classList.remove("mg-shown"); }
    shown = [];
  }
  function showHover(cell) {
    hideHover();
    if (!cell) { return; }
    const sel = '[data-hover-for="' + CSS.escape(cell) + '"]';
    shown = Array.from(root.querySelectorAll(sel));
    for (const node of shown) { node.classList.add("mg-shown"); }
  }
  function draw() {
    hideHover();
    root.innerHTML = model.get("svg");
    root.setAttribute("aria-label", model.get("label") || "board");
    // The picture is made of named cells: a group of buttons, not one image that hides them.
    const svg = root.querySelector("svg");
    if (svg && svg.querySelector("[data-cell]")) {
      svg.setAttribute("role", "group");
      svg.setAttribute("aria-label", model.get("label") || "board");
      for (const cell of svg.querySelectorAll("[data-cell]")) {
        cell.setAttribute("role", "button");
        const title = cell.querySelector("title");
        const name = cell.getAttribute("data-label") || (title && title.textContent)
          || cell.getAttribute("data-cell");
        cell.setAttribute("aria-label", name);
      }
    }
    zoom();
  }
  function zoom() {
    const factor = Number(model.get("zoom")) || 1;
    root.classList.toggle("mg-zoomed", factor > 1);
    root.style.setProperty("--mg-zoom", String(factor));
  }
  function announce() {
    // Cleared first, so that the same words said twice are heard twice.
    live.textContent = "";
    const text = model.get("announce") || "";
    window.setTimeout(() => { live.textContent = text; }, 50);
  }
  function cellOf(target) {
    const node = target && target.closest ? target.closest("[data-cell]") : null;
    return node && root.contains(node) ? node.getAttribute("data-cell") : null;
  }
  function onClick(event) {
    const cell = cellOf(event.target);
    root.focus({ preventScroll: true });
    if (cell !== null) { model.send({ type: "click", cell: cell }); }
  }
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    const key = keyOf(event);
    if (key === null) { return; }
    event.preventDefault();
    event.stopPropagation();
    model.send({ type: "key", key: key });
  }
  function onOver(event) { showHover(cellOf(event.target)); }
  function onLeave() { hideHover(); }
  function onStorage() {
    const key = model.get("storage_key");
    if (key) { storageSet(key, model.get("storage_value")); }
  }

  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  root.addEventListener("pointerover", onOver);
  root.addEventListener("pointerleave", onLeave);
  model.on("change:svg", draw);
  model.on("change:label", draw);
  model.on("change:storage_value", onStorage);
  model.on("change:announce", announce);
  model.on("change:zoom", zoom);
  draw();

  // A copy kept by an earlier page of this browser: offer it to Python once.
  const key = model.get("storage_key");
  if (key) {
    const kept = storageGet(key);
    if (kept && kept !== model.get("storage_value")) {
      model.send({ type: "stored", key: key, data: kept });
    } else {
      onStorage();
    }
  }

  return () => {
    root.removeEventListener("click", onClick);
    root.removeEventListener("keydown", onKey);
    root.removeEventListener("pointerover", onOver);
    root.removeEventListener("pointerleave", onLeave);
    model.off("change:svg", draw);
    model.off("change:label", draw);
    model.off("change:storage_value", onStorage);
    model.off("change:announce", announce);
    model.off("change:zoom", zoom);
    live.remove();
  };
}

export default { render };
