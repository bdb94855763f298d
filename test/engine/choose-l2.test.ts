import { describe, expect, it } from "vitest";
import { DEFAULT_FEATURES, extractFeatures } from "../../runtime/engine/embedded/features.js";
import { buildItems } from "../../runtime/engine/embedded/items.js";
import { syntheticTrainingSet } from "../../runtime/engine/embedded/sets.js";
import { splitBucket } from "../../runtime/engine/embedded/split.js";
import { chooseL2 } from "../../runtime/engine/embedded/train.js";
import { coldChoice } from "./helpers/cold-l2.js";
import { syntheticSet } from "./helpers/labelled.js";

describe("chooseL2 (warm-started folds, CV tolerance)", () => {
  it("picks the L2 the cold-start, full-tolerance search picks, on generated sets and questions", async () => {
    const sets = [await syntheticTrainingSet(11, 8), syntheticSet(5, 30, 0.3, "noisy")];
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
