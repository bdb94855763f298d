import { createHash } from "node:crypto";
import { CodedError } from "../../../core/errors.js";
import { readLabelledSet } from "./files.js";
import { importSynthetic } from "../../corpora/index.js";
import type { TrainingSet } from "./train.js";
import { hasReplyLabels, REPLY_MAP_ID, replyBankLabels } from "./reply-map.js";
import { hasUkpLabels, UKP_MAP_ID, ukpBankLabels } from "./ukp-map.js";

/**
 * The labelled sets training and evaluation read:
 * - a bundled set (`labels.jsonl` beside its `exchanges.jsonl`); UKP's native error and
 *   response types are mapped onto bank and class questions (`ukp-map.ts`) and the set is
 *   marked "flagged-turns" (every UKP exchange is a turn picked for its feedback); DBDC3's
 *   breakdowns and ConTurE's dislikes, which rate the reply the next user turn reacts to,
 *   become `detect.unhappy` votes (`reply-map.ts`);
 * - a synthetic TRAINING set, generated in memory by the seeded generator at train time,
 *   named `synthetic-seed-<seed>` and marked synthetic. The bundled `datasets/synthetic`
 *   (seed 7) is the evaluation corpus: training refuses seed 7.
 *
 * Example: `await syntheticTrainingSet(101, 300)` → `{name: "synthetic-seed-101", synthetic:
 * {seed: 101, sessions: 300}, exchanges: [~2,600], labels: [...], …}`; the same arguments
 * give the same hashes on every run.
 */
export const EVALUATION_SEED = 7;

export function readSet(labelsPath: string, exchangesPath?: string): TrainingSet {
  const set = readLabelledSet(labelsPath, exchangesPath);
  if (hasReplyLabels(set.labels)) return { ...set, labels: [...set.labels, ...replyBankLabels(set.exchanges, set.labels)], labelMap: REPLY_MAP_ID };
  if (!hasUkpLabels(set.labels)) return set;
  return { ...set, labels: [...set.labels, ...ukpBankLabels(set.labels)], labelMap: UKP_MAP_ID, population: "flagged-turns" };
}

const jsonlSha = (rows: readonly unknown[]): string => {
  const h = createHash("sha256");
  for (const r of rows) h.update(`${JSON.stringify(r)}\n`, "utf8");
  return h.digest("hex");
};

/** A synthetic training set asked with an unusable seed or size: code BAD_SEED, kind `input`. */
export class SyntheticSeedError extends CodedError {
  declare readonly code: "BAD_SEED";
  constructor(message: string, expected: string, found: string) {
    super("input", "BAD_SEED", message, { expected, found });
    this.name = "SyntheticSeedError";
  }
}

export async function syntheticTrainingSet(seed: number, sessions: number): Promise<TrainingSet> {
  if (seed === EVALUATION_SEED) throw new SyntheticSeedError(`seed ${EVALUATION_SEED} is the bundled evaluation corpus (datasets/synthetic); train on another seed`, `a seed other than ${EVALUATION_SEED}`, String(seed));
  if (!Number.isInteger(seed) || seed < 0 || !Number.isInteger(sessions) || sessions < 1) throw new SyntheticSeedError(`a synthetic training set needs a whole seed >= 0 and sessions >= 1 (got ${seed}, ${sessions})`, "a whole seed >= 0 and sessions >= 1", `${seed}, ${sessions}`);
  const r = await importSynthetic({ seed, sessions, transcriptsDir: null });
  return {
    name: `synthetic-seed-${seed}`,
    exchanges: r.exchanges,
    labels: r.labels,
    // The hashes of the files `errata import synthetic --seed N --sessions M` would write.
    exchangesSha256: jsonlSha(r.exchanges),
    labelsSha256: jsonlSha(r.labels),
    synthetic: { seed, sessions },
  };
}
