import jStat from "jstat";
import { EvalInputError, requireInRange } from "./errors.js";
import type { RandomSource } from "./prng.js";

/**
 * Active labelling for the corpus failure rate: which items to label next, with inclusion
 * probabilities recorded so the estimate stays unbiased (after Zrnic and Candès 2024, "Active
 * statistical inference").
 *
 * Estimator. In round t every corpus item i is labelled with probability pi_ti (Poisson
 * sampling; an item already labelled costs nothing to draw again), and the round's estimate is
 * the difference estimator with a prediction f_t fixed before the round:
 *   theta_t = (1/N) sum_i [ f_t(i) + (Y_i - f_t(i)) xi_ti / pi_ti ],   E[theta_t | past] = theta,
 *   var_t   = (1/N^2) sum_{i drawn} (1 - pi_ti) (Y_i - f_t(i))^2 / pi_ti^2   (Horvitz-Thompson).
 * Rounds combine as sum_t (n_t / n) theta_t, variance sum_t (n_t / n)^2 var_t (a martingale:
 * each round is unbiased given the ones before, so the combination is unbiased).
 *
 * Allocation. pi_i is proportional to the square root of the predicted squared residual
 * E[(Y_i - f(i))^2] = q_i (1 - q_i) + (q_i - f(i))^2, where q_i is the judge's P(yes)
 * recalibrated on the labels so far (weighted least squares of Y on P(yes), weights 1/pi) and
 * f = q once there are labels (the judge's P(yes) before); probabilities are capped at 1 (the
 * excess goes to the others) and floored at `floor` x the uniform share, so an item the judge
 * is sure of still has a chance and a wrong judge cannot make the variance blow up.
 * Uniform labelling is the same estimator with pi_i = n / N.
 *
 * Pure: randomness comes from a RandomSource.
 *
 * Example: P(yes) [0.02, 0.5, 0.5, 0.02] and a budget of 2 → pi ≈ [0.22, 0.78, 0.78, 0.22]
 * before any label (sqrt(0.0196) : sqrt(0.25) = 0.14 : 0.5).
 */
export interface ActiveRound {
  /** Prediction used by the round's estimator, per corpus item. */
  f: Float64Array;
  /** Inclusion probability per corpus item. */
  pi: Float64Array;
  /** Items drawn in this round (indices into the corpus; every item with pi 1 among them). */
  drawn: number[];
  /** Expected new labels of the round (the sum of pi over items not yet labelled). */
  budget: number;
}

export interface ActiveEstimate {
  estimate: number;
  standardError: number;
  lower: number;
  upper: number;
  level: number;
  /** Distinct items labelled. */
  labelled: number;
  rounds: number;
}

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
 * Inclusion probabilities for a round of `budget` expected labels over the items not yet
 * labelled (`known` ones get 1: their label is in hand), proportional to the square root of the
 * predicted squared residual, capped at 1, floored at `floor` x the uniform share.
 */
export function activeInclusion(pYes: ArrayLike<number>, budget: number, cal: Calibration = { a: 0, b: 1 }, floor = 0.2, labels: { p: readonly number[]; y: readonly number[]; w: readonly number[] } = { p: [], y: [], w: [] }, known: ReadonlySet<number> = new Set()): { pi: Float64Array; f: Float64Array } {
  const N = pYes.length;
  if (N === 0) throw new EvalInputError("EMPTY", "active labelling needs items", "at least one item with a P(yes)", "none");
  requireInRange(budget, 1e-9, Math.max(1e-9, N - known.size), "budget");
  requireInRange(floor, 0, 1, "floor");
  const { f, v } = predictedResidual(pYes, cal, labels);
  const open: number[] = [];
  for (let i = 0; i < N; i++) if (!known.has(i)) open.push(i);
  const pOpen = proportionalCapped(open.map((i) => Math.sqrt(v[i]!)), budget, floor);
  const pi = new Float64Array(N).fill(1);
  open.forEach((i, k) => (pi[i] = pOpen[k]!));
  return { pi, f };
}

/** pi_i = max(floor n/N, c s_i) capped at 1, with c chosen so sum pi = n (by bisection). */
export function proportionalCapped(score: ArrayLike<number>, budget: number, floor: number): Float64Array {
  const N = score.length;
  const lo = (floor * budget) / N;
  const sumAt = (c: number): number => {
    let s = 0;
    for (let i = 0; i < N; i++) s += Math.min(1, Math.max(lo, c * score[i]!));
    return s;
  };
  let a = 0, b = 1;
  while (sumAt(b) < budget && b < 1e12) b *= 2;
  for (let k = 0; k < 100; k++) {
    const m = (a + b) / 2;
    if (sumAt(m) < budget) a = m;
    else b = m;
  }
  const out = new Float64Array(N);
  for (let i = 0; i < N; i++) out[i] = Math.min(1, Math.max(lo, b * score[i]!));
  return out;
}

/**
 * One round's difference estimate: items labelled before it enter with their labels (pi = 1),
 * the others through f and the round's draws. Given the rounds before, it is unbiased, with
 * the Horvitz-Thompson variance below.
 */
function roundEstimate(r: ActiveRound, y: (i: number) => number, N: number): { est: number; v: number } {
  const drawn = new Set(r.drawn);
  let est = 0;
  let v = 0;
  for (let i = 0; i < N; i++) {
    const p = r.pi[i]!;
    if (p >= 1) {
      if (!drawn.has(i)) throw new EvalInputError("BAD_VALUE", `item ${i}`, "drawn when its inclusion probability is 1", "not drawn");
      est += y(i);
      continue;
    }
    est += r.f[i]!;
    if (drawn.has(i)) {
      const e = y(i) - r.f[i]!;
      est += e / p;
      v += ((1 - p) * e * e) / (p * p);
    }
  }
  return { est: est / N, v: v / (N * N) };
}

/**
 * Combines the rounds as sum_t (n_t / n) theta_t with variance sum_t (n_t / n)^2 var_t, n_t a
 * round's expected new labels: fixed before the round, so each term is unbiased given the past
 * and the sum is a martingale (Zrnic and Candès 2024).
 */
export function activeEstimate(rounds: readonly ActiveRound[], y: (i: number) => number, N: number, alpha = 0.1): ActiveEstimate {
  if (rounds.length === 0) throw new EvalInputError("EMPTY", "no rounds", "at least one round", "none");
  const total = rounds.reduce((s, r) => s + r.budget, 0);
  let est = 0;
  let variance = 0;
  const seen = new Set<number>();
  for (const r of rounds) {
    for (const i of r.drawn) seen.add(i);
    const e = roundEstimate(r, y, N);
    const share = r.budget / total;
    est += share * e.est;
    variance += share * share * e.v;
  }
  const se = Math.sqrt(variance);
  const z = jStat.normal.inv(1 - alpha / 2, 0, 1);
  return { estimate: est, standardError: se, lower: est - z * se, upper: est + z * se, level: 1 - alpha, labelled: seen.size, rounds: rounds.length };
}

export interface ActiveRunOptions {
  budget: number;
  /** Labels per round (the last round takes what is left). Default: the whole budget at once. */
  batch?: number;
  /** "active" (sqrt residual allocation, recalibrated each round) or "uniform". */
  design: "active" | "uniform";
  floor?: number;
  alpha?: number;
}

/**
 * Runs a labelling campaign on a corpus whose labels are revealed as they are asked
 * (`reveal(i)`), round by round; returns the estimate and what was labelled.
 */
export function runCampaign(pYes: ArrayLike<number>, reveal: (i: number) => number, random: RandomSource, o: ActiveRunOptions): ActiveEstimate & { rounds: number } {
  const N = pYes.length;
  const batch = o.batch ?? o.budget;
  requireInRange(batch, 1, o.budget, "batch");
  const known = new Map<number, number>();
  const rounds: ActiveRound[] = [];
  let spent = 0;
  const labelsP: number[] = [];
  const labelsY: number[] = [];
  const labelsW: number[] = [];
  while (spent < o.budget - 1e-9) {
    const n = Math.min(batch, o.budget - spent, N - known.size);
    if (n <= 0) break;
    let pi: Float64Array;
    let f: Float64Array;
    const knownSet = new Set(known.keys());
    if (o.design === "uniform") {
      f = Float64Array.from(pYes as ArrayLike<number>);
      pi = new Float64Array(N).fill(n / (N - known.size));
      for (const i of knownSet) pi[i] = 1;
    } else {
      const cal = recalibrate(labelsP, labelsY, labelsW);
      ({ pi, f } = activeInclusion(pYes, n, cal, o.floor ?? 0.2, { p: labelsP, y: labelsY, w: labelsW }, knownSet));
    }
    const drawn: number[] = [];
    for (let i = 0; i < N; i++) {
      if (pi[i]! >= 1 || random() < pi[i]!) {
        drawn.push(i);
        if (!known.has(i)) {
          const yi = reveal(i);
          known.set(i, yi);
          labelsP.push(pYes[i]!);
          labelsY.push(yi);
          labelsW.push(1 / pi[i]!);
        }
      }
    }
    rounds.push({ f, pi, drawn, budget: n });
    spent += n;
  }
  return activeEstimate(rounds, (i) => known.get(i)!, N, o.alpha ?? 0.1);
}

export interface CampaignFigures { budget: number; meanWidth: number; meanLabels: number; coverage: number }

export interface BudgetComparison {
  active: CampaignFigures;
  /** Uniform labelling at each budget of the grid. */
  uniform: CampaignFigures[];
  /** Labels uniform needs for active's mean width (linear between the grid's points). */
  uniformLabelsForActiveWidth: number | null;
  /** 1 - active's labels / uniform's labels at the same width; null when off the grid. */
  saving: number | null;
}

/**
 * Mean interval width and coverage of active labelling at `budget` and of uniform labelling on
 * a grid of budgets, over `replications` seeded campaigns each; the saving compares labels at
 * the same mean width, uniform's labels read off its grid by linear interpolation.
 */
export function compareBudgets(pYes: ArrayLike<number>, truth: ArrayLike<number>, budget: number, uniformGrid: readonly number[], replications: number, random: RandomSource, opts: { batch?: number; floor?: number; alpha?: number } = {}): BudgetComparison {
  const N = pYes.length;
  let theta = 0;
  for (let i = 0; i < N; i++) theta += truth[i]!;
  theta /= N;
  const run = (design: "active" | "uniform", b: number): CampaignFigures => {
    let w = 0, l = 0, c = 0;
    for (let r = 0; r < replications; r++) {
      const e = runCampaign(pYes, (i) => truth[i]!, random, { budget: b, design, ...(opts.batch !== undefined && design === "active" ? { batch: Math.min(opts.batch, b) } : {}), ...(opts.floor !== undefined ? { floor: opts.floor } : {}), ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}) });
      w += e.upper - e.lower;
      l += e.labelled;
      if (e.lower <= theta && theta <= e.upper) c++;
    }
    return { budget: b, meanWidth: w / replications, meanLabels: l / replications, coverage: c / replications };
  };
  const active = run("active", budget);
  const uniform = [...uniformGrid].sort((a, b) => a - b).map((b) => run("uniform", b));
  let need: number | null = null;
  for (let k = 0; k + 1 < uniform.length; k++) {
    const a = uniform[k]!, b = uniform[k + 1]!;
    if (a.meanWidth >= active.meanWidth && active.meanWidth >= b.meanWidth) {
      const t = a.meanWidth === b.meanWidth ? 0 : (a.meanWidth - active.meanWidth) / (a.meanWidth - b.meanWidth);
      need = a.meanLabels + t * (b.meanLabels - a.meanLabels);
      break;
    }
  }
  return { active, uniform, uniformLabelsForActiveWidth: need, saving: need === null ? null : 1 - active.meanLabels / need };
}
