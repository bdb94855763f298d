import { categoriesOf, countsPerUnit, type LabelValue } from "./categories.js";
import { EvalInputError } from "./errors.js";
import { sumItems, type BlockStatistic } from "./session-block-bootstrap.js";

/**
 * Raw agreement, without any correction for chance:
 * - `pairwise`: over items with 2 or more ratings, the mean share of rater pairs that agree
 *   (Fleiss' Po);
 * - `unanimous`: the share of those items on which every rating is the same.
 *
 * Policy: no item with 2 or more ratings throws EMPTY.
 *
 * Example: `rawAgreement([[1, 1, 2], [3, 3, 3]])` → `{pairwise: 0.6667, unanimous: 0.5, items: 2}`.
 */
export interface RawAgreement {
  pairwise: number;
  unanimous: number;
  items: number;
}

export function rawAgreementStatistic(counts: readonly ArrayLike<number>[]): BlockStatistic {
  return {
    names: ["pairwise", "unanimous"],
    width: 3,
    items: counts.length,
    addItem(i, w, acc) {
      const c = counts[i]!;
      let n = 0;
      let pairs = 0;
      let max = 0;
      for (let j = 0; j < c.length; j++) {
        const x = c[j]!;
        n += x;
        pairs += x * (x - 1);
        if (x > max) max = x;
      }
      if (n < 2) return;
      acc[0] = (acc[0]!) + w;
      acc[1] = (acc[1]!) + (w * pairs) / (n * (n - 1));
      if (max === n) acc[2] = (acc[2]!) + w;
    },
    finish(s) {
      const items = s[0]!;
      return items > 0 ? [(s[1]!) / items, (s[2]!) / items] : [null, null];
    },
  };
}

export function rawAgreement(units: readonly (readonly LabelValue[])[], opts: { weights?: ArrayLike<number> } = {}): RawAgreement {
  const { index } = categoriesOf(units);
  const stat = rawAgreementStatistic(countsPerUnit(units, index));
  const sums = sumItems(stat, opts.weights);
  const items = sums[0]!;
  if (!(items > 0)) throw new EvalInputError("EMPTY", "raw agreement needs rated items", "at least one item with 2 or more ratings", "0 items");
  const [pairwise, unanimous] = stat.finish(sums);
  return { pairwise: pairwise as number, unanimous: unanimous as number, items };
}
