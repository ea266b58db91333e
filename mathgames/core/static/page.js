// mathgames page helper: names the controls that ipywidgets draws without a name
// (a slider's handle, the Play widget's icon buttons), so that screen readers can say
// what they are, and watches the page's connection to its kernel. It holds no rules.

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

// The connection watcher (ARCHITECTURE.md, "When the connection drops"). The page pings its
// kernel every 2 s, one ping at a time; no pong for 7 s (30 s while the kernel says it is
// busy), the kernel's websocket closing, or the device going offline: the page says so and
// its controls go inactive. Then it asks the server for its kernel, waiting 0.5 s, then half
// as long again each time up to 3 s, each wait between half and one and a half of that (a
// question to a server that is down costs it nothing; once it answers, each page asks once
// and reloads at most once, spread, so a whole class neither hammers a server that is
// starting nor arrives as one). The kernel runs: the page reconnects its websocket now. The
// kernel is gone (404; 403: the login too): the page reloads itself, and its kept pass or
// game makes it the same page.
const PING_MS = 2000, SILENCE_MS = 7000, BUSY_SILENCE_MS = 30000;
const FIRST_TRY_MS = 500, LAST_TRY_MS = 3000, RELOAD_SPREAD_MS = 1500, ALIVE_TRIES = 5;

function pageConfig() {
  const element = document.getElementById("jupyter-config-data");
  try { return element ? JSON.parse(element.textContent) : {}; } catch (error) { return {}; }
}

const jittered = (ms) => ms * (0.5 + Math.random());

function watchConnection(model) {
  const kernel = model.widget_manager && model.widget_manager.kernel;
  const config = pageConfig();
  // only a Voila page names its kernel in its configuration: in JupyterLab (which shows its
  // kernel's state itself, and restarts kernels) and on the static site the watcher is off
  const kernelId = config.kernelId;
  if (!kernelId || window.mgConnectionWatch) return () => {};
  window.mgConnectionWatch = true;
  const kernelUrl = `${(config.baseUrl || "/").replace(/\/?$/, "/")}api/kernels/${kernelId}`;
  const line = document.createElement("div");
  line.className = "mg-connection-lost";
  line.setAttribute("role", "alert");
  line.hidden = true;
  document.body.appendChild(line);
  let lost = false, unanswered = null, sent = 0, tries = 0, alive = 0, timer = null;
  let reconnecting = false, reloading = false, madeInert = [];

  const ping = () => {
    // not while the connection is down: the connection would queue it, and hold what it
    // queued back after it reconnects until its kernel_info_reply, or 3 s
    if (kernel && kernel.connectionStatus !== "connected") return;
    sent = Date.now();
    try { model.send({ type: "ping" }); } catch (error) { /* no connection: the next tick */ }
  };
  const inactive = (on) => {
    document.body.classList.toggle("mg-offline", on);
    for (const element of madeInert) element.inert = false;
    madeInert = on ? Array.from(document.body.children)
      .filter((element) => element !== line && !element.inert) : [];
    for (const element of madeInert) element.inert = true;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(probe, jittered(Math.min(LAST_TRY_MS, FIRST_TRY_MS * 1.5 ** tries)));
    tries += 1;
  };
  const showLost = () => {
    if (lost) return;
    lost = true; tries = 0; alive = 0;
    line.textContent = (model.get("texts") || {}).lost || "Connection lost: reconnecting…";
    line.hidden = false;
    inactive(true);
    schedule();
  };
  const back = () => {
    unanswered = null;
    if (!lost) return;
    lost = false;
    clearTimeout(timer);
    line.hidden = true;
    line.textContent = "";
    inactive(false);
  };
  const reload = () => {
    if (reloading) return;
    reloading = true;
    setTimeout(() => window.location.reload(), jittered(RELOAD_SPREAD_MS));
  };
  async function probe() {
    if (!lost || reloading) return;
    let status = 0;
    try {
      status = (await fetch(kernelUrl, { cache: "no-store", credentials: "same-origin" })).status;
    } catch (error) { /* no network, or no server yet */ }
    if (!lost) return;
    if (status === 404 || status === 403) { reload(); return; }
    if (status === 200) {
      alive += 1;
      // it runs, but this page cannot reach it: tried long enough, or the page's connection
      // gave up for good (disposed when its socket closed before opening and the server's
      // answer about the kernel was an error; it cannot reconnect)
      if (alive > ALIVE_TRIES || (kernel && kernel.isDisposed)) { reload(); return; }
      if (kernel && kernel.connectionStatus !== "connected" && !reconnecting
          && typeof kernel.reconnect === "function") {
        reconnecting = true;  // now, rather than after the connection's own (up to 63 s) wait
        try {
          kernel.reconnect().catch(() => {}).finally(() => { reconnecting = false; });
        } catch (error) {  // disposed between the question and now: the next probe reloads
          reconnecting = false;
        }
      }
      ping();
    }
    schedule();
  }
  const tick = () => {
    const now = Date.now();
    const silence = kernel && kernel.status === "busy" ? BUSY_SILENCE_MS : SILENCE_MS;
    if (unanswered === null) { unanswered = now; ping(); return; }
    if (now - unanswered > silence) showLost();
    if (now - sent > silence) ping();
  };
  const answered = (content) => { if (content && content.type === "pong") back(); };
  const statusChanged = (_sender, status) => {
    if (status !== "connected") showLost(); else ping();
  };
  const online = () => { if (lost) { tries = 0; schedule(); } };
  const changes = kernel && kernel.connectionStatusChanged;
  model.on("msg:custom", answered);
  if (changes) changes.connect(statusChanged);
  window.addEventListener("offline", showLost);
  window.addEventListener("online", online);
  const beat = setInterval(tick, PING_MS);
  tick();
  return () => {
    clearInterval(beat);
    clearTimeout(timer);
    model.off("msg:custom", answered);
    if (changes) changes.disconnect(statusChanged);
    window.removeEventListener("offline", showLost);
    window.removeEventListener("online", online);
    line.remove();
    window.mgConnectionWatch = false;
  };
}

function render({ model, el }) {
  el.style.display = "none";
  followDeviceLanguage(model.get("language"), model.get("languages"));
  const unwatch = watchConnection(model);
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
  return () => { observer.disconnect(); unwatch(); };
}

export default { render };
