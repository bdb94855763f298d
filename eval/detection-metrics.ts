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
 *           gold items, comparable with the labellers' own kappa).
 * Ratios of weighted sums (Hajek): each is a consistent estimate of the corpus figure.
 * An unscored prediction (`detected: null`) or no prediction leaves the item out for that
 * detector (never a "no"); an item whose gold verdict is a tie is left out for all.
 * Figures are `null` when their denominator is empty.
 *
 * Figures: for each detector d, `d.precision`, `d.recall`, `d.f1`, `d.classAccuracy`,
 * `d.kappa`; then for each pair (a, b) in order, `a-b.<metric>` = a's minus b's.
 *
 * Example: 4 gold failures and 4 non-failures, weight 1, v4 detects 3 of the failures and 1
 * non-failure → v4.precision 0.75, v4.recall 0.75, v4.f1 0.75.
 */
export const METRICS = ["precision", "recall", "f1", "classAccuracy", "kappa"] as const;
export type Metric = (typeof METRICS)[number];

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
// 5..8 unweighted TP, FP, FN, TN for kappa.
const PER = 9;

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
        if (!p || p.detected === null) continue;
        const o = d * PER;
        if (p.detected && g.goldFailure) {
          acc[o] = (acc[o]!) + w;
          acc[o + 5] = (acc[o + 5]!) + mult;
          if (g.goldClass !== null && p.class !== null) {
            acc[o + 4] = (acc[o + 4]!) + w;
            if (p.class === g.goldClass) acc[o + 3] = (acc[o + 3]!) + w;
          }
        } else if (p.detected) {
          acc[o + 1] = (acc[o + 1]!) + w;
          acc[o + 6] = (acc[o + 6]!) + mult;
        } else if (g.goldFailure) {
          acc[o + 2] = (acc[o + 2]!) + w;
          acc[o + 7] = (acc[o + 7]!) + mult;
        } else {
          acc[o + 8] = (acc[o + 8]!) + mult;
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
        const a = s[o + 5]!;
        const b = s[o + 6]!;
        const c = s[o + 7]!;
        const e = s[o + 8]!;
        const n = a + b + c + e;
        let kappa: number | null = null;
        if (n > 0) {
          const po = (a + e) / n;
          const pe = ((a + b) / n) * ((a + c) / n) + ((c + e) / n) * ((b + e) / n);
          kappa = 1 - pe > 1e-12 ? (po - pe) / (1 - pe) : null;
        }
        out[d * M] = ratio(tp, tp + fp);
        out[d * M + 1] = ratio(tp, tp + fn);
        out[d * M + 2] = ratio(2 * tp, 2 * tp + fp + fn);
        out[d * M + 3] = ratio(s[o + 3]!, s[o + 4]!);
        out[d * M + 4] = kappa;
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
