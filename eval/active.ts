import jStat from "jstat";
import { EvalInputError, requireInRange } from "./errors.js";
import type { RandomSource } from "./prng.js";
import { errorModel, recalibrate, type Calibration, type ErrorModelOptions } from "./active-error.js";

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
 * Allocation. pi_i is proportional to the square root of the expected squared error
 * E[(Y_i - f(i))^2 | P(yes)_i], learned from the labels so far (ErrorModelOptions; by default
 * five equal-count bins of P(yes), each bin's inverse-probability-weighted mean squared error
 * shrunk toward f(1 - f), f the judge's P(yes)); before any label it is f(1 - f), right for a
 * calibrated judge. Probabilities are capped at 1 (the excess goes to the others) and floored at
 * `floor` x the uniform share, so an item the judge is sure of still has a chance and a wrong
 * judge cannot make the variance blow up. Uniform labelling is the same estimator with
 * pi_i = n / (open items), learning f the same way.
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

/**
 * Inclusion probabilities for a round of `budget` expected labels over the items not yet
 * labelled (`known` ones get 1: their label is in hand), proportional to the square root of the
 * learned expected squared error, capped at 1, floored at `floor` x the uniform share.
 */
export function activeInclusion(pYes: ArrayLike<number>, budget: number, cal: Calibration = { a: 0, b: 1 }, floor = 0.2, labels: { p: readonly number[]; y: readonly number[]; w: readonly number[] } = { p: [], y: [], w: [] }, known: ReadonlySet<number> = new Set(), model: ErrorModelOptions = {}): { pi: Float64Array; f: Float64Array } {
  const N = pYes.length;
  if (N === 0) throw new EvalInputError("EMPTY", "active labelling needs items", "at least one item with a P(yes)", "none");
  requireInRange(budget, 1e-9, Math.max(1e-9, N - known.size), "budget");
  requireInRange(floor, 0, 1, "floor");
  const { f, v } = errorModel(pYes, cal, labels, model);
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
    // An iteration that leaves [a, b] as it was (the two are adjacent doubles, about 60 in)
    // leaves it so for every one after: stop there, with the same result.
    if (sumAt(m) < budget) {
      if (m === a) break;
      a = m;
    } else {
      if (m === b) break;
      b = m;
    }
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
  /**
   * "active" (pi proportional to the square root of the learned expected squared error) or
   * "uniform" (pi = n / open items). Both learn the estimator's prediction f the same way from
   * the rounds before, so the two differ only in pi.
   */
  design: "active" | "uniform";
  floor?: number;
  alpha?: number;
  /** How f and the expected squared error are learned (default quantile bins). */
  errorModel?: ErrorModelOptions;
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
    // The round's weight in the combination is its planned size, fixed before any draw (a
    // weight that depended on earlier draws would bias the combination).
    const n = Math.min(batch, o.budget - spent);
    let pi: Float64Array;
    let f: Float64Array;
    const knownSet = new Set(known.keys());
    const cal = recalibrate(labelsP, labelsY, labelsW);
    const labels = { p: labelsP, y: labelsY, w: labelsW };
    if (N - known.size <= n) {
      // Fewer open items than the round asks for: label them all.
      f = errorModel(pYes, cal, labels, o.errorModel ?? {}).f;
      pi = new Float64Array(N).fill(1);
    } else if (o.design === "uniform") {
      f = errorModel(pYes, cal, labels, o.errorModel ?? {}).f;
      pi = new Float64Array(N).fill(n / (N - known.size));
      for (const i of knownSet) pi[i] = 1;
    } else {
      ({ pi, f } = activeInclusion(pYes, n, cal, o.floor ?? 0.2, labels, knownSet, o.errorModel ?? {}));
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
 * the same mean width, uniform's labels read off its grid by linear interpolation. With
 * `batch`, active runs ceil(budget / batch) rounds and uniform as many rounds at each of its
 * budgets, learning f the same way (the same estimator; only pi differs).
 */
export function compareBudgets(pYes: ArrayLike<number>, truth: ArrayLike<number>, budget: number, uniformGrid: readonly number[], replications: number, random: RandomSource, opts: { batch?: number; floor?: number; alpha?: number; errorModel?: ErrorModelOptions } = {}): BudgetComparison {
  const N = pYes.length;
  let theta = 0;
  for (let i = 0; i < N; i++) theta += truth[i]!;
  theta /= N;
  const roundsOf = opts.batch === undefined ? 1 : Math.ceil(budget / Math.min(opts.batch, budget));
  const run = (design: "active" | "uniform", b: number): CampaignFigures => {
    let w = 0, l = 0, c = 0;
    for (let r = 0; r < replications; r++) {
      const e = runCampaign(pYes, (i) => truth[i]!, random, { budget: b, design, batch: Math.max(1, b / roundsOf), ...(opts.floor !== undefined ? { floor: opts.floor } : {}), ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}), ...(opts.errorModel !== undefined ? { errorModel: opts.errorModel } : {}) });
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
