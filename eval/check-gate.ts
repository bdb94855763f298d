import type { Bar, EvalBars } from "../schemas/eval-bars.js";
import { EvalInputError } from "./errors.js";
import type { FigureInterval } from "./session-block-bootstrap.js";

/**
 * The promotion gate: each bar judged against the scored figures and their intervals.
 *
 * Defaults, from the seed's promotion bars:
 * - ISC-44 (two bars): v4 beats v3 on detection (F1) and on class (class accuracy given
 *   detection) on the session-disjoint holdout; "beats" means the lower bound of the paired
 *   session-block interval of v4 minus v3 is above 0, so noise cannot pass it.
 * - ISC-56: v4's detection recall is at least 0.60 (point figure). Why 0.60: the seed asks
 *   for "high" recall; the best deterministic classifier measured on human-labelled data
 *   reaches 0.50 (ANCHORS: LifeOS hook on USS SGD), and a single extra crowd rater reaches
 *   0.49-0.54 against the 3-rater majority (USS turns with a 4th rating: SGD 0.537, MWOZ
 *   0.490). 0.60 is above both: the detector must find failures at least as reliably as one
 *   more human would.
 * - ISC-53: v4's class accuracy given detection is at least 0.80 (point figure; the seed's bar).
 *
 * Policy: a bar naming a detector that was not scored throws BAD_VALUE (bad input, exit 2);
 * an undefined figure (empty denominator) fails its bar with that reason.
 *
 * Example (AB-ReDial holdout, synthetic detectors): v4 - v3 F1 +0.376 [+0.235, +0.513]
 * against ISC-44-detection → `{id: "ISC-44-detection", pass: true, figure: 0.376,
 * lower: 0.235, upper: 0.513, threshold: 0, rule: "lower", name: "v4-v3.f1"}`.
 */
export const DEFAULT_RECALL_BAR = 0.6;
export const DEFAULT_CLASS_BAR = 0.8;

export const DEFAULT_BARS: EvalBars = {
  schema: "eval-bars/1",
  bars: [
    { id: "ISC-44-detection", kind: "beats", metric: "f1", detector: "v4", baseline: "v3", rule: "lower", description: "v4 beats v3 on detection (F1) on the holdout" },
    { id: "ISC-44-class", kind: "beats", metric: "classAccuracy", detector: "v4", baseline: "v3", rule: "lower", description: "v4 beats v3 on class accuracy given detection on the holdout" },
    { id: "ISC-56", kind: "at_least", metric: "recall", detector: "v4", value: DEFAULT_RECALL_BAR, rule: "point", description: "v4 detection recall is high" },
    { id: "ISC-53", kind: "at_least", metric: "classAccuracy", detector: "v4", value: DEFAULT_CLASS_BAR, rule: "point", description: "v4 class accuracy given detection" },
  ],
};

export interface BarResult {
  id: string;
  description: string;
  pass: boolean;
  /** The figure judged: a metric, or a difference for "beats". */
  figure: number | null;
  lower: number | null;
  upper: number | null;
  /** What the judged value must exceed (beats: 0) or reach (at_least). */
  threshold: number;
  rule: "point" | "lower";
  /** The named figure, e.g. "v4-v3.f1" or "v4.recall". */
  name: string;
  reason: string | null;
}

export function describeBar(bar: Bar): string {
  return bar.kind === "beats"
    ? `${bar.detector} beats ${bar.baseline} on ${bar.metric}`
    : `${bar.detector} ${bar.metric} >= ${bar.value}`;
}

/**
 * Judges bars against figures by name (`d.metric` and `a-b.metric` as produced by
 * `detectorMetricsStatistic`). A "beats" bar reads `detector-baseline.metric`, or the
 * negated `baseline-detector.metric` when detectors were listed the other way round.
 */
export function checkBars(bars: readonly Bar[], figures: readonly FigureInterval[], detectors: readonly string[]): BarResult[] {
  const byName = new Map(figures.map((f) => [f.name, f]));
  return bars.map((bar): BarResult => {
    const need = bar.kind === "beats" ? [bar.detector, bar.baseline] : [bar.detector];
    for (const d of need) {
      if (!detectors.includes(d)) {
        throw new EvalInputError("BAD_VALUE", `bar ${bar.id} names detector ${d}, which was not scored`, `one of the scored detectors`, detectors.join(", ") || "none");
      }
    }
    let name: string;
    let f: { point: number | null; lower: number | null; upper: number | null } | undefined;
    if (bar.kind === "beats") {
      name = `${bar.detector}-${bar.baseline}.${bar.metric}`;
      const direct = byName.get(name);
      const reverse = byName.get(`${bar.baseline}-${bar.detector}.${bar.metric}`);
      const neg = (x: number | null): number | null => (x === null ? null : -x);
      f = direct ?? (reverse ? { point: neg(reverse.point), lower: neg(reverse.upper), upper: neg(reverse.lower) } : undefined);
    } else {
      name = `${bar.detector}.${bar.metric}`;
      f = byName.get(name);
    }
    const threshold = bar.kind === "beats" ? 0 : bar.value;
    const judged = f ? (bar.rule === "lower" ? f.lower : f.point) : null;
    const pass = judged !== null && (bar.kind === "beats" ? judged > threshold : judged >= threshold);
    return {
      id: bar.id,
      description: bar.description ?? describeBar(bar),
      pass,
      figure: f?.point ?? null,
      lower: f?.lower ?? null,
      upper: f?.upper ?? null,
      threshold,
      rule: bar.rule,
      name,
      reason: judged === null ? `${name}${bar.rule === "lower" ? " interval" : ""} is undefined (empty denominator)` : null,
    };
  });
}
