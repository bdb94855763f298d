import { isSparse, compactColumns, scatter, toCsr, type Csr, type Row } from "./rows.js";
import { LogisticError } from "./logistic-error.js";
import { normaliseToMeanOne } from "./normalise-weights.js";

export { LogisticError, type LogisticErrorCode } from "./logistic-error.js";
export type { Row, SparseRow } from "./rows.js";

/**
 * L2-regularised logistic regression with an unpenalised intercept and sample weights,
 * fitted by Newton's method with a preconditioned conjugate-gradient inner solve
 * (Hessian-vector products only, so a hashed feature space of 2^18 or more costs
 * memory for the weight vector and the rows, never for a Hessian).
 *
 * Objective (minimised):
 *   f(beta, b) = sum_i w_i [ log(1 + e^{z_i}) - y_i z_i ] + (l2 / 2) * ||beta||^2,
 *   z_i = b + x_i . beta,  y_i in [0, 1] (soft labels allowed), w_i >= 0.
 * This is scikit-learn's `LogisticRegression(penalty="l2", C=1/l2, fit_intercept=True)`
 * objective divided by C (sklearn <= 1.7 scales the loss sum by C, not by 1/n).
 *
 * Pure: no I/O, clock or randomness; the same inputs give bit-identical outputs.
 *
 * Example (Wikipedia, "Logistic regression", hours studied vs passing, l2 = 0):
 *   fitLogistic(hours.map((h) => [h]), passed, { l2: 0 })
 *   // -> { intercept: -4.0777, coef: [1.5046], converged: true, ... }
 */

export interface LogisticOptions {
  /** L2 strength on the coefficients (not the intercept); >= 0. */
  l2: number;
  /** Number of features; defaults to the dense row length, required for sparse rows. */
  dim?: number;
  /** One non-negative weight per row; default all 1. */
  sampleWeights?: ArrayLike<number>;
  /**
   * Scale the sample weights to mean 1 before fitting (default true), so the fit does not
   * depend on their scale (`normaliseToMeanOne`). false keeps the raw objective, where a
   * weight of 2 equals the row written twice.
   */
  normaliseWeights?: boolean;
  /** Stop when ||grad||_2 <= tol * max(1, ||grad at start||_2). Default 1e-12; a fit that stalls at
   *  floating-point precision within 1,000 x that still counts as converged. */
  tol?: number;
  /** Newton iterations at most. Default 100. */
  maxIter?: number;
  /** Conjugate-gradient iterations per Newton step at most. Default 500. */
  maxCgIter?: number;
  /**
   * Where Newton starts (default all zero): a model fitted on the same rows at a nearby l2
   * (a warm start, as cross-validation over a grid of l2 uses). The stopping rule is unchanged:
   * the tolerance is still relative to the gradient at zero, so a warm start stops at the same
   * accuracy, only sooner. Coefficients are indexed as `coef` (length `dim`).
   */
  init?: Pick<LogisticModel, "coef" | "intercept">;
}

export interface LogisticModel {
  dim: number;
  /** Coefficients, length `dim`; features never seen in training are exactly 0 when l2 > 0. */
  coef: Float64Array;
  intercept: number;
  /** Newton iterations taken. */
  iterations: number;
  /** Total conjugate-gradient iterations across Newton steps. */
  cgIterations: number;
  converged: boolean;
  /** ||grad||_2 at the returned point. */
  gradNorm: number;
  /** Objective value at the returned point. */
  objective: number;
}

/** log(1 + e^z) without overflow. */
function softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}

/** The logistic function 1 / (1 + e^-z), stable at both ends. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

function margins(X: Csr, coef: Float64Array, b: number, out: Float64Array): void {
  const { ptr, idx, val } = X;
  for (let i = 0; i < X.n; i++) {
    let z = b;
    for (let k = ptr[i]!; k < (ptr[i + 1]!); k++) z += (val[k]!) * (coef[idx[k]!]!);
    out[i] = z;
  }
}

function norm2(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]!) * (a[i]!);
  return Math.sqrt(s);
}

/**
 * Fits the model. Throws `LogisticError("DEGENERATE")` when the weighted labels hold one
 * class only (the intercept would run to infinity). With l2 = 0 and separable data there is
 * no finite optimum: the fit stops at `maxIter` with `converged: false`.
 */
export function fitLogistic(rows: readonly Row[], y: ArrayLike<number>, opts: LogisticOptions): LogisticModel {
  // Fit over the columns the rows use only: an unused coefficient has zero gradient and stays
  // exactly 0, so this is the same optimum at a fraction of the cost in a hashed space.
  const full = toCsr(rows, opts.dim);
  const fullDim = full.dim;
  const { X, used } = compactColumns(full);
  const n = X.n;
  const dim = X.dim;
  const l2 = opts.l2;
  if (!(l2 >= 0) || !Number.isFinite(l2)) throw new LogisticError("BAD_INPUT", `l2 must be a finite number >= 0 (found ${l2})`);
  if (y.length !== n) throw new LogisticError("BAD_INPUT", `expected one label per row (${n}); found ${y.length}`);
  const w = new Float64Array(n);
  const sw = opts.sampleWeights;
  if (sw !== undefined && sw.length !== n) throw new LogisticError("BAD_INPUT", `expected one sample weight per row (${n}); found ${sw.length}`);
  let hasPos = false;
  let hasNeg = false;
  for (let i = 0; i < n; i++) {
    const wi = sw === undefined ? 1 : (sw[i]!);
    const yi = y[i]!;
    if (!(wi >= 0) || !Number.isFinite(wi)) throw new LogisticError("BAD_INPUT", `sample weight ${i} must be finite and >= 0 (found ${wi})`);
    if (!(yi >= 0 && yi <= 1)) throw new LogisticError("BAD_INPUT", `label ${i} must be in [0, 1] (found ${yi})`);
    w[i] = wi;
    if (wi > 0 && yi > 0) hasPos = true;
    if (wi > 0 && yi < 1) hasNeg = true;
  }
  if (sw !== undefined && opts.normaliseWeights !== false) normaliseToMeanOne(w);
  if (!hasPos || !hasNeg) {
    throw new LogisticError("DEGENERATE", `expected both classes among rows with positive weight; found only ${hasPos ? "y=1" : hasNeg ? "y=0" : "zero weights"}`);
  }
  const tol = opts.tol ?? 1e-12;
  const maxIter = opts.maxIter ?? 100;
  const maxCgIter = opts.maxCgIter ?? 500;
  const { ptr, idx, val } = X;
  const m = dim + 1; // parameters: coef then intercept
  const theta = new Float64Array(m);
  const z = new Float64Array(n);
  const p = new Float64Array(n);
  const d = new Float64Array(n);
  const r = new Float64Array(n);
  const g = new Float64Array(m);
  const diag = new Float64Array(m);

  const objectiveAt = (coef: Float64Array, b: number, zOut: Float64Array): number => {
    margins(X, coef, b, zOut);
    let f = 0;
    for (let i = 0; i < n; i++) {
      const wi = w[i]!;
      if (wi > 0) f += wi * (softplus(zOut[i]!) - (y[i]!) * (zOut[i]!));
    }
    let reg = 0;
    for (let j = 0; j < dim; j++) reg += (coef[j]!) * (coef[j]!);
    return f + 0.5 * l2 * reg;
  };
  /** Gradient, curvature weights d and the Jacobi preconditioner at the current theta (z current). */
  const gradientAt = (): void => {
    g.fill(0);
    diag.fill(0);
    let gb = 0;
    let hb = 0;
    for (let i = 0; i < n; i++) {
      const pi = sigmoid(z[i]!);
      p[i] = pi;
      const wi = w[i]!;
      const ri = wi * (pi - (y[i]!));
      const di = wi * pi * (1 - pi);
      r[i] = ri;
      d[i] = di;
      gb += ri;
      hb += di;
      for (let k = ptr[i]!; k < (ptr[i + 1]!); k++) {
        const j = idx[k]!;
        const v = val[k]!;
        g[j] = (g[j]!) + ri * v;
        diag[j] = (diag[j]!) + di * v * v;
      }
    }
    for (let j = 0; j < dim; j++) {
      g[j] = (g[j]!) + l2 * (theta[j]!);
      diag[j] = (diag[j]!) + l2;
    }
    g[dim] = gb;
    diag[dim] = hb;
  };
  const u = new Float64Array(n);
  /** out = H v. */
  const hessVec = (v: Float64Array, out: Float64Array): void => {
    const vb = v[dim]!;
    for (let i = 0; i < n; i++) {
      let s = vb;
      for (let k = ptr[i]!; k < (ptr[i + 1]!); k++) s += (val[k]!) * (v[idx[k]!]!);
      u[i] = (d[i]!) * s;
    }
    out.fill(0);
    let hb = 0;
    for (let i = 0; i < n; i++) {
      const ui = u[i]!;
      hb += ui;
      if (ui === 0) continue;
      for (let k = ptr[i]!; k < (ptr[i + 1]!); k++) {
        const j = idx[k]!;
        out[j] = (out[j]!) + ui * (val[k]!);
      }
    }
    for (let j = 0; j < dim; j++) out[j] = (out[j]!) + l2 * (v[j]!);
    out[dim] = hb;
  };

  // Conjugate-gradient buffers.
  const s = new Float64Array(m);
  const res = new Float64Array(m);
  const pre = new Float64Array(m);
  const dir = new Float64Array(m);
  const hd = new Float64Array(m);
  const trial = new Float64Array(m);
  const zTrial = new Float64Array(n);

  const coefView = (t: Float64Array): Float64Array => t.subarray(0, dim);
  let f = objectiveAt(coefView(theta), 0, z);
  gradientAt();
  const g0 = norm2(g);
  const target = tol * Math.max(1, g0);
  if (opts.init !== undefined) {
    if (opts.init.coef.length !== fullDim) throw new LogisticError("BAD_INPUT", `init: expected ${fullDim} coefficients; found ${opts.init.coef.length}`);
    // A column the rows never use keeps coefficient 0 (its optimum when l2 > 0).
    for (let j = 0; j < dim; j++) theta[j] = opts.init.coef[used[j]!]!;
    theta[dim] = opts.init.intercept;
    f = objectiveAt(coefView(theta), theta[dim]!, z);
    gradientAt();
  }
  let gn = norm2(g);
  let iterations = 0;
  let cgIterations = 0;
  let converged = gn <= target;

  while (!converged && iterations < maxIter) {
    iterations++;
    // Solve H s = -g to a relative tolerance eta (Eisenstat-Walker style forcing term:
    // loose far from the optimum, tight near it, so the outer loop converges superlinearly).
    const eta = Math.min(0.5, Math.sqrt(gn / Math.max(1, g0)));
    const cgTarget = eta * gn;
    s.fill(0);
    let rz = 0;
    for (let j = 0; j < m; j++) {
      const rj = -(g[j]!);
      res[j] = rj;
      const dj = diag[j]!;
      const pj = dj > 0 ? rj / dj : rj;
      pre[j] = pj;
      dir[j] = pj;
      rz += rj * pj;
    }
    for (let it = 0; it < maxCgIter; it++) {
      hessVec(dir, hd);
      let dHd = 0;
      for (let j = 0; j < m; j++) dHd += (dir[j]!) * (hd[j]!);
      if (!(dHd > 0)) break; // flat direction (l2 = 0 and an unused feature): stop here
      cgIterations++;
      const alpha = rz / dHd;
      let rr = 0;
      for (let j = 0; j < m; j++) {
        s[j] = (s[j]!) + alpha * (dir[j]!);
        const rj = (res[j]!) - alpha * (hd[j]!);
        res[j] = rj;
        rr += rj * rj;
      }
      if (Math.sqrt(rr) <= cgTarget) break;
      let rzNew = 0;
      for (let j = 0; j < m; j++) {
        const dj = diag[j]!;
        const pj = dj > 0 ? (res[j]!) / dj : (res[j]!);
        pre[j] = pj;
        rzNew += (res[j]!) * pj;
      }
      const beta = rzNew / rz;
      rz = rzNew;
      for (let j = 0; j < m; j++) dir[j] = (pre[j]!) + beta * (dir[j]!);
    }
    let slope = 0;
    for (let j = 0; j < m; j++) slope += (g[j]!) * (s[j]!);
    if (!(slope < 0)) {
      // CG gave no descent direction (only possible when H is singular): fall back to -g.
      for (let j = 0; j < m; j++) s[j] = -(g[j]!);
      slope = -gn * gn;
    }
    // Backtracking (Armijo) line search; the full Newton step is taken near the optimum.
    // When the predicted decrease is below what the objective can resolve in floating point,
    // Armijo cannot tell better from worse: take the full step and judge it by the gradient.
    const tiny = -slope <= 1e-12 * Math.max(1, Math.abs(f));
    let step = 1;
    let accepted = false;
    for (let ls = 0; ls < 60; ls++) {
      for (let j = 0; j < m; j++) trial[j] = (theta[j]!) + step * (s[j]!);
      const fTrial = objectiveAt(coefView(trial), trial[dim]!, zTrial);
      if (tiny || fTrial <= f + 1e-4 * step * slope) {
        theta.set(trial);
        z.set(zTrial);
        f = fTrial;
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    const gnBefore = gn;
    gradientAt();
    gn = norm2(g);
    if (gn <= target) converged = true;
    else if (!accepted || (tiny && gn >= gnBefore)) {
      // No progress possible at floating-point precision.
      converged = gn <= 1e3 * target;
      break;
    }
  }
  return {
    dim: fullDim,
    coef: scatter(coefView(theta), used, fullDim),
    intercept: theta[dim]!,
    iterations,
    cgIterations,
    converged,
    gradNorm: gn,
    objective: f,
  };
}

/** The margin b + x . coef of one row. */
export function logisticMargin(model: Pick<LogisticModel, "coef" | "intercept" | "dim">, row: Row): number {
  let zv = model.intercept;
  if (isSparse(row)) {
    for (let k = 0; k < row.idx.length; k++) {
      const j = row.idx[k]!;
      if (j >= 0 && j < model.dim) zv += (row.val[k]!) * (model.coef[j]!);
    }
  } else {
    const len = Math.min(row.length, model.dim);
    for (let j = 0; j < len; j++) zv += (row[j]!) * (model.coef[j]!);
  }
  return zv;
}

/** P(y = 1 | row). */
export function predictLogistic(model: Pick<LogisticModel, "coef" | "intercept" | "dim">, row: Row): number {
  return sigmoid(logisticMargin(model, row));
}
