import { categoriesOf, countsPerUnit, type LabelValue } from "./categories.js";
import { EvalInputError } from "./errors.js";
import { sumItems, type BlockStatistic } from "./session-block-bootstrap.js";

/**
 * Fleiss' kappa for many raters, fixed or variable in number per item (Fleiss 1971):
 *   P_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1))   agreement within item i,
 *   Po  = mean of P_i over items with n_i >= 2,
 *   p_j = sum_i n_ij / sum_i n_i                     pooled share of category j,
 *   Pe  = sum_j p_j^2,   kappa = (Po - Pe) / (1 - Pe).
 * With the same n for every item this is Fleiss' formula exactly; with variable n, items
 * keep equal weight in Po and p_j pools all ratings. Items with fewer than 2 ratings carry
 * no agreement and are left out. Nominal: categories are unordered.
 *
 * Policy: no item with 2 or more ratings throws EMPTY; Pe = 1 (one category only) gives
 * `kappa: null` with a reason, never 0 or NaN.
 *
 * Example (Fleiss 1971, as printed on Wikipedia's "Fleiss' kappa" page; 10 items, 14 raters,
 * 5 categories): `fleissKappaFromCounts([[0,0,0,0,14],[0,2,6,4,2],[0,0,3,5,6],[0,3,9,2,0],
 * [2,2,8,1,1],[7,7,0,0,0],[3,2,6,3,0],[2,5,3,2,2],[6,5,2,1,0],[0,2,2,3,7]])`
 * → `{kappa: 0.20993…, po: 0.37802…, pe: 0.21276…, items: 10, ratings: 140}`.
 */
export interface KappaResult {
  kappa: number | null;
  /** Observed agreement. */
  po: number;
  /** Agreement expected by chance. */
  pe: number;
  /** Items that entered (with 2 or more ratings). */
  items: number;
  /** Ratings that entered. */
  ratings: number;
  /** Why kappa is null, else null. */
  reason: string | null;
}

/** Fleiss' kappa as a `BlockStatistic` over per-item category counts: figures [kappa, po, pe]. */
export function fleissStatistic(counts: readonly ArrayLike<number>[]): BlockStatistic {
  const K = counts[0]?.length ?? 0;
  // sums: [items, sum P_i, ratings, n_.j for each j]
  return {
    names: ["kappa", "po", "pe"],
    width: 3 + K,
    items: counts.length,
    addItem(i, w, acc) {
      const c = counts[i]!;
      let n = 0;
      let pairs = 0;
      for (let j = 0; j < K; j++) {
        const x = c[j]!;
        n += x;
        pairs += x * (x - 1);
      }
      if (n < 2) return;
      acc[0] = (acc[0]!) + w;
      acc[1] = (acc[1]!) + (w * pairs) / (n * (n - 1));
      acc[2] = (acc[2]!) + w * n;
      for (let j = 0; j < K; j++) acc[3 + j] = (acc[3 + j]!) + w * (c[j]!);
    },
    finish(s) {
      const items = s[0]!;
      const ratings = s[2]!;
      if (!(items > 0) || !(ratings > 0)) return [null, null, null];
      const po = (s[1]!) / items;
      let pe = 0;
      for (let j = 0; j < K; j++) pe += ((s[3 + j]!) / ratings) ** 2;
      const kappa = 1 - pe > 1e-12 ? (po - pe) / (1 - pe) : null;
      return [kappa, po, pe];
    },
  };
}

/** Fleiss' kappa from a table of per-item category counts (rows: items; columns: categories). */
export function fleissKappaFromCounts(counts: readonly (readonly number[])[], opts: { weights?: ArrayLike<number> } = {}): KappaResult {
  const K = counts[0]?.length ?? 0;
  for (const [i, row] of counts.entries()) {
    if (row.length !== K) throw new EvalInputError("BAD_SHAPE", `count row ${i + 1}`, `${K} categories`, `${row.length}`);
    for (const x of row) if (!(Number.isInteger(x) && x >= 0)) throw new EvalInputError("BAD_VALUE", `count row ${i + 1}`, "non-negative integer counts", String(x));
  }
  const stat = fleissStatistic(counts);
  const sums = sumItems(stat, opts.weights);
  const items = sums[0]!;
  const ratings = sums[2]!;
  if (!(items > 0)) throw new EvalInputError("EMPTY", "Fleiss' kappa needs rated items", "at least one item with 2 or more ratings", `${items} items`);
  const [kappa, po, pe] = stat.finish(sums);
  return {
    kappa: kappa ?? null,
    po: po as number,
    pe: pe as number,
    items,
    ratings,
    reason: kappa === null ? "chance agreement is 1: every rating is in one category" : null,
  };
}

/**
 * Fleiss' kappa from each item's ratings (missing ratings simply absent; variable raters).
 * Example: `fleissKappa([[true, true, false], [false, false, false], [true, true, true]]).kappa` → 0.5500…
 */
export function fleissKappa(units: readonly (readonly LabelValue[])[], opts: { weights?: ArrayLike<number> } = {}): KappaResult {
  const { index } = categoriesOf(units);
  return fleissKappaFromCounts(countsPerUnit(units, index).map((c) => Array.from(c)), opts);
}

/**
 * Fleiss' kappa for yes/no ratings by several raters, from how many items had k "yes" votes
 * (k = 0..n): only these counts matter for binary Fleiss with a fixed n.
 * Example: `fleissKappaFromVoteCounts(3, {0: 10612, 1: 1574, 2: 506, 3: 141}).kappa` → 0.2501 (USS SGD).
 */
export function fleissKappaFromVoteCounts(raters: number, itemsWithYesVotes: Readonly<Record<number, number>>): KappaResult {
  const counts: number[][] = [];
  const weights: number[] = [];
  for (const [k, m] of Object.entries(itemsWithYesVotes)) {
    const yes = Number(k);
    if (!(Number.isInteger(yes) && yes >= 0 && yes <= raters)) throw new EvalInputError("BAD_VALUE", "a vote count", `0..${raters}`, k);
    counts.push([raters - yes, yes]);
    weights.push(m);
  }
  return fleissKappaFromCounts(counts, { weights });
}
