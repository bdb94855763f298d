/**
 * Platt scaling: P(y = 1 | f) = 1 / (1 + exp(a·f + b)), fitted by Newton's method with a
 * backtracking line search (Lin, Lin & Weng 2007, "A note on Platt's probabilistic outputs")
 * on Platt's adjusted targets: a positive counts as (N₊ + 1) / (N₊ + 2) and a negative as
 * 1 / (N₋ + 2), where N₊ and N₋ are the (weighted) counts. This is the objective
 * scikit-learn's `_sigmoid_calibration` minimises (it uses L-BFGS-B; the optimum is the same,
 * the objective being convex); the sign convention (a < 0 for a useful score) is sklearn's.
 * Sample weights are scaled to mean 1 first (`normaliseWeights`, default true), so the fit
 * does not depend on their scale: design weights come in any unit, and the weighted counts
 * N₊, N₋ move the targets (issue 18 measured a = −27.1 with raw weights, −11.1 normalised).
 * `normaliseWeights: false` is the reference implementation's raw-weight convention.
 *
 * Example: fitPlatt([-2, -1, 0, 1, 2], [0, 0, 1, 1, 1]) gives about
 * {a: -0.79236, b: -0.41865}; plattPredict(that, 0) ≈ 0.60316.
 */
import { normaliseToMeanOne } from "../learn/index.js";
import { CalibrationError } from "./errors.js";
export interface PlattModel {
  readonly method: "platt";
  /** Slope (negative when larger scores mean "yes"). */
  a: number;
  b: number;
}

export interface PlattOptions {
  /** Newton iterations at most (default 100). */
  maxIterations?: number;
  /** Stop when the step is below this in both coordinates (default 1e-12). */
  tolerance?: number;
  /** Scale the weights to mean 1 before fitting (default true). */
  normaliseWeights?: boolean;
}

function checkInputs(scores: readonly number[], labels: readonly number[], weights: readonly number[] | undefined): void {
  if (scores.length === 0) throw new CalibrationError("EMPTY", "platt", "at least one score", "none");
  if (labels.length !== scores.length) {
    throw new CalibrationError("BAD_SHAPE", "platt", `${scores.length} labels (one per score)`, String(labels.length));
  }
  if (weights !== undefined && weights.length !== scores.length) {
    throw new CalibrationError("BAD_SHAPE", "platt", `${scores.length} weights`, String(weights.length));
  }
  for (let i = 0; i < scores.length; i++) {
    if (!Number.isFinite(scores[i])) throw new CalibrationError("BAD_VALUE", "platt", "finite scores", `${scores[i]} at ${i}`);
    const y = labels[i];
    if (y !== 0 && y !== 1) throw new CalibrationError("BAD_VALUE", "platt", "labels 0 or 1", `${y} at ${i}`);
    const w = weights?.[i] ?? 1;
    if (!(w >= 0) || !Number.isFinite(w)) throw new CalibrationError("BAD_VALUE", "platt", "non-negative finite weights", `${w} at ${i}`);
  }
}

/** log(1 + exp(z)) without overflow. */
function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

/** The Platt objective at (a, b): Σ w·[t·log(1+e^{z}) + (1−t)·log(1+e^{−z})], z = a·f + b. */
function objective(a: number, b: number, f: readonly number[], t: readonly number[], w: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < f.length; i++) {
    const z = a * f[i]! + b;
    sum += w[i]! * (t[i]! * softplus(z) + (1 - t[i]!) * softplus(-z));
  }
  return sum;
}

/** Fits Platt scaling to scores and 0/1 labels, with optional sample weights. */
export function fitPlatt(
  scores: readonly number[],
  labels: readonly number[],
  weights?: readonly number[],
  options: PlattOptions = {},
): PlattModel {
  checkInputs(scores, labels, weights);
  const n = scores.length;
  const w = weights ? [...weights] : new Array<number>(n).fill(1);
  if (weights && options.normaliseWeights !== false) normaliseToMeanOne(w);
  let prior1 = 0;
  let prior0 = 0;
  for (let i = 0; i < n; i++) {
    if (labels[i] === 1) prior1 += w[i]!;
    else prior0 += w[i]!;
  }
  const hi = (prior1 + 1) / (prior1 + 2);
  const lo = 1 / (prior0 + 2);
  const t = labels.map((y) => (y === 1 ? hi : lo));
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-12;
  let a = 0;
  let b = Math.log((prior0 + 1) / (prior1 + 1));
  let fval = objective(a, b, scores, t, w);
  for (let iter = 0; iter < maxIterations; iter++) {
    // Gradient and Hessian of the objective in (a, b). With p = 1/(1+e^{z}):
    // d/dz = w·(t − p), d²/dz² = w·p·(1 − p).
    let g1 = 0;
    let g2 = 0;
    let h11 = 1e-12;
    let h22 = 1e-12;
    let h21 = 0;
    for (let i = 0; i < n; i++) {
      const f = scores[i]!;
      const z = a * f + b;
      const p = z >= 0 ? Math.exp(-z) / (1 + Math.exp(-z)) : 1 / (1 + Math.exp(z));
      const q = 1 - p;
      const d2 = w[i]! * p * q;
      const d1 = w[i]! * (t[i]! - p);
      h11 += f * f * d2;
      h22 += d2;
      h21 += f * d2;
      g1 += f * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < 1e-12 && Math.abs(g2) < 1e-12) break;
    const det = h11 * h22 - h21 * h21;
    const dA = -(h22 * g1 - h21 * g2) / det;
    const dB = -(-h21 * g1 + h11 * g2) / det;
    const gd = g1 * dA + g2 * dB;
    let step = 1;
    let accepted = false;
    while (step >= 1e-10) {
      const na = a + step * dA;
      const nb = b + step * dB;
      const nf = objective(na, nb, scores, t, w);
      if (nf < fval + 1e-4 * step * gd) {
        a = na;
        b = nb;
        fval = nf;
        accepted = true;
        break;
      }
      step /= 2;
    }
    if (!accepted || (Math.abs(step * dA) < tolerance && Math.abs(step * dB) < tolerance)) break;
  }
  return { method: "platt", a, b };
}

/** The calibrated probability for one score. */
export function plattPredict(model: Pick<PlattModel, "a" | "b">, score: number): number {
  const z = model.a * score + model.b;
  return z >= 0 ? Math.exp(-z) / (1 + Math.exp(-z)) : 1 / (1 + Math.exp(z));
}
