// A game's page on the static site: Pyodide runs the page's cells in the page itself, and the
// ipywidgets HTML manager draws their widgets. mathgames.site.browser (Python) and this file
// carry the widgets' comm messages between the two, as a kernel and Voila would.
import { amdModules } from "./amd.js";
import "anywidget";
import { HTMLManager } from "@jupyter-widgets/html-manager/lib/htmlmanager.js";

// What the page says while Python starts: in the page's language (?lang=), set by build.py.
const status = document.getElementById("mg-status");
const say = (text) => { if (status) status.textContent = text; };

class PageComm {
  // One widget's comm on the page's side; its messages go to Python after the current task.
  constructor(runtime, commId, targetName) {
    this.runtime = runtime;
    this.comm_id = commId;
    this.target_name = targetName;
    this.onMessage = null;
    this.onClose = null;
    this.waiting = [];  // messages that came before the model listened
  }
  send(data, callbacks, metadata, buffers) {
    const payload = JSON.stringify(data);
    const views = (buffers || []).map((b) => new Uint8Array(b.buffer || b));
    setTimeout(() => {
      try { this.runtime.receive(this.comm_id, payload, views); }
      finally { callbacks?.iopub?.status?.({ content: { execution_state: "idle" } }); }
    }, 0);
    return this.comm_id;
  }
  open() { return this.comm_id; }
  close() { return this.comm_id; }
  on_msg(callback) {
    this.onMessage = callback;
    for (const message of this.waiting.splice(0)) callback(message);
  }
  on_close(callback) { this.onClose = callback; }
  deliver(message) {
    if (this.onMessage) this.onMessage(message); else this.waiting.push(message);
  }
}

class PageManager extends HTMLManager {
  constructor() {
    super({ loader: (name) => name === "anywidget"
      ? Promise.resolve(amdModules.anywidget)
      : Promise.reject(new Error(`no widget module ${name} on this page`)) });
    this.comms = new Map();
  }
}

function fromPython(manager, runtime, output, kind, payload, buffers) {
  const message = JSON.parse(payload);
  const views = buffers.toJs ? buffers.toJs() : buffers;
  if (kind === "display") {
    show(manager, output, message);
    return;
  }
  const content = { comm_id: message.comm_id, target_name: message.target_name, data: message.data };
  const full = { content, metadata: message.metadata, buffers: views };
  if (message.msg_type === "comm_open") {
    const comm = new PageComm(runtime, message.comm_id, message.target_name);
    manager.comms.set(message.comm_id, comm);
    manager.handle_comm_open(comm, full);
  } else if (message.msg_type === "comm_msg") {
    manager.comms.get(message.comm_id)?.deliver(full);
  } else if (message.msg_type === "comm_close") {
    const comm = manager.comms.get(message.comm_id);
    manager.comms.delete(message.comm_id);
    comm?.onClose?.(full);
  }
}

async function show(manager, output, message) {
  const data = message.data;
  const box = document.createElement("div");
  box.className = "mg-output";
  output.appendChild(box);
  const view = data["application/vnd.jupyter.widget-view+json"];
  if (view) {
    const model = await manager.get_model(view.model_id);
    await manager.display_view(manager.create_view(model), box);
  } else if (message.metadata.stream) {
    // printed text: one block for a run of prints, as in a notebook
    box.remove();
    const last = output.lastElementChild;
    const block = last?.classList.contains("mg-stream") ? last : document.createElement("pre");
    block.className = "mg-output mg-stream";
    block.textContent += data["text/plain"];
    output.appendChild(block);
  } else if (data["text/html"]) {
    box.innerHTML = data["text/html"];
  } else if (message.metadata.error) {
    box.className = "mg-output mg-error";
    box.textContent = data["text/plain"];
  }
}

async function main() {
  const config = JSON.parse(document.getElementById("mg-config").textContent);
  const started = performance.now();
  const lang = new URLSearchParams(location.search).get("lang") || "en";
  say(config.loading[lang] || config.loading.en);
  document.title = config.titles[lang] || config.titles.en;
  document.documentElement.lang = config.titles[lang] ? lang : "en";
  const times = globalThis.mgTimes = {};  // milliseconds since the script started, by step
  const mark = (step) => { times[step] = Math.round(performance.now() - started); };
  // the wheels download while Pyodide starts: each is a file of this site
  const downloads = Promise.all(config.wheels.map(async (name) => {
    const response = await fetch(new URL(`wheels/${name}`, document.baseURI));
    if (!response.ok) throw new Error(`wheels/${name}: ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }));
  const pyodide = await globalThis.loadPyodide({ indexURL: new URL("pyodide/", document.baseURI).href });
  mark("python");
  const wheels = await downloads;
  for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel");
  mark("wheels");
  // the kernel's environment in Voila: the page's query string (its language)
  pyodide.runPython(`import os; os.environ["QUERY_STRING"] = ${JSON.stringify(location.search.slice(1))}`);
  for (const [key, value] of Object.entries(config.environment)) {
    pyodide.runPython(`import os; os.environ[${JSON.stringify(key)}] = ${JSON.stringify(value)}`);
  }
  // the files a lesson reads where it runs (its own notebook, in the page's language)
  const files = (config.files && (config.files[lang] || config.files.en)) || {};
  for (const [name, text] of Object.entries(files)) pyodide.FS.writeFile(name, text);
  const manager = new PageManager();
  const output = document.getElementById("mg-page");
  let runtime = null;
  const send = (kind, payload, buffers) => fromPython(manager, runtime, output, kind, payload, buffers);
  runtime = pyodide.pyimport("mathgames.site.browser").start(send);
  mark("shell");
  // a lesson has one copy per language; a game's page has one for all
  const cells = config.cells[lang] || config.cells.en;
  for (const cell of cells) {
    if (cell.html !== undefined) {
      const text = document.createElement("div");
      text.className = "mg-output mg-markdown";
      text.innerHTML = cell.html;  // the notebook's own text, rendered by the build
      output.appendChild(text);
    } else if (!runtime.run(cell.code)) break;
  }
  say("");
  mark("cells");
  globalThis.mgPython = pyodide;  // for the bench (bench/static_site.py) and the curious
  document.body.dataset.mgReady = String(Math.round(performance.now() - started));
}

main().catch((error) => {
  say(String(error));
  document.body.dataset.mgFailed = "1";
  throw error;
});
