import type { VegaLiteSpec } from "../runtime/pages/index.js";

/**
 * The notebooks' few chart shapes as Vega-Lite specs: estimates with intervals (a point on a
 * rule), grouped bars, and a reliability diagram. Data are inline values, so the spec is the
 * whole figure.
 */
export interface IntervalRow {
  /** The row's label on the y axis. */
  label: string;
  /** Colour group (a measure, a detector). */
  group: string;
  value: number;
  lower: number | null;
  upper: number | null;
}

const WIDTH = 560;

/** Points with interval rules, one row per label, coloured by group. */
export function intervalChart(rows: readonly IntervalRow[], axis: string, domain: [number, number] | null = null): VegaLiteSpec {
  const values = rows.map((r) => ({ ...r, lower: r.lower ?? r.value, upper: r.upper ?? r.value }));
  const x = { type: "quantitative" as const, title: axis, ...(domain ? { scale: { domain } } : {}) };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: WIDTH,
    height: { step: 22 },
    data: { values },
    encoding: { y: { field: "label", type: "nominal", title: null, sort: null, axis: { labelLimit: 420 } }, color: { field: "group", type: "nominal", title: null, legend: { labelLimit: 320 } } },
    layer: [
      { mark: { type: "rule", strokeWidth: 2 }, encoding: { x: { field: "lower", ...x }, x2: { field: "upper" } } },
      { mark: { type: "point", filled: true, size: 70 }, encoding: { x: { field: "value", ...x } } },
    ],
  };
}

/** Horizontal bars of one value per label, coloured by group. */
export function barChart(rows: readonly { label: string; group: string; value: number }[], axis: string): VegaLiteSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: WIDTH,
    height: { step: 20 },
    data: { values: [...rows] },
    mark: "bar",
    encoding: {
      y: { field: "label", type: "nominal", title: null, sort: null, axis: { labelLimit: 420 } },
      x: { field: "value", type: "quantitative", title: axis },
      color: { field: "group", type: "nominal", title: null, legend: { labelLimit: 320 } },
    },
  };
}
