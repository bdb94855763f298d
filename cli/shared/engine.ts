import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { badInput, ErrataError } from "../../core/errors.js";
import type { Io } from "./io.js";
import { bank, v3ClassQuestions } from "../../questions/index.js";
import { EngineConfigError } from "../../runtime/engine/index.js";
import { EngineInputError } from "../../runtime/engine/index.js";
import { readSet, SyntheticSeedError, syntheticTrainingSet } from "../../runtime/engine/index.js";
import { signalsFingerprint, trainingExchanges } from "../../runtime/engine/index.js";
import { captureSignals } from "../../runtime/engine/index.js";
import { repoDatasetsDir } from "../../runtime/engine/index.js";
import type { TrainingSet } from "../../runtime/engine/index.js";
import type { WeightsFile } from "../../runtime/engine/index.js";

/**
 * What the `errata engine train | eval | ask | probe` commands share. Library errors (bad
 * files, bad config) become exit 2 with what was expected and found.
 */
export async function guard<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof EngineInputError) throw badInput(e.message, e.expected, e.found);
    if (e instanceof EngineConfigError) throw new ErrataError("BAD_CONFIG", e.message, { expected: e.expected, found: e.found });
    if (e instanceof SyntheticSeedError) throw badInput(e.message, "--synthetic-seed N (N != 7) and --synthetic-sessions >= 1", "the values given");
    throw e;
  }
}

/** The bank's questions and the 14 v3 class questions (the embedded lane answers both). */
export const versions = (): Map<string, number> => new Map([...bank, ...v3ClassQuestions].map((q) => [q.id, q.version]));

export function loadSets(io: Io, labels: string[], exchanges: string[] | undefined): TrainingSet[] {
  if (exchanges && exchanges.length !== labels.length) throw badInput("--exchanges must pair with --labels", `${labels.length} exchanges files`, `${exchanges.length}`);
  return labels.map((l, i) => readSet(resolve(io.cwd, l), exchanges?.[i] !== undefined ? resolve(io.cwd, exchanges[i] as string) : undefined));
}

export const wholeNumber = (name: string, v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw badInput(`${name} must be a whole number`, ">= 0", v);
  return n;
};

export function defaultLabelFiles(): string[] {
  const dir = repoDatasetsDir();
  if (dir === null) return [];
  return readdirSync(dir)
    .sort()
    .map((d) => join(dir, d, "labels.jsonl"))
    .filter((p) => existsSync(p) && existsSync(join(dirname(p), "exchanges.jsonl")));
}

export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** Why the weights' capture signals look stale (the classifier changed since training), or null. */
export async function staleSignals(weights: WeightsFile, given: readonly TrainingSet[]): Promise<string | null> {
  if (!weights.features.captureSignals || !weights.signalsFingerprint) return null;
  // Synthetic training sets are regenerated from their seed (deterministic), so the check covers them.
  const sets = [...given];
  for (const t of weights.trainedOn) if (t.synthetic && !sets.some((s) => s.name === t.set)) sets.push(await syntheticTrainingSet(t.synthetic.seed, t.synthetic.sessions));
  const same = weights.trainedOn.every((t) => sets.some((s) => s.name === t.set && s.exchangesSha256 === t.exchangesSha256 && s.labelsSha256 === t.labelsSha256));
  if (!same) return null;
  const now = signalsFingerprint(trainingExchanges(sets.filter((s) => weights.trainedOn.some((t) => t.set === s.name)), !weights.split.holdoutExcluded), captureSignals);
  return now === weights.signalsFingerprint ? null : "the capture classifier's verdicts on the training data differ from when these weights were trained: retrain (see datasets/weights/NOTICE.md)";
}
