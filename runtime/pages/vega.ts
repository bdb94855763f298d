import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

/**
 * A Vega-Lite spec rendered to SVG in Node: compiled by vega-lite, run by a headless vega
 * View (renderer "none": no canvas, no browser; text widths are vega's own estimate, so the
 * bytes do not depend on the machine's fonts). The same spec gives the same SVG.
 *
 * Example: `await renderSvg({data: {values: [{a: "x", b: 1}]}, mark: "bar", encoding: {...}})`
 * -> `<svg xmlns="http://www.w3.org/2000/svg" … class="marks" width="240" height="145" …>`.
 */
export type VegaLiteSpec = TopLevelSpec;

export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
