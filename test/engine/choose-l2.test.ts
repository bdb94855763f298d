import { describe, expect, it } from "vitest";
import { fitLogistic, LogisticError, predictLogistic, type Row } from "../../learn/logistic.js";
import { DEFAULT_FEATURES, extractFeatures } from "../../runtime/engine/embedded/features.js";
import { buildItems } from "../../runtime/engine/embedded/items.js";
import { syntheticTrainingSet } from "../../runtime/engine/embedded/sets.js";
import { splitBucket } from "../../runtime/engine/embedded/split.js";
import { chooseL2, L2_GRID } from "../../runtime/engine/embedded/train.js";
import { syntheticSet } from "./helpers/labelled.js";

/**
 * The cross-validated L2 as it was chosen before the warm start and the looser CV tolerance:
 * every (L2, fold) fitted from zero at fitLogistic's default tolerance, held-out log loss summed
 * over the folds, ties to the stronger penalty. chooseL2 must pick the same.
 */
function coldChoice(rows: readonly Row[], y: readonly number[], fold: readonly number[], dim: number): number {
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

describe("chooseL2 (warm-started folds, CV tolerance)", () => {
  it("picks the L2 the cold-start, full-tolerance search picks, on generated sets and questions", async () => {
    const sets = [await syntheticTrainingSet(11, 16), syntheticSet(5, 40, 0.3, "noisy")];
    const dim = 1 << DEFAULT_FEATURES.bits;
    const picked: string[] = [];
    for (const set of sets) {
      for (const [qid, items] of buildItems(set.exchanges, set.labels).byQuestion) {
        const yes = items.filter((it) => it.majority === 1).length;
        const no = items.filter((it) => it.majority === 0).length;
        if (yes < 5 || no < 5) continue;
        const rows = items.map((it) => extractFeatures(it.exchange, { ...DEFAULT_FEATURES, captureSignals: false }, null));
        const y = items.map((it) => it.yes / it.total);
        const fold = items.map((it) => splitBucket(it.exchange.corpus, it.exchange.session_id) % 5);
        const l2 = chooseL2(rows, y, fold, dim);
        expect(l2, `${set.name} ${qid}`).toBe(coldChoice(rows, y, fold, dim));
        picked.push(`${qid}=${l2}`);
      }
    }
    process.stdout.write(`chooseL2 against the cold search: ${picked.length} questions agree (${picked.join(", ")})\n`);
    expect(picked.length).toBeGreaterThanOrEqual(4);
    // More than one grid point is picked, or agreement would say little.
    expect(new Set(picked.map((p) => p.split("=")[1])).size).toBeGreaterThan(1);
  });
});
