import jStat from "jstat";
import { EvalInputError, requireInRange } from "./errors.js";

/**
 * Prediction-powered interval (PPI++) for a mean, such as the corpus failure rate: the
 * labelled gold items give Y (gold verdict, 0/1) and Yhat (a detector's prediction or
 * probability); the whole unlabelled corpus gives Yhat_u. A port of ppi_py's `ppi_mean_ci`
 * (Angelopoulos, Duchi, Zrnic 2023, "PPI++") with its defaults: power tuning lambda
 * estimated from the data and clipped to [0, 1]; weights normalised to mean 1;
 *   theta = mean(w_u lambda Yhat_u) + mean(w (Y - lambda Yhat)),
 *   se^2  = var(w_u lambda Yhat_u) / N + var(w (Y - lambda Yhat)) / n   (population variances),
 *   interval theta -/+ z_{1 - alpha/2} se.
 * The LEVEL IS 90% BY DEFAULT (alpha = 0.1), as in ppi_py: always state it.
 * Errata passes the gold items' design weights (1 / inclusion probability) as `w`, which is
 * how ppi_py weights a labelled set that was not drawn uniformly. Like ppi_py, it treats
 * items as independent (no session clustering) and N as a sample from the same population.
 *
 * Policy: an empty labelled or unlabelled set throws EMPTY. One labelled item has no
 * variance to estimate (ppi_py would return an interval of zero width): the result is
 * `insufficient`, its bounds [0, 1]. The target is a rate, so the bounds are clipped to
 * [0, 1] (`clipped` says when that changed them); inside [0, 1] they are ppi_py's.
 *
 * Example: Y = [1,0,1,1,0,0,1,0], Yhat = [0.6,0.4,0.5,0.7,0.3,0.6,0.5,0.4] and 12
 * unlabelled predictions [0.1,0.2,...,0.9,0.5,0.5,0.5] → estimate 0.5, lambda 0.59375,
 * interval [0.225681, 0.774319] at 90% (the same as a numpy port of ppi_py's code).
 */
export interface PpiMeanResult {
  estimate: number;
  lower: number;
  upper: number;
  /** The coverage the interval targets (1 - alpha). */
  level: number;
  lambda: number;
  standardError: number;
  labelled: number;
  unlabelled: number;
  /** Fewer than 2 labelled items: no interval can be estimated; bounds are [0, 1]. */
  insufficient: boolean;
  /** The raw interval reached outside [0, 1] and was clipped. */
  clipped: boolean;
  method: "PPI++ mean (ppi_py ppi_mean_ci port)";
}

const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
};
/** Variance with divisor n - ddof. */
const variance = (xs: ArrayLike<number>, ddof: number): number => {
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += ((xs[i]!) - m) ** 2;
  return s / (xs.length - ddof);
};
const normalised = (w: ArrayLike<number> | undefined, n: number): Float64Array => {
  const out = new Float64Array(n).fill(1);
  if (!w) return out;
  if (w.length !== n) throw new EvalInputError("BAD_SHAPE", "one weight per item", `${n} weights`, `${w.length}`);
  let s = 0;
  for (let i = 0; i < n; i++) s += w[i]!;
  if (!(s > 0)) throw new EvalInputError("BAD_VALUE", "weights", "a positive sum", String(s));
  for (let i = 0; i < n; i++) out[i] = ((w[i]!) / s) * n;
  return out;
};

export function ppiMeanCi(
  y: ArrayLike<number>,
  yhat: ArrayLike<number>,
  yhatUnlabelled: ArrayLike<number>,
  opts: { alpha?: number; lambda?: number; weights?: ArrayLike<number>; weightsUnlabelled?: ArrayLike<number> } = {},
): PpiMeanResult {
  const n = y.length;
  const N = yhatUnlabelled.length;
  if (n === 0 || N === 0) throw new EvalInputError("EMPTY", "PPI needs labelled and unlabelled items", "at least one of each", `${n} labelled, ${N} unlabelled`);
  if (yhat.length !== n) throw new EvalInputError("BAD_SHAPE", "one prediction per labelled item", `${n}`, `${yhat.length}`);
  const alpha = opts.alpha ?? 0.1;
  requireInRange(alpha, 1e-9, 0.999999, "alpha");
  const w = normalised(opts.weights, n);
  const wu = normalised(opts.weightsUnlabelled, N);

  const estimate = (lam: number): number => {
    let a = 0;
    for (let i = 0; i < N; i++) a += (wu[i]!) * lam * (yhatUnlabelled[i]!);
    let b = 0;
    for (let i = 0; i < n; i++) b += (w[i]!) * ((y[i]!) - lam * (yhat[i]!));
    return a / N + b / n;
  };

  let lam = opts.lambda;
  if (lam === undefined) {
    // ppi_py: gradients at the lambda = 1 estimate, lambda = cov / (2 (1 + n/N) var), clipped.
    const theta1 = estimate(1);
    const g = new Float64Array(n);
    const gh = new Float64Array(n);
    const ghu = new Float64Array(N);
    for (let i = 0; i < n; i++) {
      g[i] = (w[i]!) * ((y[i]!) - theta1);
      gh[i] = (w[i]!) * ((yhat[i]!) - theta1);
    }
    for (let i = 0; i < N; i++) ghu[i] = (wu[i]!) * ((yhatUnlabelled[i]!) - theta1);
    const mg = mean(g);
    const mgh = mean(gh);
    let cov = 0;
    for (let i = 0; i < n; i++) cov += ((g[i]!) - mg) * ((gh[i]!) - mgh);
    cov = (2 * cov) / n;
    const both = new Float64Array(n + N);
    both.set(gh, 0);
    both.set(ghu, n);
    const v = n + N > 1 ? variance(both, 1) : 0;
    const raw = v > 0 ? cov / (2 * (1 + n / N) * v) : 0;
    lam = Math.min(1, Math.max(0, raw));
  }
  const theta = estimate(lam);
  const imputed = new Float64Array(N);
  for (let i = 0; i < N; i++) imputed[i] = (wu[i]!) * lam * (yhatUnlabelled[i]!);
  const rect = new Float64Array(n);
  for (let i = 0; i < n; i++) rect[i] = (w[i]!) * ((y[i]!) - lam * (yhat[i]!));
  const se = Math.sqrt(variance(imputed, 0) / N + variance(rect, 0) / n);
  const z = jStat.normal.inv(1 - alpha / 2, 0, 1);
  const insufficient = n < 2;
  const rawLower = insufficient ? 0 : theta - z * se;
  const rawUpper = insufficient ? 1 : theta + z * se;
  const lower = Math.min(1, Math.max(0, rawLower));
  const upper = Math.min(1, Math.max(0, rawUpper));
  return {
    estimate: theta,
    lower,
    upper,
    insufficient,
    clipped: lower !== rawLower || upper !== rawUpper,
    level: 1 - alpha,
    lambda: lam,
    standardError: se,
    labelled: n,
    unlabelled: N,
    method: "PPI++ mean (ppi_py ppi_mean_ci port)",
  };
}
