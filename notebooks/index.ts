/**
 * Notebooks: reproducible analyses of the project's own outputs (labels, score reports, bench
 * output, v4 reports), each rendered as one static self-contained HTML page (Vega-Lite figures
 * as inline SVG, their specs and data embedded; nothing fetched at view time). The same inputs
 * give the same bytes. `npm run notebooks` renders every one on the bundled data;
 * `errata notebook <name> --out DIR` one (or `all`), with other inputs if named.
 *
 * Only the CLI imports this folder; it imports research folders and runtime surfaces.
 */
import { renderPage } from "../runtime/pages/index.js";
import { badInput, describeFound } from "../core/errors.js";
import { agreement } from "./agreement.js";
import { bias } from "./bias.js";
import { calibration } from "./calibration.js";
import { corpusRate } from "./corpus-rate.js";
import { detectors } from "./detectors.js";
import { hook } from "./hook.js";
import { rules } from "./rules.js";
import { readInput, type ReadInput } from "./inputs.js";
import type { Notebook } from "./notebook.js";

export type { Notebook } from "./notebook.js";
export type { InputSpec } from "./inputs.js";

export const NOTEBOOKS: readonly Notebook[] = [agreement, calibration, detectors, corpusRate, bias, hook, rules];

export function notebookNamed(name: string): Notebook {
  const nb = NOTEBOOKS.find((n) => n.name === name);
  if (nb === undefined) throw badInput("no such notebook", `one of ${NOTEBOOKS.map((n) => n.name).join(", ")}, or all`, describeFound(name));
  return nb;
}

/**
 * Renders one notebook's page. `root` is the repository (bundled inputs are relative to it);
 * `given` names other input files by key, relative to `cwd` (default `root`).
 */
export async function renderNotebook(nb: Notebook, root: string, given: Readonly<Record<string, string>> = {}, cwd: string = root): Promise<string> {
  const unknown = Object.keys(given).filter((k) => !nb.inputs.some((i) => i.key === k));
  if (unknown.length > 0) throw badInput(`notebook ${nb.name} has no input ${unknown[0]}`, `one of ${nb.inputs.map((i) => i.key).join(", ")}`, describeFound(unknown[0]));
  const read = new Map<string, ReadInput>();
  for (const spec of nb.inputs) read.set(spec.key, readInput(spec, root, given[spec.key], cwd));
  const blocks = await nb.blocks((key) => {
    const r = read.get(key);
    if (r === undefined) throw new Error(`notebook ${nb.name} read undeclared input ${key}`);
    return r;
  });
  const sources = nb.inputs.map((i) => `${i.key}: ${read.get(i.key)?.shown ?? "?"}`).join("; ");
  return renderPage({ title: nb.title, subtitle: `Notebook ${nb.name} (notebooks/${nb.name}.ts). Inputs: ${sources}. Re-render: errata notebook ${nb.name} --out DIR.`, blocks });
}
