import { EvalInputError, requireInRange } from "./errors.js";
import { mulberry32 } from "../core/mulberry32.js";
import { randomIndex } from "../core/shuffle.js";
import { quantileSelect } from "./quantile.js";

/**
 * A statistic that is a function of sums over items: every agreement and scoring figure in
 * `eval/` is one (kappa from a confusion or coincidence matrix, precision from weighted
 * true and false positives). Items add their weighted contribution to a vector of `width`
 * sums; `finish` turns the summed vector into figures, `null` where a figure is undefined
 * (an empty denominator, chance agreement of 1). Several figures may share one vector, so
 * figures computed in one bootstrap replicate are paired by construction.
 */
export interface BlockStatistic {
  /** Names of the figures `finish` returns, in order. */
  readonly names: readonly string[];
  /** Length of the sums vector. */
  readonly width: number;
  /** Number of items. */
  readonly items: number;
  /** Adds item i's contribution, multiplied by `weight`, into `acc`. */
  addItem(i: number, weight: number, acc: Float64Array): void;
  finish(sums: Float64Array): (number | null)[];
}

/** The summed vector of a statistic over all items, each with weight 1 (or the given weights). */
export function sumItems(stat: BlockStatistic, itemWeights?: ArrayLike<number>): Float64Array {
  const acc = new Float64Array(stat.width);
  for (let i = 0; i < stat.items; i++) stat.addItem(i, itemWeights ? (itemWeights[i]!) : 1, acc);
  return acc;
}

/** The figures of a statistic over all items, each with weight 1 (or the given weights). */
export function pointFigures(stat: BlockStatistic, itemWeights?: ArrayLike<number>): (number | null)[] {
  return stat.finish(sumItems(stat, itemWeights));
}

export interface BootstrapOptions {
  /** Number of resamples (at least 1; 2,000 or more for reported intervals). */
  resamples: number;
  /** Seed of the mulberry32 generator that draws the sessions. */
  seed: number;
  /** Two-sided coverage, default 0.95. */
  level?: number;
  /** Weight of each item (e.g. 1 / inclusion probability); default 1. */
  itemWeights?: ArrayLike<number>;
}

export interface FigureInterval {
  name: string;
  /** The figure on the data as given. */
  point: number | null;
  /** Percentile bounds; null when every replicate was undefined. */
  lower: number | null;
  upper: number | null;
  /** Replicates where the figure was undefined (empty denominator): left out of the bounds. */
  emptyReplicates: number;
}

export interface BootstrapResult {
  method: "session-block percentile bootstrap";
  resamples: number;
  seed: number;
  level: number;
  sessions: number;
  items: number;
  figures: FigureInterval[];
}

/**
 * Session-block percentile bootstrap: each replicate draws as many sessions as there are,
 * uniformly with replacement, keeps every item of a drawn session (as often as it was
 * drawn), and recomputes all figures of `stat` on that one resample, so figures (and
 * differences between detectors computed inside `stat`) are paired. Items of one session
 * are never split, which keeps the within-session correlation in the interval. Bounds are
 * the (1 - level)/2 and (1 + level)/2 quantiles (type 7) of the defined replicates.
 *
 * Sessions are numbered in order of first appearance, so the same items in the same order
 * with the same seed give the same interval. Throws on zero items or bad options.
 *
 * Example: USS SGD binary Fleiss' kappa (first 3 raters), 12,833 turns in 1,000 dialogues,
 * `{resamples: 1000, seed: 1}` → `{point: 0.2501, lower: 0.2268, upper: 0.2741,
 * emptyReplicates: 0}` (the reference run with another generator: [0.226, 0.274]).
 */
export function sessionBlockBootstrap(
  stat: BlockStatistic,
  sessionOf_: readonly (string | number)[],
  opts: BootstrapOptions,
): BootstrapResult {
  const sessionOfItem = sessionOf_;
  if (sessionOfItem.length !== stat.items) {
    throw new EvalInputError("BAD_SHAPE", "one session per item", `${stat.items} sessions`, `${sessionOfItem.length}`);
  }
  if (stat.items === 0) throw new EvalInputError("EMPTY", "bootstrap of no items", "at least one item", "0 items");
  if (!Number.isInteger(opts.resamples) || opts.resamples < 1) {
    throw new EvalInputError("BAD_OPTION", "resamples", "a positive integer", String(opts.resamples));
  }
  const level = opts.level ?? 0.95;
  requireInRange(level, 0.5, 0.9999, "level");

  // Per-session sums, computed once, in one flat matrix (sessions x width): a replicate
  // then costs O(sessions x width), whatever the number of items.
  const index = new Map<string | number, number>();
  const sessionOf = new Int32Array(stat.items);
  for (let i = 0; i < stat.items; i++) {
    const key = sessionOf_[i]!;
    let s = index.get(key);
    if (s === undefined) {
      s = index.size;
      index.set(key, s);
    }
    sessionOf[i] = s;
  }
  const S = index.size;
  const W = stat.width;
  const rows = new Float64Array(S * W);
  for (let i = 0; i < stat.items; i++) {
    stat.addItem(i, opts.itemWeights ? (opts.itemWeights[i]!) : 1, rows.subarray((sessionOf[i]!) * W, ((sessionOf[i]!) + 1) * W));
  }
  const total = new Float64Array(W);
  for (let s = 0; s < S; s++) for (let j = 0; j < W; j++) total[j] = (total[j]!) + (rows[s * W + j]!);
  const point = stat.finish(total);

  const names = stat.names;
  const F = names.length;
  // Replicate values in typed arrays (NaN = undefined), sorted numerically at the end.
  const values: Float64Array[] = names.map(() => new Float64Array(opts.resamples));
  const count = new Int32Array(F);
  const empty = new Int32Array(F);
  const random = mulberry32(opts.seed);
  const acc = new Float64Array(W);
  const drawn = new Int32Array(S);
  for (let r = 0; r < opts.resamples; r++) {
    drawn.fill(0);
    for (let k = 0; k < S; k++) {
      const s = randomIndex(random, S);
      drawn[s] = (drawn[s]!) + 1;
    }
    acc.fill(0);
    for (let s = 0; s < S; s++) {
      const c = drawn[s]!;
      if (c === 0) continue;
      const o = s * W;
      for (let j = 0; j < W; j++) acc[j] = (acc[j]!) + c * (rows[o + j]!);
    }
    const figs = stat.finish(acc);
    for (let f = 0; f < F; f++) {
      const v = figs[f];
      if (v === null || v === undefined || !Number.isFinite(v)) empty[f] = (empty[f]!) + 1;
      else {
        (values[f]!)[count[f]!] = v;
        count[f] = (count[f]!) + 1;
      }
    }
  }
  const lo = (1 - level) / 2;
  const figures: FigureInterval[] = names.map((name, f) => {
    const vs = (values[f]!).subarray(0, count[f]!);
    const p = point[f];
    return {
      name,
      point: p === undefined || p === null || !Number.isFinite(p) ? null : p,
      lower: vs.length > 0 ? quantileSelect(vs, lo) : null,
      upper: vs.length > 0 ? quantileSelect(vs, 1 - lo) : null,
      emptyReplicates: empty[f]!,
    };
  });
  return { method: "session-block percentile bootstrap", resamples: opts.resamples, seed: opts.seed, level, sessions: S, items: stat.items, figures };
}
