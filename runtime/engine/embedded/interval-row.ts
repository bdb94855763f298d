import { sessionBootstrap, type Interval } from "./interval.js";

/**
 * The intervals `engine eval` prints: session-block bootstrap, 2,000 resamples, seed 1, 95%.
 * Example: `interval(points, (xs) => auc(...))` -> `{low: 0.66, high: 0.91, resamples: 2000, …}`.
 */
export function interval<T extends { session: string }>(points: readonly T[], stat: (xs: readonly T[]) => number | null, resamples = 2000): Interval {
  return sessionBootstrap(points, (x) => x.session, stat, { resamples, seed: 1 });
}
