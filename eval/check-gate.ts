import { DEFAULT_COVERAGE_BAR, type Bar, type BarOn, type EvalBars } from "../schemas/eval-bars.js";
import { EvalInputError } from "./errors.js";
import type { FigureInterval } from "./session-block-bootstrap.js";

/**
 * The promotion gate: each bar judged against the scored figures and their intervals.
 *
 * Defaults, from the seed's promotion bars, each judged on the bound that protects the owner
 * (printed beside the verdict):
 * - ISC-44 (two bars): v4 beats v3 on detection (F1) and on class (class accuracy given
 *   detection) on the session-disjoint holdout; "beats" means the lower bound of the paired
 *   session-block interval of v4 minus v3 is above 0, so noise cannot pass it.
 * - ISC-56: the lower bound of v4's detection recall is at least 0.60. Why 0.60: the seed asks
 *   for "high" recall; the best deterministic classifier measured on human-labelled data
 *   reaches 0.50 (ANCHORS: LifeOS hook on USS SGD), and a single extra crowd rater reaches
 *   0.49-0.54 against the 3-rater majority (USS turns with a 4th rating: SGD 0.537, MWOZ
 *   0.490). 0.60 is above both: the detector must find failures at least as reliably as one
 *   more human would. On the lower bound: a point recall of 0.643 with an interval of
 *   [0.390, 1.000] does not show that.
 * - ISC-53: the lower bound of v4's class accuracy given detection is at least 0.80 (the
 *   seed's bar).
 * - Coverage (every detector a bar names): the lower bound of its scored share of the gold
 *   items is at least 0.95, and, for a detector a class bar names, of its classed share of
 *   detections too. Without it a detector could pass every bar by leaving its wrong answers
 *   unscored (v4's 59 wrong verdicts of 151 unscored took precision, recall and F1 to 1.000).
 *
 * Policy: a bar naming a detector that was not scored throws BAD_VALUE (bad input, exit 2);
 * an undefined figure (empty denominator) fails its bar with that reason; a bar whose
 * detector was trained on holdout items (`inSample`) fails with that reason.
 *
 * Example (AB-ReDial holdout, synthetic detectors): v4 - v3 F1 +0.376 [+0.235, +0.513]
 * against ISC-44-detection → `{id: "ISC-44-detection", pass: true, figure: 0.376,
 * lower: 0.235, upper: 0.513, threshold: 0, rule: "lower", comparison: ">", name: "v4-v3.f1"}`.
 */
export const DEFAULT_RECALL_BAR = 0.6;
export const DEFAULT_CLASS_BAR = 0.8;

export const DEFAULT_BARS: EvalBars = {
  schema: "eval-bars/1",
  coverage: { min: DEFAULT_COVERAGE_BAR, on: "lower" },
  bars: [
    { id: "ISC-44-detection", kind: "beats", metric: "f1", detector: "v4", baseline: "v3", on: "lower", description: "v4 beats v3 on detection (F1) on the holdout" },
    { id: "ISC-44-class", kind: "beats", metric: "classAccuracy", detector: "v4", baseline: "v3", on: "lower", description: "v4 beats v3 on class accuracy given detection on the holdout" },
    { id: "ISC-56", kind: "at_least", metric: "recall", detector: "v4", value: DEFAULT_RECALL_BAR, on: "lower", description: "v4 detection recall is high" },
    { id: "ISC-53", kind: "at_least", metric: "classAccuracy", detector: "v4", value: DEFAULT_CLASS_BAR, on: "lower", description: "v4 class accuracy given detection" },
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
  /** What the judged value must exceed (beats: 0), reach (at_least) or not pass (at_most). */
  threshold: number;
  /** What was judged: the point figure or a bound of its interval (the bar's `on`). */
  rule: BarOn;
  comparison: ">" | ">=" | "<=";
  /** The named figure, e.g. "v4-v3.f1" or "v4.recall". */
  name: string;
  reason: string | null;
}

/** Why a detector may not be judged on these items: it was trained on some of them. */
export interface InSampleNote {
  /** Holdout items found in its training record (null: unknown, the whole set may be). */
  items: number | null;
  of: number;
  note: string;
}

export interface CheckOptions {
  /** The coverage bar (default: 0.95 on the lower bound). */
  coverage?: EvalBars["coverage"];
  /** Detectors trained on holdout items: their bars fail. */
  inSample?: ReadonlyMap<string, InSampleNote>;
}

const CLASS_METRICS = new Set(["classAccuracy", "strictClassAccuracy"]);

export function describeBar(bar: Bar): string {
  return bar.kind === "beats" ? `${bar.detector} beats ${bar.baseline} on ${bar.metric}` : `${bar.detector} ${bar.metric} ${bar.kind === "at_least" ? ">=" : "<="} ${bar.value}`;
}

/** "lower bound >= 0.6", "point > 0", "upper bound <= 0.1": what a verdict was judged on. */
export function describeRule(r: Pick<BarResult, "rule" | "comparison" | "threshold">): string {
  return `${r.rule === "point" ? "point" : `${r.rule} bound`} ${r.comparison} ${r.threshold}`;
}

/** The coverage bars implied by the bars: one per named detector, and a class one per detector a class bar names. */
export function coverageBars(bars: readonly Bar[], coverage: EvalBars["coverage"]): Bar[] {
  const named = [...new Set(bars.flatMap((b) => (b.kind === "beats" ? [b.detector, b.baseline] : [b.detector])))];
  const classed = new Set(bars.filter((b) => CLASS_METRICS.has(b.metric)).flatMap((b) => (b.kind === "beats" ? [b.detector, b.baseline] : [b.detector])));
  return named.flatMap((d): Bar[] => [
    { id: `coverage-${d}`, kind: "at_least", metric: "coverage", detector: d, value: coverage.min, on: coverage.on, description: `${d} scores at least ${coverage.min} of the gold items` },
    ...(classed.has(d)
      ? [{ id: `class-coverage-${d}`, kind: "at_least" as const, metric: "classCoverage" as const, detector: d, value: coverage.min, on: coverage.on, description: `${d} names a class for at least ${coverage.min} of its detections` }]
      : []),
  ]);
}

/**
 * Judges bars against figures by name (`d.metric` and `a-b.metric` as produced by
 * `detectorMetricsStatistic`), then the coverage bars they imply. A "beats" bar reads
 * `detector-baseline.metric`, or the negated `baseline-detector.metric` when detectors were
 * listed the other way round.
 */
export function checkBars(bars: readonly Bar[], figures: readonly FigureInterval[], detectors: readonly string[], options: CheckOptions = {}): BarResult[] {
  const byName = new Map(figures.map((f) => [f.name, f]));
  const coverage = options.coverage ?? { min: DEFAULT_COVERAGE_BAR, on: "lower" as const };
  return [...bars, ...coverageBars(bars, coverage)].map((bar): BarResult => {
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
    const comparison = bar.kind === "beats" ? ">" : bar.kind === "at_least" ? ">=" : "<=";
    const judged = f ? (bar.on === "lower" ? f.lower : bar.on === "upper" ? f.upper : f.point) : null;
    const met = judged !== null && (comparison === ">" ? judged > threshold : comparison === ">=" ? judged >= threshold : judged <= threshold);
    const trained = options.inSample?.get(bar.detector);
    const reason =
      judged === null ? `${name}${bar.on === "point" ? "" : " interval"} is undefined (empty denominator)` : trained && !bar.metric.endsWith("overage") ? `in-sample: ${trained.note}` : null;
    return {
      id: bar.id,
      description: bar.description ?? describeBar(bar),
      pass: met && reason === null,
      figure: f?.point ?? null,
      lower: f?.lower ?? null,
      upper: f?.upper ?? null,
      threshold,
      rule: bar.on,
      comparison,
      name,
      reason,
    };
  });
}
