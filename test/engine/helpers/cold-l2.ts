import { fitLogistic, LogisticError, predictLogistic, type Row } from "../../../learn/logistic.js";
import { L2_GRID } from "../../../runtime/engine/embedded/train.js";

/**
 * The cross-validated L2 as it was chosen before the warm start and the looser CV tolerance:
 * every (L2, fold) fitted from zero at fitLogistic's default tolerance, held-out log loss summed
 * over the folds, ties to the stronger penalty. chooseL2 must pick the same.
 */
export function coldChoice(rows: readonly Row[], y: readonly number[], fold: readonly number[], dim: number): number {
  let best: number = L2_GRID[2];
  let bestLoss = Infinity;
  for (const l2 of L2_GRID) {
    let loss = 0;
    let counted = 0;
    for (let f = 0; f < 5; f++) {
      const tr = fold.flatMap((g, i) => (g === f ? [] : [i]));
      const te = fold.flatMap((g, i) => (g === f ? [i] : []));
      if (te.length === 0) continue;
      let m;
      try {
        m = fitLogistic(tr.map((i) => rows[i]!), tr.map((i) => y[i]!), { l2, dim });
      } catch (e) {
        if (e instanceof LogisticError) continue;
        throw e;
      }
      for (const i of te) {
        const p = Math.min(1 - 1e-15, Math.max(1e-15, predictLogistic(m, rows[i]!)));
        loss -= y[i]! * Math.log(p) + (1 - y[i]!) * Math.log(1 - p);
        counted++;
      }
    }
    if (counted > 0 && loss / counted <= bestLoss + 1e-12) {
      bestLoss = loss / counted;
      best = l2;
    }
  }
  return best;
}
