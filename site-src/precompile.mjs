// make site's step that compiles the game pages' modules ahead (mathgames/site/precompile.py)
// with Pyodide's own Python under Node, as the pages will run them:
//   node precompile.mjs pages.json compiled.zip wheel...
// pages.json: {"environment": {...}, "pages": [[code of a cell, ...], ...]}. Run it where
// node_modules (with pyodide) is.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/`);
const { loadPyodide } = require("pyodide");
const [pagesFile, out, ...wheels] = process.argv.slice(2);
const pyodide = await loadPyodide();
// into the working folder, as the pages unpack them (site-src/main.js)
for (const wheel of wheels) pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
pyodide.FS.writeFile("/tmp/pages.json", readFileSync(pagesFile));
const count = pyodide.runPython(`
import json, os
from mathgames.site.precompile import precompile

given = json.load(open("/tmp/pages.json"))
os.environ.update(given["environment"])
precompile(given["pages"], "/tmp/compiled.zip")
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/compiled.zip"));
console.log(`${out}: ${count} modules compiled by Python ${pyodide.runPython("import sys; sys.version.split()[0]")}`);
