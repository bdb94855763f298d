import { categoriesOf, valueKey, type LabelValue } from "./categories.js";
import { EvalInputError } from "./errors.js";
import type { KappaResult } from "./fleiss-kappa.js";
import { sumItems, type BlockStatistic } from "./session-block-bootstrap.js";

/**
 * Cohen's kappa for two raters over the items both rated (nominal, unweighted):
 *   po = share of items where they agree,
 *   pe = sum_c (row share of c) (column share of c),   kappa = (po - pe) / (1 - pe).
 * Pairs where either value is missing (`null`/`undefined`) are left out.
 *
 * Policy: no item rated by both throws EMPTY; pe = 1 (both raters used one and the same
 * category throughout) gives `kappa: null` with a reason.
 *
 * Example (Wikipedia's "Cohen's kappa" page: 50 proposals, yes/yes 20, yes/no 5, no/yes 10,
 * no/no 15): po 0.70, pe 0.50, kappa 0.40.
 */
export function cohenStatistic(a: readonly (number | null)[], b: readonly (number | null)[], categories: number): BlockStatistic {
  const K = categories;
  return {
    names: ["kappa", "po", "pe"],
    width: K * K,
    items: a.length,
    addItem(i, w, acc) {
      const x = a[i];
      const y = b[i];
      if (x === null || x === undefined || y === null || y === undefined) return;
      acc[x * K + y] = (acc[x * K + y]!) + w;
    },
    finish(s) {
      let n = 0;
      let agree = 0;
      const rows = new Float64Array(K);
      const cols = new Float64Array(K);
      for (let x = 0; x < K; x++) {
        for (let y = 0; y < K; y++) {
          const v = s[x * K + y]!;
          n += v;
          rows[x] = (rows[x]!) + v;
          cols[y] = (cols[y]!) + v;
          if (x === y) agree += v;
        }
      }
      if (!(n > 0)) return [null, null, null];
      const po = agree / n;
      let pe = 0;
      for (let c = 0; c < K; c++) pe += ((rows[c]!) / n) * ((cols[c]!) / n);
      return [1 - pe > 1e-12 ? (po - pe) / (1 - pe) : null, po, pe];
    },
  };
}

/** Category indices of two aligned rating lists, `null` where a rating is missing. */
export function pairIndices(
  a: readonly (LabelValue | null | undefined)[],
  b: readonly (LabelValue | null | undefined)[],
): { x: (number | null)[]; y: (number | null)[]; categories: number } {
  if (a.length !== b.length) throw new EvalInputError("BAD_SHAPE", "two aligned rating lists", `equal lengths`, `${a.length} and ${b.length}`);
  const present = [...a, ...b].filter((v): v is LabelValue => v !== null && v !== undefined);
  const { index } = categoriesOf([present]);
  const idx = (v: LabelValue | null | undefined): number | null => (v === null || v === undefined ? null : (index.get(valueKey(v)) as number));
  return { x: a.map(idx), y: b.map(idx), categories: index.size };
}

export function cohenKappa(
  a: readonly (LabelValue | null | undefined)[],
  b: readonly (LabelValue | null | undefined)[],
  opts: { weights?: ArrayLike<number> } = {},
): KappaResult {
  const { x, y, categories } = pairIndices(a, b);
  const stat = cohenStatistic(x, y, categories);
  const sums = sumItems(stat, opts.weights);
  let n = 0;
  for (const v of sums) n += v;
  if (!(n > 0)) throw new EvalInputError("EMPTY", "Cohen's kappa needs items rated by both raters", "at least one", "0");
  const [kappa, po, pe] = stat.finish(sums);
  return {
    kappa: kappa ?? null,
    po: po as number,
    pe: pe as number,
    items: n,
    ratings: 2 * n,
    reason: kappa === null ? "chance agreement is 1: both raters used one and the same category" : null,
  };
}
