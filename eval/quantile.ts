import { EvalInputError } from "./errors.js";

/**
 * The p-quantile of an ascending sorted array by linear interpolation between order
 * statistics (Hyndman-Fan type 7, the default of R's `quantile` and numpy's `quantile`):
 * h = (n - 1) p, q = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 * Empty input throws: there is no quantile of nothing.
 *
 * Example: `quantileSorted([1, 2, 3, 4], 0.25)` → 1.75.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new EvalInputError("EMPTY", "quantile of an empty list", "at least one value", "0 values");
  if (!(p >= 0 && p <= 1)) throw new EvalInputError("BAD_OPTION", "quantile level out of range", "p in [0, 1]", String(p));
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  if (lo + 1 >= n) return a;
  const b = sorted[lo + 1] as number;
  return a + (h - lo) * (b - a);
}
