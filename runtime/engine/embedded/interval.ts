/**
 * Percentile intervals by resampling whole sessions (a session's items move together), with a
 * seeded generator: the same data and seed give the same interval. Replicates where the
 * statistic is undefined (one class drawn) are dropped and counted.
 *
 * Example: `sessionBootstrap(items, (xs) => auc(...), {resamples: 2000, seed: 1})`
 * -> `{low: 0.69, high: 0.89, resamples: 2000, empty: 3, seed: 1, sessions: 41}`.
 */
export interface Interval {
  low: number | null;
  high: number | null;
  resamples: number;
  /** Replicates whose statistic was undefined. */
  empty: number;
  seed: number;
  sessions: number;
  level: number;
}

import { mulberry32 } from "../../../core/mulberry32.js";
import { quantileSorted } from "../../../eval/index.js";
export { mulberry32 };

export function sessionBootstrap<T>(items: readonly T[], sessionOf: (t: T) => string, stat: (sample: readonly T[]) => number | null, opts: { resamples?: number; seed?: number; level?: number } = {}): Interval {
  const resamples = opts.resamples ?? 2000;
  const seed = opts.seed ?? 1;
  const level = opts.level ?? 0.95;
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const k = sessionOf(it);
    const g = groups.get(k);
    if (g) g.push(it);
    else groups.set(k, [it]);
  }
  const sessions = [...groups.keys()].sort().map((k) => groups.get(k) as T[]);
  const rand = mulberry32(seed);
  const values: number[] = [];
  let empty = 0;
  for (let r = 0; r < resamples && sessions.length > 0; r++) {
    const sample: T[] = [];
    for (let s = 0; s < sessions.length; s++) sample.push(...(sessions[Math.floor(rand() * sessions.length)]!));
    const v = stat(sample);
    if (v === null || !Number.isFinite(v)) empty++;
    else values.push(v);
  }
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return {
    low: values.length ? quantileSorted(values, tail) : null,
    high: values.length ? quantileSorted(values, 1 - tail) : null,
    resamples,
    empty,
    seed,
    sessions: sessions.length,
    level,
  };
}
