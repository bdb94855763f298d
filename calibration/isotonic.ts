/**
 * Isotonic regression by pool-adjacent-violators, with sample weights, as scikit-learn's
 * `IsotonicRegression(out_of_bounds="clip")` does inside its calibrator: zero-weight points
 * are dropped, tied scores are merged first (weighted mean of their labels, summed weight),
 * the fitted step values are joined by straight lines between the fitted scores, and a score
 * outside the fitted range is clipped to the nearest end.
 *
 * Example: fitIsotonic([1, 2, 3, 4], [0, 1, 0, 1]) gives x = [1, 2, 3, 4], y = [0, 0.5, 0.5, 1];
 * isotonicPredict(model, 2.5) = 0.5, isotonicPredict(model, 1.5) = 0.25 and
 * isotonicPredict(model, 9) = 1 (clipped to the fitted range).
 */
import { CalibrationError } from "./errors.js";
export interface IsotonicModel {
  readonly method: "isotonic";
  /** Fitted scores, increasing. */
  x: number[];
  /** Fitted values, non-decreasing, one per x. */
  y: number[];
}

/**
 * Pool adjacent violators: the non-decreasing sequence closest to `values` in weighted
 * least squares. Returns one value per input.
 *
 * Example: pava([1, 3, 2, 4], [1, 1, 2, 1]) = [1, 2.333…, 2.333…, 4].
 */
export function pava(values: readonly number[], weights?: readonly number[]): number[] {
  const n = values.length;
  const blockValue: number[] = [];
  const blockWeight: number[] = [];
  const blockSize: number[] = [];
  for (let i = 0; i < n; i++) {
    let v = values[i]!;
    let w = weights?.[i] ?? 1;
    let size = 1;
    while (blockValue.length > 0 && blockValue[blockValue.length - 1]! >= v) {
      const pv = blockValue.pop()!;
      const pw = blockWeight.pop()!;
      const ps = blockSize.pop()!;
      const total = pw + w;
      v = total > 0 ? (pv * pw + v * w) / total : (pv + v) / 2;
      w = total;
      size += ps;
    }
    blockValue.push(v);
    blockWeight.push(w);
    blockSize.push(size);
  }
  const out: number[] = [];
  for (let b = 0; b < blockValue.length; b++) for (let k = 0; k < blockSize[b]!; k++) out.push(blockValue[b]!);
  return out;
}

/** Fits an increasing isotonic map from scores to labels (any reals; 0/1 for calibration). */
export function fitIsotonic(scores: readonly number[], labels: readonly number[], weights?: readonly number[]): IsotonicModel {
  if (labels.length !== scores.length) {
    throw new CalibrationError("BAD_SHAPE", "isotonic", `${scores.length} labels (one per score)`, String(labels.length));
  }
  if (weights !== undefined && weights.length !== scores.length) {
    throw new CalibrationError("BAD_SHAPE", "isotonic", `${scores.length} weights`, String(weights.length));
  }
  const idx: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    const y = labels[i]!;
    const w = weights?.[i] ?? 1;
    if (!Number.isFinite(s) || !Number.isFinite(y)) throw new CalibrationError("BAD_VALUE", "isotonic", "finite values", `${s}, ${y} at ${i}`);
    if (!(w >= 0) || !Number.isFinite(w)) throw new CalibrationError("BAD_VALUE", "isotonic", "non-negative finite weights", `${w} at ${i}`);
    if (w > 0) idx.push(i);
  }
  if (idx.length === 0) throw new CalibrationError("EMPTY", "isotonic", "at least one point with positive weight", "none");
  idx.sort((i, j) => scores[i]! - scores[j]! || labels[i]! - labels[j]! || i - j);
  // Merge ties in score.
  const ux: number[] = [];
  const uy: number[] = [];
  const uw: number[] = [];
  for (const i of idx) {
    const s = scores[i]!;
    const w = weights?.[i] ?? 1;
    const last = ux.length - 1;
    if (last >= 0 && ux[last] === s) {
      const total = uw[last]! + w;
      uy[last] = (uy[last]! * uw[last]! + labels[i]! * w) / total;
      uw[last] = total;
    } else {
      ux.push(s);
      uy.push(labels[i]!);
      uw.push(w);
    }
  }
  const fitted = pava(uy, uw);
  // Drop interior points of flat runs: they do not change the interpolation.
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < ux.length; k++) {
    const interior = k > 0 && k < ux.length - 1 && fitted[k] === fitted[k - 1] && fitted[k] === fitted[k + 1];
    if (!interior) {
      x.push(ux[k]!);
      y.push(fitted[k]!);
    }
  }
  return { method: "isotonic", x, y };
}

/** The fitted value at a score: linear between fitted points, clipped outside their range. */
export function isotonicPredict(model: Pick<IsotonicModel, "x" | "y">, score: number): number {
  const { x, y } = model;
  const n = x.length;
  if (n === 0) throw new CalibrationError("EMPTY", "isotonic", "a fitted model", "no points");
  if (n === 1 || score <= x[0]!) return y[0]!;
  if (score >= x[n - 1]!) return y[n - 1]!;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (x[mid]! <= score) lo = mid;
    else hi = mid;
  }
  const x0 = x[lo]!;
  const x1 = x[hi]!;
  const t = (score - x0) / (x1 - x0);
  return y[lo]! + t * (y[hi]! - y[lo]!);
}
