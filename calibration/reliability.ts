import { checkProbabilities } from "./scores.js";
import { CalibrationError } from "./errors.js";

/**
 * Reliability-diagram data and expected calibration error (ECE) over equal-mass bins.
 *
 * Binning convention (ours; scikit-learn has no ECE): points are sorted by probability (ties
 * by input order) and point i goes to bin floor(B · (W_before + w_i / 2) / W), where W_before
 * is the weight of the points sorted before it and W the total weight, so each bin holds
 * about W / B of the weight. With unit weights and n divisible by B every bin holds n / B
 * points. ECE = Σ_b (W_b / W) · |mean probability_b − observed rate_b|.
 *
 * Example: ten points p = 0.05, 0.15, …, 0.95 with labels [0,0,0,1,0,1,1,0,1,1] in 5 bins:
 * bins of 2, ECE = (|0.1−0| + |0.3−0.5| + |0.5−0.5| + |0.7−0.5| + |0.9−1|) / 5 = 0.12.
 */
export interface ReliabilityBin {
  /** 0-based bin index. */
  bin: number;
  count: number;
  weight: number;
  /** Smallest and largest probability in the bin. */
  pMin: number;
  pMax: number;
  /** Weighted mean predicted probability. */
  meanPredicted: number;
  /** Weighted share of yes labels. */
  observedRate: number;
}

export interface Reliability {
  bins: ReliabilityBin[];
  ece: number;
  /** Requested number of bins; empty bins (fewer points than bins) are omitted. */
  binsRequested: number;
}

export function reliability(
  probabilities: readonly number[],
  labels: readonly number[],
  options: { bins?: number; weights?: readonly number[] } = {},
): Reliability {
  const { weights } = options;
  checkProbabilities("reliability", probabilities, labels, weights);
  const binsRequested = options.bins ?? 10;
  if (!Number.isInteger(binsRequested) || binsRequested < 1) {
    throw new CalibrationError("BAD_OPTION", "reliability", "a positive whole number of bins", String(binsRequested));
  }
  const order = probabilities.map((_, i) => i).sort((i, j) => probabilities[i]! - probabilities[j]! || i - j);
  let total = 0;
  for (let i = 0; i < probabilities.length; i++) total += weights?.[i] ?? 1;
  const acc = Array.from({ length: binsRequested }, () => ({ count: 0, weight: 0, sp: 0, sy: 0, pMin: Infinity, pMax: -Infinity }));
  let before = 0;
  for (const i of order) {
    const w = weights?.[i] ?? 1;
    const b = Math.min(binsRequested - 1, Math.floor((binsRequested * (before + w / 2)) / total));
    before += w;
    const a = acc[b]!;
    const p = probabilities[i]!;
    a.count++;
    a.weight += w;
    a.sp += w * p;
    a.sy += w * labels[i]!;
    a.pMin = Math.min(a.pMin, p);
    a.pMax = Math.max(a.pMax, p);
  }
  const bins: ReliabilityBin[] = [];
  let ece = 0;
  acc.forEach((a, bin) => {
    if (a.count === 0 || a.weight === 0) return;
    const meanPredicted = a.sp / a.weight;
    const observedRate = a.sy / a.weight;
    ece += (a.weight / total) * Math.abs(meanPredicted - observedRate);
    bins.push({ bin, count: a.count, weight: a.weight, pMin: a.pMin, pMax: a.pMax, meanPredicted, observedRate });
  });
  return { bins, ece, binsRequested };
}

/** ECE with 10 equal-mass bins (the convention every report uses). */
export function expectedCalibrationError(probabilities: readonly number[], labels: readonly number[], weights?: readonly number[]): number {
  return reliability(probabilities, labels, weights === undefined ? {} : { weights }).ece;
}
