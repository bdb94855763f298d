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
  const a = sorted[lo]!;
  if (lo + 1 >= n) return a;
  const b = sorted[lo + 1]!;
  return a + (h - lo) * (b - a);
}

/** Rearranges `xs` so that xs[k] is its k-th smallest value (Hoare's quickselect, median of 3). */
function select(xs: Float64Array, k: number): void {
  let lo = 0;
  let hi = xs.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    const a = xs[lo]!;
    const b = xs[mid]!;
    const c = xs[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((xs[i]!) < pivot) i++;
      while ((xs[j]!) > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * The same type-7 quantile as `quantileSorted`, in linear time without sorting: selects the
 * two order statistics it interpolates between. Reorders `xs` in place.
 *
 * Example: `quantileSelect(Float64Array.from([4, 1, 3, 2]), 0.25)` → 1.75.
 */
export function quantileSelect(xs: Float64Array, p: number): number {
  const n = xs.length;
  if (n === 0) throw new EvalInputError("EMPTY", "quantile of an empty list", "at least one value", "0 values");
  if (!(p >= 0 && p <= 1)) throw new EvalInputError("BAD_OPTION", "quantile level out of range", "p in [0, 1]", String(p));
  const h = (n - 1) * p;
  const k = Math.floor(h);
  select(xs, k);
  const a = xs[k]!;
  if (k + 1 >= n || h === k) return a;
  let b = Number.POSITIVE_INFINITY;
  for (let i = k + 1; i < n; i++) if ((xs[i]!) < b) b = xs[i]!;
  return a + (h - k) * (b - a);
}
