import { EvalInputError } from "./errors.js";

/**
 * The error model of active labelling (`active.ts`): what E[(Y - f)^2 | P(yes)] is expected to
 * be for each item, learned from the labels so far, and the bounds on what any allocation can
 * save given a judge (Zrnic and Candès 2024, "Active statistical inference").
 *
 * Example: `allocationBound([0.01, 0.25])` → 0.3077 (1 - 0.3^2 / 0.13).
 */
export interface Calibration { a: number; b: number }

/** Weighted least squares of y on p (weights w); identity when the labels cannot fit a slope. */
export function recalibrate(p: readonly number[], y: readonly number[], w: readonly number[]): Calibration {
  let sw = 0, sp = 0, sy = 0;
  for (let i = 0; i < p.length; i++) { sw += w[i]!; sp += w[i]! * p[i]!; sy += w[i]! * y[i]!; }
  if (p.length < 3 || !(sw > 0)) return { a: 0, b: 1 };
  const mp = sp / sw, my = sy / sw;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < p.length; i++) { sxx += w[i]! * (p[i]! - mp) ** 2; sxy += w[i]! * (p[i]! - mp) * (y[i]! - my); }
  if (!(sxx > 1e-12)) return { a: my, b: 0 };
  const b = sxy / sxx;
  return { a: my - b * mp, b };
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/**
 * Predicted squared residual per item: q(1 - q) for a calibrated judge (q = the recalibrated
 * P(yes)), replaced bin by bin (10 bins of P(yes)) by the labels' weighted mean squared
 * residual (Y - q)^2, shrunk toward q(1 - q) with the weight of `prior` labels.
 */
export function predictedResidual(pYes: ArrayLike<number>, cal: Calibration, labels: { p: readonly number[]; y: readonly number[]; w: readonly number[] }, prior = 5): { f: Float64Array; v: Float64Array } {
  const N = pYes.length;
  const f = new Float64Array(N);
  const bin = (p: number): number => Math.min(9, Math.floor(p * 10));
  const num = new Float64Array(10);
  const den = new Float64Array(10);
  const cnt = new Float64Array(10);
  for (let k = 0; k < labels.p.length; k++) {
    const q = clamp(cal.a + cal.b * labels.p[k]!, 0.005, 0.995);
    const b = bin(labels.p[k]!);
    num[b]! += labels.w[k]! * (labels.y[k]! - q) ** 2;
    den[b]! += labels.w[k]!;
    cnt[b]! += 1;
  }
  const v = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const p = pYes[i]!;
    if (!(p >= 0 && p <= 1)) throw new EvalInputError("BAD_VALUE", "a judge's P(yes)", "a number in [0, 1]", String(p));
    const q = clamp(cal.a + cal.b * p, 0.005, 0.995);
    f[i] = q;
    const b = bin(p);
    const base = q * (1 - q);
    v[i] = cnt[b]! > 0 ? (prior * base + cnt[b]! * (num[b]! / den[b]!)) / (prior + cnt[b]!) : base;
  }
  return { f, v };
}

/**
 * How the expected squared error E[(Y - f)^2 | P(yes)] is learned from the labels so far.
 * - "quantile-bins" (the default): the corpus's P(yes) cut into `bins` bins of equal count
 *   (ties kept together), so every bin holds items whatever the judge's range; in a bin with
 *   labels the prediction f is the recalibrated P(yes) moved by the bin's weighted mean
 *   residual, and the expected squared error is the labels' weighted mean squared residual
 *   against f; both shrunk toward the calibrated-judge values with the weight of `prior` labels.
 * - "fixed-bins": ten bins of width 0.1 and f the linear recalibration only (the first version;
 *   a judge whose P(yes) stays below 0.3 falls in two or three bins).
 */
export interface ErrorModelOptions {
  model?: "quantile-bins" | "fixed-bins";
  bins?: number;
  prior?: number;
  /** false: f stays the judge's P(yes) (only the error is learned); quantile bins only. */
  learnF?: boolean;
}

/**
 * The default error model, chosen on the simulations and AB-ReDial's dev half only
 * (scripts/research/active-compare.ts; docs/eval.md): five equal-count bins of P(yes), the
 * error shrunk toward f(1 - f) with the weight of 20 labels, f kept at the judge's P(yes)
 * (learning f on a few dozen labels added more noise than it removed).
 */
export const DEFAULT_ERROR_MODEL = { model: "quantile-bins", bins: 5, prior: 20, learnF: false } as const;

/**
 * Lower edges of bins 2..`bins` of equal count (bin k holds the values from its edge up to the
 * next); edges equal to the minimum or to the edge before are dropped, so tied values share a bin
 * and no bin is empty. Example: [0.1, 0.1, 0.1, 0.1, 0.9, 0.9], 3 bins → [0.9].
 */
export function quantileEdges(values: ArrayLike<number>, bins: number): number[] {
  const s = Float64Array.from(values as ArrayLike<number>).sort();
  const edges: number[] = [];
  for (let k = 1; k < bins; k++) {
    const e = s[Math.min(s.length - 1, Math.floor((k * s.length) / bins))]!;
    if (e > s[0]! && (edges.length === 0 || e > edges[edges.length - 1]!)) edges.push(e);
  }
  return edges;
}

/**
 * `quantileEdges` of a corpus's P(yes), remembered per array: a campaign asks for the same
 * corpus's edges every round, and the sort was 40% of `compareBudgets`' time. The values are kept
 * beside the edges and compared on each use (one pass, no sort), so an array changed in place is
 * cut again.
 */
const cutsOf = new WeakMap<object, { bins: number; values: Float64Array; edges: number[] }>();
function corpusEdges(pYes: ArrayLike<number>, bins: number): number[] {
  const hit = cutsOf.get(pYes);
  if (hit !== undefined && hit.bins === bins && hit.values.length === pYes.length) {
    let same = true;
    for (let i = 0; i < pYes.length && same; i++) same = hit.values[i] === pYes[i];
    if (same) return hit.edges;
  }
  const edges = quantileEdges(pYes, bins);
  cutsOf.set(pYes, { bins, values: Float64Array.from(pYes), edges });
  return edges;
}

/** The bin of p among upper edges: the number of edges <= p. */
const binOf = (edges: readonly number[], p: number): number => {
  let lo = 0, hi = edges.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (edges[m]! <= p) lo = m + 1;
    else hi = m;
  }
  return lo;
};

/**
 * Prediction f and expected squared error v per item under the "quantile-bins" model (see
 * ErrorModelOptions). Example: P(yes) [0.1, 0.1, 0.9, 0.9], 2 bins, no labels: f = P(yes),
 * v = f(1 - f) = [0.09, 0.09, 0.09, 0.09].
 */
export function learnedResidual(pYes: ArrayLike<number>, cal: Calibration, labels: { p: readonly number[]; y: readonly number[]; w: readonly number[] }, bins: number = DEFAULT_ERROR_MODEL.bins, prior: number = DEFAULT_ERROR_MODEL.prior, learnF: boolean = DEFAULT_ERROR_MODEL.learnF): { f: Float64Array; v: Float64Array } {
  if (!learnF) cal = { a: 0, b: 1 };
  const N = pYes.length;
  const edges = corpusEdges(pYes, bins);
  const K = edges.length + 1;
  const q = (p: number): number => clamp(cal.a + cal.b * p, 0.005, 0.995);
  const sw = new Float64Array(K), sr = new Float64Array(K), cnt = new Float64Array(K);
  for (let k = 0; k < labels.p.length; k++) {
    const b = binOf(edges, labels.p[k]!);
    sw[b]! += labels.w[k]!;
    sr[b]! += labels.w[k]! * (labels.y[k]! - q(labels.p[k]!));
    cnt[b]! += 1;
  }
  const shift = new Float64Array(K);
  if (learnF) for (let b = 0; b < K; b++) if (cnt[b]! > 0) shift[b] = (cnt[b]! / (cnt[b]! + prior)) * (sr[b]! / sw[b]!);
  const fOf = (p: number): number => clamp(q(p) + shift[binOf(edges, p)]!, 0.005, 0.995);
  const se = new Float64Array(K);
  for (let k = 0; k < labels.p.length; k++) se[binOf(edges, labels.p[k]!)]! += labels.w[k]! * (labels.y[k]! - fOf(labels.p[k]!)) ** 2;
  const f = new Float64Array(N);
  const v = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const p = pYes[i]!;
    if (!(p >= 0 && p <= 1)) throw new EvalInputError("BAD_VALUE", "a judge's P(yes)", "a number in [0, 1]", String(p));
    const b = binOf(edges, p);
    f[i] = fOf(p);
    const base = f[i]! * (1 - f[i]!);
    v[i] = cnt[b]! > 0 ? (prior * base + cnt[b]! * (se[b]! / sw[b]!)) / (prior + cnt[b]!) : base;
  }
  return { f, v };
}

/** f and v under the chosen error model. */
export function errorModel(pYes: ArrayLike<number>, cal: Calibration, labels: { p: readonly number[]; y: readonly number[]; w: readonly number[] }, o: ErrorModelOptions = {}): { f: Float64Array; v: Float64Array } {
  return o.model === "fixed-bins" ? predictedResidual(pYes, cal, labels, o.prior ?? 5) : learnedResidual(pYes, cal, labels, o.bins ?? DEFAULT_ERROR_MODEL.bins, o.prior ?? DEFAULT_ERROR_MODEL.prior, o.learnF ?? DEFAULT_ERROR_MODEL.learnF);
}

/**
 * The largest saving any allocation can give over uniform for the same difference estimator,
 * when the expected squared errors v are known: 1 - (mean sqrt v)^2 / mean v (Zrnic and
 * Candès 2024; caps and the floor ignored; it equals Var(sqrt v) / E v). Example: v = [0.01,
 * 0.25] gives 1 - 0.3^2 / 0.13 = 0.3077; constant v gives 0.
 */
export function allocationBound(v: ArrayLike<number>): number {
  let m = 0, s = 0;
  for (let i = 0; i < v.length; i++) { m += v[i]!; s += Math.sqrt(v[i]!); }
  if (!(m > 0)) return 0;
  m /= v.length;
  s /= v.length;
  return 1 - (s * s) / m;
}

/**
 * The bound of `allocationBound` when the error curve is known at the judge's resolution: v is
 * the mean of (y - p)^2 over all items of each of `bins` equal-count bins of P(yes) (ties share
 * a bin), i.e. what an allocation learning E[(Y - P(yes))^2 | bin] from unlimited labels could
 * reach. Example: p [0.1, 0.1, 0.5, 0.5], y [0, 0, 1, 0], 2 bins: v = [0.01, 0.01, 0.25, 0.25],
 * bound 0.3077.
 */
export function errorCurveBound(p: ArrayLike<number>, y: ArrayLike<number>, bins: number): number {
  const edges = quantileEdges(p, bins);
  const K = edges.length + 1;
  const s = new Float64Array(K), c = new Float64Array(K);
  for (let i = 0; i < p.length; i++) {
    const b = binOf(edges, p[i]!);
    s[b]! += (y[i]! - p[i]!) ** 2;
    c[b]! += 1;
  }
  const v = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) {
    const b = binOf(edges, p[i]!);
    v[i] = s[b]! / c[b]!;
  }
  return allocationBound(v);
}

