/**
 * Adds `trainedOn[].itemHashes` to a weights file trained before the trainer recorded them,
 * from the split rule the file records (`holdout/1`: a session trained when its bucket is
 * >= 20), without touching the weights: for each named set it rebuilds the labelled items
 * the trainer used (the bundled files, or the synthetic set regenerated from its seed),
 * keeps those of training sessions, and checks their count against the recorded `items`
 * before writing. Sets it cannot rebuild are left without hashes ("training items unknown").
 *
 * Run: npx esbuild scripts/weights-item-hashes.ts --bundle --platform=node --format=esm
 *   --packages=external --outfile=dist/weights-item-hashes.mjs && node dist/weights-item-hashes.mjs datasets/weights/embedded.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trainingItemHash } from "../core/training-item.js";
import { buildItems } from "../runtime/engine/embedded/items.js";
import { readSet, syntheticTrainingSet } from "../runtime/engine/embedded/sets.js";
import { isHoldout, SPLIT_METHOD } from "../runtime/engine/embedded/split.js";
import { parseWeights, serialiseWeights } from "../runtime/engine/embedded/weights.js";
import type { TrainingSet } from "../runtime/engine/embedded/train.js";

const file = process.argv[2] ?? join("datasets", "weights", "embedded.json");
const weights = parseWeights(readFileSync(file, "utf8"));
if (weights.split.method !== SPLIT_METHOD) throw new Error(`${file}: split ${weights.split.method}, this script knows ${SPLIT_METHOD}`);

async function rebuild(set: string, synthetic: { seed: number; sessions: number } | undefined): Promise<TrainingSet | null> {
  if (synthetic) return syntheticTrainingSet(synthetic.seed, synthetic.sessions);
  const labels = join("datasets", set, "labels.jsonl");
  try {
    return readSet(labels);
  } catch {
    return null;
  }
}

for (const t of weights.trainedOn) {
  const set = await rebuild(t.set, t.synthetic);
  if (set === null) {
    console.log(`${t.set}: cannot rebuild, left without itemHashes`);
    continue;
  }
  if (set.exchangesSha256 !== t.exchangesSha256 || set.labelsSha256 !== t.labelsSha256) {
    console.log(`${t.set}: the files changed since training (hashes differ), left without itemHashes`);
    continue;
  }
  let pairs = 0;
  const ids = new Set<string>();
  for (const list of buildItems(set.exchanges, set.labels).byQuestion.values()) {
    for (const it of list) {
      if (isHoldout(it.exchange.corpus, it.exchange.session_id)) continue;
      pairs++;
      ids.add(trainingItemHash(it.exchange.corpus, it.exchange.id));
    }
  }
  if (pairs !== t.items) {
    console.log(`${t.set}: rebuilt ${pairs} (question, item) pairs, the file records ${t.items}; left without itemHashes`);
    continue;
  }
  t.itemHashes = [...ids].sort();
  console.log(`${t.set}: ${ids.size} training items (${pairs} question-item pairs) hashed`);
}
parseWeights(serialiseWeights(weights));
writeFileSync(file, serialiseWeights(weights));
