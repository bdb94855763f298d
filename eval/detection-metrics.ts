import { BarMetricSchema } from "../schemas/eval-bars.js";
import type { BlockStatistic } from "./session-block-bootstrap.js";

/**
 * Detection and class figures of several detectors on the same gold items, as one
 * `BlockStatistic`, so a bootstrap replicate scores every detector on the same resample
 * (paired) and differences between detectors come out of the same replicate.
 *
 * Per detector, over items with a gold verdict and a scored prediction, with w the item's
 * corpus weight (1 / inclusion probability, calibrated):
 *   precision = sum w TP / sum w (TP + FP),  recall = sum w TP / sum w (TP + FN),
 *   F1 = 2 sum w TP / (2 sum w TP + sum w FP + sum w FN),
 *   classAccuracy = sum w [class right] / sum w [gold failure with a gold class, detected,
 *                   class given]   (class accuracy given detection),
 *   kappa = Cohen's kappa of detected vs the gold majority, unweighted (agreement on the
 *           gold items, comparable with the labellers' own kappa),
 *   kappaWeighted = the same kappa from the corpus-weighted 2x2 table (comparable with the
 *           weighted precision and recall beside it).
 * Ratios of weighted sums (Hajek): each is a consistent estimate of the corpus figure.
 * An unscored prediction (`detected: null`) or no prediction leaves the item out of those
 * figures for that detector (never a "no"); an item whose gold verdict is a tie is left out
 * for all. Because leaving out can flatter a detector that abstains where it would be wrong,
 * every detector also has:
 *   coverage = sum w [scored] / sum w [gold verdict]   (scored share of the items),
 *   classCoverage = sum w [class given] / sum w [detected gold failure with a gold class],
 *   strictPrecision, strictRecall, strictF1, strictClassAccuracy = the same ratios where an
 *           unscored item counts against the detector: an unscored gold failure as a miss,
 *           an unscored non-failure as a false alarm, a detection without a class as a
 *           wrong class.
 * Figures are `null` when their denominator is empty.
 *
 * Figures: for each detector d, `d.<metric>` for every metric of METRICS; then for each
 * pair (a, b) in order, `a-b.<metric>` = a's minus b's.
 *
 * Example: 4 gold failures and 4 non-failures, weight 1, v4 detects 3 of the failures and 1
 * non-failure → v4.precision 0.75, v4.recall 0.75, v4.f1 0.75, v4.coverage 1. The same v4
 * with its wrong verdicts unscored → precision, recall 1, coverage 0.75, strictRecall 0.75.
 */
// The metric names are the bars file's, from one list (schemas/eval-bars.ts).
export const METRICS = BarMetricSchema.options;
export type Metric = (typeof METRICS)[number];
/** The figures a score table shows first (the rest are printed under it). */
export const HEADLINE_METRICS: readonly Metric[] = ["precision", "recall", "f1", "classAccuracy", "kappa", "kappaWeighted"];

export interface ScoredGoldItem {
  /** Majority verdict: failure or not; null when the labellers tied (item left out). */
  goldFailure: boolean | null;
  /** Majority class of a gold failure; null when none or tied. */
  goldClass: string | null;
  /** Corpus weight (1 / inclusion probability, calibrated). */
  weight: number;
}

export interface DetectorPrediction {
  detected: boolean | null;
  class: string | null;
}

// Per detector, sums: 0 wTP, 1 wFP, 2 wFN, 3 w class right, 4 w class scored,
// 5..8 unweighted TP, FP, FN, TN (kappa), 9 wTN, 10 w unscored gold failure,
// 11 w unscored non-failure, 12 w detected gold failure with a gold class (class given or not).
const PER = 13;

/** Cohen's kappa of a 2x2 table (TP, FP, FN, TN); null when chance agreement is 1 or the table is empty. */
function kappa2x2(a: number, b: number, c: number, e: number): number | null {
  const n = a + b + c + e;
  if (!(n > 0)) return null;
  const po = (a + e) / n;
  const pe = ((a + b) / n) * ((a + c) / n) + ((c + e) / n) * ((b + e) / n);
  return 1 - pe > 1e-12 ? (po - pe) / (1 - pe) : null;
}

export function detectorMetricsStatistic(
  items: readonly ScoredGoldItem[],
  detectors: readonly string[],
  predictions: readonly (readonly (DetectorPrediction | undefined)[])[],
): BlockStatistic {
  const D = detectors.length;
  const pairs: [number, number][] = [];
  for (let a = 0; a < D; a++) for (let b = a + 1; b < D; b++) pairs.push([a, b]);
  const names = [
    ...detectors.flatMap((d) => METRICS.map((m) => `${d}.${m}`)),
    ...pairs.flatMap(([a, b]) => METRICS.map((m) => `${detectors[a]}-${detectors[b]}.${m}`)),
  ];
  const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);
  const add = (acc: Float64Array, k: number, v: number): void => {
    acc[k] = acc[k]! + v;
  };
  return {
    names,
    width: D * PER,
    items: items.length,
    addItem(i, mult, acc) {
      const g = items[i]!;
      if (g.goldFailure === null) return;
      const w = mult * g.weight;
      for (let d = 0; d < D; d++) {
        const p = predictions[d]?.[i];
        const o = d * PER;
        if (!p || p.detected === null) {
          add(acc, o + (g.goldFailure ? 10 : 11), w);
          continue;
        }
        if (p.detected && g.goldFailure) {
          add(acc, o, w);
          add(acc, o + 5, mult);
          if (g.goldClass !== null) {
            add(acc, o + 12, w);
            if (p.class !== null) {
              add(acc, o + 4, w);
              if (p.class === g.goldClass) add(acc, o + 3, w);
            }
          }
        } else if (p.detected) {
          add(acc, o + 1, w);
          add(acc, o + 6, mult);
        } else if (g.goldFailure) {
          add(acc, o + 2, w);
          add(acc, o + 7, mult);
        } else {
          add(acc, o + 8, mult);
          add(acc, o + 9, w);
        }
      }
    },
    finish(s) {
      const M = METRICS.length;
      const out = new Array<number | null>(names.length);
      for (let d = 0; d < D; d++) {
        const o = d * PER;
        const tp = s[o]!;
        const fp = s[o + 1]!;
        const fn = s[o + 2]!;
        const tn = s[o + 9]!;
        const uf = s[o + 10]!;
        const un = s[o + 11]!;
        const classable = s[o + 12]!;
        const row = [
          ratio(tp, tp + fp),
          ratio(tp, tp + fn),
          ratio(2 * tp, 2 * tp + fp + fn),
          ratio(s[o + 3]!, s[o + 4]!),
          kappa2x2(s[o + 5]!, s[o + 6]!, s[o + 7]!, s[o + 8]!),
          kappa2x2(tp, fp, fn, tn),
          ratio(tp + fp + fn + tn, tp + fp + fn + tn + uf + un),
          ratio(s[o + 4]!, classable),
          ratio(tp, tp + fp + un),
          ratio(tp, tp + fn + uf),
          ratio(2 * tp, 2 * tp + fp + fn + uf + un),
          ratio(s[o + 3]!, classable),
        ];
        for (let m = 0; m < M; m++) out[d * M + m] = row[m] ?? null;
      }
      let k = D * M;
      for (const [a, b] of pairs) {
        for (let m = 0; m < M; m++) {
          const x = out[a * M + m] as number | null;
          const y = out[b * M + m] as number | null;
          out[k++] = x === null || y === null ? null : x - y;
        }
      }
      return out;
    },
  };
}
