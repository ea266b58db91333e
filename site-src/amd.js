// anywidget's front end is published as an AMD module that asks for @jupyter-widgets/base:
// this stands in for the AMD loader for that one module, before main.js imports it.
import * as base from "@jupyter-widgets/base";

export const amdModules = {};
globalThis.define = (dependencies, factory) => {
  amdModules.anywidget = factory(...dependencies.map((name) => {
    if (name !== "@jupyter-widgets/base") throw new Error(`no AMD module ${name}`);
    return base;
  }));
};
