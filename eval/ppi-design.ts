import jStat from "jstat";
import { EvalInputError, requireInRange } from "./errors.js";

/**
 * Prediction-powered intervals for a mean (the corpus failure rate) under the gold draw's
 * design: clustered PPI++ (the session is the unit of the variance) and stratified PPI++ (a
 * rectifier and its own lambda per stratum). Beside `ppiMeanCi` (ppi_py's plain PPI++), which
 * treats items as independent.
 *
 * Clustered (after GLIDE's `ClusteredPPIMeanEstimator`, EmertonData/glide, and Broska's
 * cluster-robust PPI). With p_i = w_i / sum w over the labelled items and q_j the same over the
 * unlabelled ones:
 *   theta = lambda sum_j q_j Yhat_u,j + sum_i p_i (Y_i - lambda Yhat_i)        (Hajek means)
 *   se^2  = G/(G-1) sum_g Z_g^2 + H/(H-1) sum_h U_h^2
 * where Z_g = sum_{i in session g} p_i (r_i - rbar) is a session's sum of the rectifier's
 * residuals (r_i = Y_i - lambda Yhat_i), U_h the same for lambda Yhat_u in the unlabelled set,
 * G and H the numbers of sessions. That is the cluster-robust (linearised) variance of the two
 * means: the session's sums are the units, so correlated items of one session count once.
 * lambda is GLIDE's power tuning on the sessions' weighted means u_g, s_g, v_h:
 *   lambda = cov(u, s) / ((1 + G/H) var([s, v]))   (ddof 1), clipped to [0, 1] unless `clip: false`.
 * With unit weights and sessions of equal size this is GLIDE's estimator exactly (the mean of
 * session means is the item mean and the linearised variance is var(u - lambda s)/G); with
 * sessions of one item it is GLIDE's plain `PPIMeanEstimator` (ddof 1, disjoint sets).
 * Where sizes or weights differ, the estimate stays the item mean (the corpus rate) where
 * GLIDE's would be the mean of session means; the test fixtures say which reference is which.
 *
 * Stratified (after GLIDE's `StratifiedPPIMeanEstimator`, Fisch et al. 2024): theta = sum_k
 * W_k theta_k, se^2 = sum_k W_k^2 se_k^2, each stratum with its own lambda_k; W_k is the
 * stratum's share of the corpus (given), or, as in GLIDE, of labelled + unlabelled items.
 *
 * Pure; throws EvalInputError on bad shapes. The level is 90% by default (alpha 0.1), as in
 * `ppiMeanCi`.
 *
 * Example (GLIDE's docstring): Y = [1,2,3,4], Yhat = [1.1,2.2,3.1,3.9], sessions A,A,B,B;
 * unlabelled Yhat [1.5,1.8,4.5,4.8] in sessions C,C,D,D; `clip: false`, alpha 0.05 →
 * 2.744 [1.020, 4.468].
 */
export type PpiDesignMethod = "clustered" | "stratified";

export interface PpiDesignResult {
  method: PpiDesignMethod;
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  standardError: number;
  /** One lambda (clustered) or one per stratum (stratified, in stratum order). */
  lambda: number | Record<string, number>;
  labelled: number;
  unlabelled: number;
  /** Sessions in the labelled / unlabelled sets (clustered, or summed over strata). */
  labelledClusters: number;
  unlabelledClusters: number;
  /** Fewer than 2 labelled sessions (in some stratum): bounds [0, 1]. */
  insufficient: boolean;
  clipped: boolean;
}

export interface ClusteredInput {
  y: ArrayLike<number>;
  yhat: ArrayLike<number>;
  clusters: ArrayLike<string>;
  weights?: ArrayLike<number>;
  yhatUnlabelled: ArrayLike<number>;
  clustersUnlabelled: ArrayLike<string>;
  weightsUnlabelled?: ArrayLike<number>;
}

export interface PpiDesignOptions {
  alpha?: number;
  /** A fixed lambda; default tuned. */
  lambda?: number;
  /** Clip the tuned lambda to [0, 1] (ppi_py); GLIDE does not. Default true. */
  clip?: boolean;
  /** Clip the bounds to [0, 1] (the target is a rate). Default true. */
  clipBounds?: boolean;
}

interface Core {
  estimate: number;
  variance: number;
  lambda: number;
  G: number;
  H: number;
  n: number;
  N: number;
}

function normalisedWeights(w: ArrayLike<number> | undefined, n: number, what: string): Float64Array {
  const out = new Float64Array(n);
  if (!w) return out.fill(1 / n);
  if (w.length !== n) throw new EvalInputError("BAD_SHAPE", `one ${what} weight per item`, `${n} weights`, `${w.length}`);
  let s = 0;
  for (let i = 0; i < n; i++) {
    const v = w[i]!;
    if (!(v > 0) || !Number.isFinite(v)) throw new EvalInputError("BAD_VALUE", `${what} weights`, "positive finite numbers", String(v));
    s += v;
  }
  for (let i = 0; i < n; i++) out[i] = w[i]! / s;
  return out;
}

function groupIndex(clusters: ArrayLike<string>, n: number, what: string): { index: Int32Array; count: number } {
  if (clusters.length !== n) throw new EvalInputError("BAD_SHAPE", `one ${what} session per item`, `${n}`, `${clusters.length}`);
  const ids = new Map<string, number>();
  const index = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = clusters[i]!;
    let k = ids.get(c);
    if (k === undefined) {
      k = ids.size;
      ids.set(c, k);
    }
    index[i] = k;
  }
  return { index, count: ids.size };
}

const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
};

/** Sum over sessions of (sum_{i in g} p_i (x_i - xbar))^2, xbar = sum p_i x_i. */
function clusterSumSquares(x: Float64Array, p: Float64Array, index: Int32Array, G: number): number {
  let xbar = 0;
  for (let i = 0; i < x.length; i++) xbar += p[i]! * x[i]!;
  const z = new Float64Array(G);
  for (let i = 0; i < x.length; i++) z[index[i]!]! += p[i]! * (x[i]! - xbar);
  let s = 0;
  for (let g = 0; g < G; g++) s += z[g]! ** 2;
  return s;
}

/** Weighted means of x per session. */
function clusterMeans(x: ArrayLike<number>, p: Float64Array, index: Int32Array, G: number): Float64Array {
  const num = new Float64Array(G);
  const den = new Float64Array(G);
  for (let i = 0; i < x.length; i++) {
    num[index[i]!]! += p[i]! * x[i]!;
    den[index[i]!]! += p[i]!;
  }
  for (let g = 0; g < G; g++) num[g] = num[g]! / den[g]!;
  return num;
}

function clusteredCore(input: ClusteredInput, opts: PpiDesignOptions): Core {
  const n = input.y.length;
  const N = input.yhatUnlabelled.length;
  if (n === 0 || N === 0) throw new EvalInputError("EMPTY", "PPI needs labelled and unlabelled items", "at least one of each", `${n} labelled, ${N} unlabelled`);
  if (input.yhat.length !== n) throw new EvalInputError("BAD_SHAPE", "one prediction per labelled item", `${n}`, `${input.yhat.length}`);
  const p = normalisedWeights(input.weights, n, "labelled");
  const q = normalisedWeights(input.weightsUnlabelled, N, "unlabelled");
  const L = groupIndex(input.clusters, n, "labelled");
  const U = groupIndex(input.clustersUnlabelled, N, "unlabelled");
  const G = L.count;
  const H = U.count;

  let lam = opts.lambda;
  if (lam === undefined) {
    // GLIDE's power tuning on the sessions' (weighted) means.
    const u = clusterMeans(input.y, p, L.index, G);
    const s = clusterMeans(input.yhat, p, L.index, G);
    const v = clusterMeans(input.yhatUnlabelled, q, U.index, H);
    let raw = 0;
    if (G > 1 && G + H > 1) {
      const mu = mean(u);
      const ms = mean(s);
      let cov = 0;
      for (let g = 0; g < G; g++) cov += (u[g]! - mu) * (s[g]! - ms);
      cov /= G - 1;
      let pooled = 0;
      for (let g = 0; g < G; g++) pooled += s[g]!;
      for (let h = 0; h < H; h++) pooled += v[h]!;
      pooled /= G + H;
      let vv = 0;
      for (let g = 0; g < G; g++) vv += (s[g]! - pooled) ** 2;
      for (let h = 0; h < H; h++) vv += (v[h]! - pooled) ** 2;
      vv /= G + H - 1;
      raw = vv > 0 ? cov / ((1 + G / H) * vv) : 0;
    }
    lam = opts.clip === false ? raw : Math.min(1, Math.max(0, raw));
  }

  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) r[i] = input.y[i]! - lam * input.yhat[i]!;
  const f = new Float64Array(N);
  for (let j = 0; j < N; j++) f[j] = lam * input.yhatUnlabelled[j]!;
  let rbar = 0;
  for (let i = 0; i < n; i++) rbar += p[i]! * r[i]!;
  let fbar = 0;
  for (let j = 0; j < N; j++) fbar += q[j]! * f[j]!;
  const vr = G > 1 ? (G / (G - 1)) * clusterSumSquares(r, p, L.index, G) : 0;
  const vu = H > 1 ? (H / (H - 1)) * clusterSumSquares(f, q, U.index, H) : 0;
  return { estimate: fbar + rbar, variance: vr + vu, lambda: lam, G, H, n, N };
}

function interval(estimate: number, variance: number, alpha: number, insufficient: boolean, clipBounds: boolean) {
  const z = jStat.normal.inv(1 - alpha / 2, 0, 1);
  const se = Math.sqrt(variance);
  const rawLower = insufficient ? 0 : estimate - z * se;
  const rawUpper = insufficient ? 1 : estimate + z * se;
  const lower = clipBounds ? Math.min(1, Math.max(0, rawLower)) : rawLower;
  const upper = clipBounds ? Math.min(1, Math.max(0, rawUpper)) : rawUpper;
  return { lower, upper, se, clipped: lower !== rawLower || upper !== rawUpper };
}

/** Clustered PPI++: the session is the unit of the rectifier's (and the imputed mean's) variance. */
export function clusteredPpiMeanCi(input: ClusteredInput, opts: PpiDesignOptions = {}): PpiDesignResult {
  const alpha = opts.alpha ?? 0.1;
  requireInRange(alpha, 1e-9, 0.999999, "alpha");
  const c = clusteredCore(input, opts);
  const insufficient = c.G < 2;
  const iv = interval(c.estimate, c.variance, alpha, insufficient, opts.clipBounds !== false);
  return {
    method: "clustered",
    estimate: c.estimate,
    lower: iv.lower,
    upper: iv.upper,
    level: 1 - alpha,
    standardError: iv.se,
    lambda: c.lambda,
    labelled: c.n,
    unlabelled: c.N,
    labelledClusters: c.G,
    unlabelledClusters: c.H,
    insufficient,
    clipped: iv.clipped,
  };
}

export interface StratumInput extends ClusteredInput {
  stratum: string;
  /** The stratum's size in the population (corpus count); default labelled + unlabelled items. */
  size?: number;
}

/**
 * Stratified PPI++: one rectifier and lambda per stratum, combined with the strata's
 * population shares. Within a stratum the session clustering is kept (pass each item as its
 * own session for GLIDE's item-level stratified estimator).
 */
export function stratifiedPpiMeanCi(strata: readonly StratumInput[], opts: PpiDesignOptions = {}): PpiDesignResult {
  const alpha = opts.alpha ?? 0.1;
  requireInRange(alpha, 1e-9, 0.999999, "alpha");
  if (strata.length === 0) throw new EvalInputError("EMPTY", "stratified PPI needs strata", "at least one stratum", "none");
  const seen = new Set<string>();
  const sizes = strata.map((s) => {
    if (seen.has(s.stratum)) throw new EvalInputError("BAD_VALUE", "strata", "distinct stratum names", s.stratum);
    seen.add(s.stratum);
    const size = s.size ?? s.y.length + s.yhatUnlabelled.length;
    if (!(size > 0)) throw new EvalInputError("BAD_VALUE", `size of stratum ${s.stratum}`, "a positive number", String(size));
    return size;
  });
  const total = sizes.reduce((a, b) => a + b, 0);
  let est = 0;
  let variance = 0;
  let insufficient = false;
  const lambdas: Record<string, number> = {};
  let n = 0;
  let N = 0;
  let G = 0;
  let H = 0;
  strata.forEach((s, k) => {
    const c = clusteredCore(s, opts);
    const W = sizes[k]! / total;
    est += W * c.estimate;
    variance += W * W * c.variance;
    lambdas[s.stratum] = c.lambda;
    if (c.G < 2) insufficient = true;
    n += c.n;
    N += c.N;
    G += c.G;
    H += c.H;
  });
  const iv = interval(est, variance, alpha, insufficient, opts.clipBounds !== false);
  return {
    method: "stratified",
    estimate: est,
    lower: iv.lower,
    upper: iv.upper,
    level: 1 - alpha,
    standardError: iv.se,
    lambda: lambdas,
    labelled: n,
    unlabelled: N,
    labelledClusters: G,
    unlabelledClusters: H,
    insufficient,
    clipped: iv.clipped,
  };
}

/** Whether any two labelled items share a session (then `auto` picks clustered). */
export function itemsShareSessions(sessions: readonly string[]): boolean {
  return new Set(sessions).size < sessions.length;
}

/** A lambda for a report: "0.237", or "detected 0.912, not detected 0.401" per stratum. */
export function lambdaText(lambda: number | Readonly<Record<string, number>>, digits = 3): string {
  return typeof lambda === "number" ? lambda.toFixed(digits) : Object.entries(lambda).map(([k, v]) => `${k} ${v.toFixed(digits)}`).join(", ");
}
