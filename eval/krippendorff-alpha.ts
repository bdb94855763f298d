import { categoriesOf, countsPerUnit, type LabelValue } from "./categories.js";
import { EvalInputError } from "./errors.js";
import { sumItems, type BlockStatistic } from "./session-block-bootstrap.js";

/** Level of measurement: which disagreements count how much. */
export type AlphaMetric = "nominal" | "ordinal" | "interval" | "ratio";

/**
 * Krippendorff's alpha through the coincidence matrix (Krippendorff 2011, "Computing
 * Krippendorff's alpha-reliability"): a unit with m >= 2 pairable values adds
 * n_uc n_uk / (m - 1) to o_ck (c != k) and n_uc (n_uc - 1) / (m - 1) to o_cc; with
 * n_c = sum_k o_ck and n = sum_c n_c,
 *   alpha = 1 - (n - 1) sum o_ck d_ck / sum n_c n_k d_ck.
 * Distances d: nominal 1 when c != k; interval (c - k)^2; ratio ((c - k)/(c + k))^2;
 * ordinal (sum of n_g for g from c to k, minus (n_c + n_k)/2)^2 over ranks.
 * Missing values are simply absent from a unit; units with one value are not pairable.
 * Errata uses nominal for yes/no and category questions and interval for rating scales.
 *
 * Policy: fewer than 2 pairable values throws EMPTY; no variation at all (expected
 * disagreement 0) gives `alpha: null` with a reason.
 *
 * Example (Krippendorff 2011, reliability data "C": 4 observers, 12 units, values 1-5,
 * missing values): nominal 0.743421, interval 0.849107.
 */
export interface AlphaResult {
  alpha: number | null;
  metric: AlphaMetric;
  /** Units with 2 or more values. */
  units: number;
  /** Pairable values (n). */
  values: number;
  reason: string | null;
}

function distance(metric: AlphaMetric, values: readonly number[], marg: Float64Array, c: number, k: number): number {
  if (c === k) return 0;
  const a = values[c]!;
  const b = values[k]!;
  switch (metric) {
    case "nominal":
      return 1;
    case "interval":
      return (a - b) ** 2;
    case "ratio":
      return a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
    case "ordinal": {
      const lo = Math.min(c, k);
      const hi = Math.max(c, k);
      let s = 0;
      for (let g = lo; g <= hi; g++) s += marg[g]!;
      return (s - ((marg[c]!) + (marg[k]!)) / 2) ** 2;
    }
  }
}

/**
 * Alpha as a `BlockStatistic` over per-unit category counts; `values` are the categories'
 * numeric values (ascending for ordinal/interval/ratio). Figures: [alpha].
 */
export function alphaStatistic(counts: readonly ArrayLike<number>[], values: readonly number[], metric: AlphaMetric): BlockStatistic {
  const K = values.length;
  return {
    names: ["alpha"],
    width: K * K,
    items: counts.length,
    addItem(i, w, acc) {
      const c = counts[i]!;
      let m = 0;
      for (let j = 0; j < K; j++) m += c[j]!;
      if (m < 2) return;
      const f = w / (m - 1);
      for (let x = 0; x < K; x++) {
        const cx = c[x]!;
        if (cx === 0) continue;
        for (let y = 0; y < K; y++) {
          const cy = c[y]!;
          if (cy === 0) continue;
          acc[x * K + y] = (acc[x * K + y]!) + f * cx * (x === y ? cy - 1 : cy);
        }
      }
    },
    finish(o) {
      const marg = new Float64Array(K);
      let n = 0;
      for (let x = 0; x < K; x++) for (let y = 0; y < K; y++) marg[x] = (marg[x]!) + (o[x * K + y]!);
      for (let x = 0; x < K; x++) n += marg[x]!;
      if (!(n > 1)) return [null];
      let dObs = 0;
      let dExp = 0;
      for (let x = 0; x < K; x++) {
        for (let y = 0; y < K; y++) {
          if (x === y) continue;
          const d = distance(metric, values, marg, x, y);
          dObs += (o[x * K + y]!) * d;
          dExp += (marg[x]!) * (marg[y]!) * d;
        }
      }
      if (!(dExp > 0)) return [null];
      return [1 - ((n - 1) * dObs) / dExp];
    },
  };
}

/** Numeric category values for a metric; nominal accepts any values (their order is unused). */
export function numericCategories(units: readonly (readonly LabelValue[])[], metric: AlphaMetric): { values: number[]; index: Map<string, number> } {
  const { values, index } = categoriesOf(units);
  if (metric === "nominal") return { values: values.map((_, i) => i), index };
  const nums = values.map((v) => {
    if (typeof v !== "number") throw new EvalInputError("BAD_VALUE", `${metric} alpha needs numbers`, "numeric ratings", JSON.stringify(v));
    return v;
  });
  return { values: nums, index };
}

/**
 * Krippendorff's alpha from each unit's values (missing values simply absent).
 * Example: `krippendorffAlpha([[1, 1], [2, 2], [1, 2]], "nominal").alpha` → 0.4444…
 */
export function krippendorffAlpha(
  units: readonly (readonly LabelValue[])[],
  metric: AlphaMetric,
  opts: { weights?: ArrayLike<number> } = {},
): AlphaResult {
  const { values, index } = numericCategories(units, metric);
  const counts = countsPerUnit(units, index);
  const stat = alphaStatistic(counts, values, metric);
  const sums = sumItems(stat, opts.weights);
  let n = 0;
  for (const v of sums) n += v;
  const pairable = units.filter((u) => u.length >= 2).length;
  if (!(n >= 2)) throw new EvalInputError("EMPTY", "Krippendorff's alpha needs pairable values", "at least one unit with 2 or more values", `${n} pairable values`);
  const [alpha] = stat.finish(sums);
  return {
    alpha: alpha ?? null,
    metric,
    units: pairable,
    values: n,
    reason: alpha === null || alpha === undefined ? "no variation: every pairable value is the same" : null,
  };
}
