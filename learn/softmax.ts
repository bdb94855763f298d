/**
 * Multinomial (softmax) regression with L2 on the weights, unpenalised intercepts and sample
 * weights, fitted by L-BFGS (memory 10, backtracking Armijo line search). Deterministic: no
 * randomness, the same inputs give bit-identical outputs.
 *
 * Objective (minimised), K classes, rows x_i of length dim:
 *   f(W, b) = Σ_i w_i [ logsumexp(z_i) − z_{i, y_i} ] + (l2 / 2) · ||W||²,  z_i = W x_i + b.
 * The same convention as learn/logistic.ts (sklearn's `LogisticRegression(C = 1 / l2)`
 * objective divided by C). Intercepts are only defined up to a common shift; the fit returns
 * them centred (mean 0), which changes no prediction. A class with no weight in the data has
 * no finite optimum, so the caller fits the classes it has (see `classes` below).
 *
 * Example: two classes on x = [-2, -1, 1, 2] with y = [0, 0, 1, 1] and l2 = 1 give
 * W = [[-0.6706], [0.6706]], b = [0, 0]: the same as logistic regression with l2 = 0.5 on
 * the difference (coef 1.3413), since at the optimum W₁ = −W₀.
 */
import { normaliseToMeanOne } from "./normalise-weights.js";
import { SoftmaxError } from "./softmax-error.js";
export interface SoftmaxOptions {
  /** Number of classes K (labels are 0..K-1); every class must carry positive weight. */
  classes: number;
  /** L2 strength on the weights (not the intercepts); > 0 keeps the fit unique. */
  l2: number;
  sampleWeights?: ArrayLike<number>;
  /** Scale the sample weights to mean 1 before fitting (default true): the fit does not depend on their scale. */
  normaliseWeights?: boolean;
  /** Stop when max |gradient| ≤ tol · max(1, max |gradient at start|). Default 1e-9; a fit whose
   *  objective stops changing in float64 within 1,000 × that still counts as converged. */
  tol?: number;
  /** L-BFGS iterations at most. Default 2,000. */
  maxIter?: number;
}

export interface SoftmaxModel {
  classes: number;
  dim: number;
  /** Row-major K × dim weights. */
  W: number[][];
  /** Intercepts, centred. */
  b: number[];
  iterations: number;
  converged: boolean;
  /** max |gradient| at the returned point. */
  gradMax: number;
  objective: number;
}

function check(rows: readonly ArrayLike<number>[], y: ArrayLike<number>, opts: SoftmaxOptions): { dim: number; w: Float64Array } {
  const n = rows.length;
  if (n === 0) throw new SoftmaxError("EMPTY", "at least one row", "none");
  if (y.length !== n) throw new SoftmaxError("BAD_INPUT", `${n} labels`, String(y.length));
  const K = opts.classes;
  if (!Number.isInteger(K) || K < 2) throw new SoftmaxError("BAD_INPUT", "at least 2 classes", String(K));
  if (!(opts.l2 >= 0) || !Number.isFinite(opts.l2)) throw new SoftmaxError("BAD_INPUT", "l2 >= 0", String(opts.l2));
  const dim = rows[0]!.length;
  const w = new Float64Array(n);
  const classWeight = new Float64Array(K);
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    if (row.length !== dim) throw new SoftmaxError("BAD_INPUT", `rows of ${dim} values`, `${row.length} at row ${i}`);
    for (let j = 0; j < dim; j++) if (!Number.isFinite(row[j])) throw new SoftmaxError("BAD_INPUT", "finite values", `${row[j]} at row ${i}`);
    const c = y[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= K) throw new SoftmaxError("BAD_INPUT", `labels in 0..${K - 1}`, `${c} at row ${i}`);
    const wi = opts.sampleWeights === undefined ? 1 : opts.sampleWeights[i]!;
    if (!(wi >= 0) || !Number.isFinite(wi)) throw new SoftmaxError("BAD_INPUT", "non-negative finite weights", `${wi} at row ${i}`);
    w[i] = wi;
    classWeight[c] = classWeight[c]! + wi;
  }
  for (let c = 0; c < K; c++) {
    if (!(classWeight[c]! > 0)) throw new SoftmaxError("DEGENERATE", "every class to carry weight", `none for class ${c} (fit the classes present)`);
  }
  if (opts.sampleWeights !== undefined && opts.normaliseWeights !== false) normaliseToMeanOne(w);
  return { dim, w };
}

/** Objective and gradient at theta = [W row-major (K·dim), b (K)]. */
function evaluate(theta: Float64Array, rows: readonly ArrayLike<number>[], y: ArrayLike<number>, w: Float64Array, K: number, dim: number, l2: number, grad: Float64Array): number {
  grad.fill(0);
  const z = new Float64Array(K);
  let f = 0;
  const bOff = K * dim;
  for (let i = 0; i < rows.length; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    const row = rows[i]!;
    let max = -Infinity;
    for (let c = 0; c < K; c++) {
      let s = theta[bOff + c]!;
      const off = c * dim;
      for (let j = 0; j < dim; j++) s += theta[off + j]! * row[j]!;
      z[c] = s;
      if (s > max) max = s;
    }
    let sum = 0;
    for (let c = 0; c < K; c++) sum += Math.exp(z[c]! - max);
    const lse = max + Math.log(sum);
    const yi = y[i]!;
    f += wi * (lse - z[yi]!);
    for (let c = 0; c < K; c++) {
      const g = wi * (Math.exp(z[c]! - lse) - (c === yi ? 1 : 0));
      if (g === 0) continue;
      const off = c * dim;
      for (let j = 0; j < dim; j++) grad[off + j] = grad[off + j]! + g * row[j]!;
      grad[bOff + c] = grad[bOff + c]! + g;
    }
  }
  for (let k = 0; k < bOff; k++) {
    f += 0.5 * l2 * theta[k]! * theta[k]!;
    grad[k] = grad[k]! + l2 * theta[k]!;
  }
  return f;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

export function fitSoftmax(rows: readonly ArrayLike<number>[], y: ArrayLike<number>, opts: SoftmaxOptions): SoftmaxModel {
  const { dim, w } = check(rows, y, opts);
  const K = opts.classes;
  const P = K * dim + K;
  const tol = opts.tol ?? 1e-9;
  const maxIter = opts.maxIter ?? 2000;
  const memory = 10;
  let x = new Float64Array(P);
  let g = new Float64Array(P);
  let f = evaluate(x, rows, y, w, K, dim, opts.l2, g);
  const stop = tol * Math.max(1, maxAbs(g));
  const S: Float64Array[] = [];
  const Yv: Float64Array[] = [];
  const rho: number[] = [];
  let iterations = 0;
  let converged = maxAbs(g) <= stop;
  // Near the optimum the objective stops changing in float64 before the gradient reaches
  // `stop`; after a few such steps we stop and call it converged if within 1,000 × stop.
  let flatSteps = 0;
  const gNew = new Float64Array(P);
  while (!converged && iterations < maxIter) {
    iterations++;
    // Two-loop recursion: d = −H g.
    const q = Float64Array.from(g);
    const alpha: number[] = new Array<number>(S.length);
    for (let k = S.length - 1; k >= 0; k--) {
      const a = rho[k]! * dot(S[k]!, q);
      alpha[k] = a;
      const yk = Yv[k]!;
      for (let i = 0; i < P; i++) q[i] = q[i]! - a * yk[i]!;
    }
    let gamma = 1 / Math.max(1, Math.sqrt(dot(g, g)));
    if (S.length > 0) {
      const last = S.length - 1;
      gamma = dot(S[last]!, Yv[last]!) / dot(Yv[last]!, Yv[last]!);
    }
    for (let i = 0; i < P; i++) q[i] = q[i]! * gamma;
    for (let k = 0; k < S.length; k++) {
      const beta = rho[k]! * dot(Yv[k]!, q);
      const sk = S[k]!;
      for (let i = 0; i < P; i++) q[i] = q[i]! + sk[i]! * (alpha[k]! - beta);
    }
    const d = q.map((v) => -v);
    let gd = dot(g, d);
    if (!(gd < 0)) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      S.length = 0;
      Yv.length = 0;
      rho.length = 0;
      for (let i = 0; i < P; i++) d[i] = -g[i]! / Math.max(1, Math.sqrt(dot(g, g)));
      gd = dot(g, d);
    }
    let step = 1;
    let xNew = new Float64Array(P);
    let fNew = Infinity;
    for (let tries = 0; tries < 60; tries++) {
      for (let i = 0; i < P; i++) xNew[i] = x[i]! + step * d[i]!;
      fNew = evaluate(xNew, rows, y, w, K, dim, opts.l2, gNew);
      if (fNew <= f + 1e-4 * step * gd) break;
      step /= 2;
    }
    if (!(fNew <= f + 1e-4 * step * gd)) {
      if (S.length === 0) break; // no progress possible from steepest descent: at precision's end
      S.length = 0;
      Yv.length = 0;
      rho.length = 0;
      continue;
    }
    const s = new Float64Array(P);
    const yv = new Float64Array(P);
    for (let i = 0; i < P; i++) {
      s[i] = xNew[i]! - x[i]!;
      yv[i] = gNew[i]! - g[i]!;
    }
    const sy = dot(s, yv);
    if (sy > 1e-12 * Math.sqrt(dot(yv, yv) * dot(s, s))) {
      S.push(s);
      Yv.push(yv);
      rho.push(1 / sy);
      if (S.length > memory) {
        S.shift();
        Yv.shift();
        rho.shift();
      }
    }
    const fOld = f;
    x = xNew;
    g = Float64Array.from(gNew);
    f = fNew;
    xNew = new Float64Array(P);
    if (maxAbs(g) <= stop) converged = true;
    else if (fOld - f <= 1e-14 * Math.max(1, Math.abs(f))) {
      if (++flatSteps >= 5) break;
    } else flatSteps = 0;
  }
  if (!converged && maxAbs(g) <= 1000 * stop) converged = true;
  const W: number[][] = [];
  for (let c = 0; c < K; c++) W.push(Array.from(x.subarray(c * dim, (c + 1) * dim)));
  const bRaw = Array.from(x.subarray(K * dim));
  const mean = bRaw.reduce((a, v) => a + v, 0) / K;
  return { classes: K, dim, W, b: bRaw.map((v) => v - mean), iterations, converged, gradMax: maxAbs(g), objective: f };
}

/** Class probabilities for one row (they sum to 1). */
export function predictSoftmax(model: Pick<SoftmaxModel, "W" | "b" | "dim">, row: ArrayLike<number>): number[] {
  if (row.length !== model.dim) throw new SoftmaxError("BAD_INPUT", `a row of ${model.dim} values`, String(row.length));
  const z = model.W.map((wc, c) => {
    let s = model.b[c]!;
    for (let j = 0; j < model.dim; j++) s += wc[j]! * row[j]!;
    return s;
  });
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / sum);
}
