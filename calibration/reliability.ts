import { checkProbabilities } from "./scores.js";
import { CalibrationError } from "./errors.js";

/**
 * Reliability-diagram data and expected calibration error (ECE) over equal-mass bins, as a
 * function of the set of points: the same points in any order give the same bins and the
 * same ECE, to the last bit.
 *
 * Binning convention (ours; scikit-learn has no ECE): points with the same probability form
 * one group and a group is never split across bins (so a bin may hold more or less than
 * W / B of the weight when probabilities tie, and some bins may be empty). Groups are taken
 * in increasing probability; group g goes to bin floor(B · (W_before + W_g / 2) / W), where
 * W_before is the weight of the groups below it and W the total weight. Without ties this is
 * one point per group: with unit weights and n divisible by B every bin holds n / B points.
 * Sums are taken in one canonical order (probability, then label, then weight), so row order
 * cannot move even the rounding. ECE = Σ_b (W_b / W) · |mean probability_b − observed rate_b|.
 *
 * Example: ten points p = 0.05, 0.15, …, 0.95 with labels [0,0,0,1,0,1,1,0,1,1] in 5 bins:
 * bins of 2, ECE = (|0.1−0| + |0.3−0.5| + |0.5−0.5| + |0.7−0.5| + |0.9−1|) / 5 = 0.12. Four
 * points at p = 0.5 (labels 1, 0, 0, 0) and one at 0.9 (label 1) in 2 bins: the tied four
 * share a bin whatever their order, ECE = (4/5)·|0.5 − 0.25| + (1/5)·|0.9 − 1| = 0.22.
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
  /** Requested number of bins; empty bins (fewer groups than bins, or ties) are omitted. */
  binsRequested: number;
  /** How the bins were formed, for printing beside the figure. */
  binning: string;
}

/** The binning convention in words (printed with every ECE). */
export const BINNING = "equal-mass bins by weight, tied probabilities kept in one bin";

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
  const w = (i: number): number => weights?.[i] ?? 1;
  const order = probabilities.map((_, i) => i).sort((i, j) => probabilities[i]! - probabilities[j]! || labels[i]! - labels[j]! || w(i) - w(j));
  let total = 0;
  for (const i of order) total += w(i);
  const acc = Array.from({ length: binsRequested }, () => ({ count: 0, weight: 0, sp: 0, sy: 0, pMin: Infinity, pMax: -Infinity }));
  let before = 0;
  for (let start = 0; start < order.length; ) {
    const p = probabilities[order[start]!]!;
    let end = start;
    let groupWeight = 0;
    while (end < order.length && probabilities[order[end]!] === p) groupWeight += w(order[end++]!);
    const b = Math.min(binsRequested - 1, Math.floor((binsRequested * (before + groupWeight / 2)) / total));
    before += groupWeight;
    const a = acc[b]!;
    for (let k = start; k < end; k++) {
      const i = order[k]!;
      a.count++;
      a.weight += w(i);
      a.sp += w(i) * p;
      a.sy += w(i) * labels[i]!;
    }
    a.pMin = Math.min(a.pMin, p);
    a.pMax = Math.max(a.pMax, p);
    start = end;
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
  return { bins, ece, binsRequested, binning: `${binsRequested} ${BINNING}` };
}

/** ECE with 10 equal-mass bins (the convention every report uses). */
export function expectedCalibrationError(probabilities: readonly number[], labels: readonly number[], weights?: readonly number[]): number {
  return reliability(probabilities, labels, weights === undefined ? {} : { weights }).ece;
}
