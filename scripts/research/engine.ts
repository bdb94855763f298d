// Step 2 of the research loop: the judge's engine.
//
// Default ("train"): the sessions are split in two by a salted hash of the session id
// (`errata-research-engine/1`, independent of eval's fit/holdout split): the embedded lane is
// trained on one part, and the research loop (gold set, labels, cuts, heads, score) runs on
// the other, so the judge has never seen a gold item, the cuts and heads are fitted on answers
// it gives to unseen exchanges, and the holdout is clean. The trainer is
// `trainEmbedded` from runtime/engine/embedded/train.ts (the function `errata engine train` runs), called in
// process because the CLI trains the bank's 26 questions only, and the v3 judge (14
// `class.*` questions) and the ClassTier judge (14 `classtier.*` questions) need weights
// too to answer offline. The weights go to $DIR/engine/weights.json and each track's ledger
// gets an errata-engine.json naming them as the lane "research", so every `errata` command
// (v4, engine ask) uses them.
//
// "shipped": the weights in datasets/weights/embedded.json. They were trained on 80% of the
// sessions of the sets they list (`holdout/1`), so the loop keeps only the sessions that split
// held out, in every corpus; scoring on trained-on sessions would flatter the judge.
//
// Training labels (engine part only): the AB-ReDial raters' detect.unhappy (the synthetic
// plan's detect.unhappy only when no human label exists: like the shipped weights, the judge
// of a person's reaction learns from people), plus what the synthetic plan states about modes
// and classes, the only labels of those there are: the planted mode is yes and the other 14 are no;
// for a planted failure, `class.<c>` (which presumes a failure) is yes for the planted
// mode's class and no for the others; `classtier.<c>` (which does not) likewise on every
// synthetic exchange. AB-ReDial has no class or mode labels, so those questions learn from
// synthetic exchanges only.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { classTierQuestions } from "../../classtier/index.js";
import { ErrataError } from "../../core/errors.js";
import type { EngineFileSchema } from "../../runtime/engine/config.js";
import { shippedWeightsPath } from "../../runtime/engine/embedded/shipped.js";
import { loadCaptureSignals } from "../../runtime/engine/embedded/signals.js";
import { isHoldout, SPLIT_METHOD } from "../../runtime/engine/embedded/split.js";
import { trainEmbedded } from "../../runtime/engine/embedded/train.js";
import { parseWeights, serialiseWeights, weightsId } from "../../runtime/engine/embedded/weights.js";
import type { WeightsFile } from "../../runtime/engine/base/schemas.js";
import { bank, CLASS_IDS, type FailureMode, modes, v3ClassQuestions } from "../../questions/index.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Label } from "../../schemas/label.js";
import type { Question } from "../../schemas/question.js";
import { sha256File, writeJsonl } from "./jsonl.js";
import type { EngineSummary } from "./summary.js";

/** The engine the tracks ask: trained here (with the ledger config naming its weights) or the shipped weights (with the sessions they held out). */
export type TrainedEngine = Extract<EngineSummary, { mode: "train" }> & { config: z.input<typeof EngineFileSchema> };
export type ShippedEngine = Extract<EngineSummary, { mode: "shipped" }> & { keep: (e: Exchange) => boolean };
export type LoopEngine = TrainedEngine | ShippedEngine;

export function planCompletedLabels({ exchanges, labels, modes, classIds }: {
  exchanges: readonly Exchange[];
  labels: readonly Label[];
  modes: readonly Pick<FailureMode, "id" | "class_id">[];
  classIds: readonly string[];
}): Label[] {
  const classOfMode = new Map<string, string>(modes.map((m) => [m.id, m.class_id]));
  const planted = new Map<string, string>();
  const failure = new Map<string, boolean>();
  for (const l of labels) {
    if (l.labeler !== "synthetic:plan") continue;
    if (l.question === "detect.unhappy") failure.set(l.exchange_id, l.value === true);
    if (l.question.startsWith("mode.") && l.value === true) planted.set(l.exchange_id, l.question.slice(5));
  }
  const out: Label[] = [];
  // Only what the plan leaves unsaid: a newer generator writes these labels itself.
  const said = new Set(labels.filter((l) => l.labeler === "synthetic:plan").map((l) => `${l.exchange_id}\u0000${l.question}`));
  const add = (id: string, question: string, value: boolean): void => {
    if (!said.has(`${id}\u0000${question}`)) out.push({ schema: "label/1", exchange_id: id, labeler: "synthetic:plan", question, value, origin: "research:plan-completed" });
  };
  for (const e of exchanges) {
    if (e.corpus !== "synthetic" || !failure.has(e.id)) continue;
    const mode = planted.get(e.id) ?? null;
    const cls = mode ? classOfMode.get(mode) : null;
    for (const m of modes) if (m.id !== mode) add(e.id, `mode.${m.id}`, false);
    for (const c of classIds) {
      if (failure.get(e.id) && cls) add(e.id, `class.${c}`, c === cls);
      add(e.id, `classtier.${c}`, c === cls);
    }
  }
  return out;
}

export async function trainFitEngine({ exchanges, labels, work, log }: {
  exchanges: readonly Exchange[];
  labels: readonly Label[];
  work: string;
  log: (line: string) => void;
}): Promise<TrainedEngine> {
  const ids = new Set(exchanges.map((e) => e.id));
  const corpusOf = new Map(exchanges.map((e) => [e.id, e.corpus]));
  const boolean = labels.filter((l) => ids.has(l.exchange_id) && typeof l.value === "boolean");
  // detect.unhappy learns from people's labels only, as the shipped weights do: the synthetic
  // sessions' templated reactions would teach the judge the generator, not the person.
  const human = boolean.some((l) => l.question === "detect.unhappy" && corpusOf.get(l.exchange_id) !== "synthetic");
  const fromImporters = human ? boolean.filter((l) => !(l.question === "detect.unhappy" && corpusOf.get(l.exchange_id) === "synthetic")) : boolean;
  const completed = planCompletedLabels({ exchanges, labels: boolean, modes, classIds: CLASS_IDS });
  const trainingLabels = [...fromImporters, ...completed];
  const exFile = writeJsonl(join(work, "training-exchanges.jsonl"), exchanges);
  const labFile = writeJsonl(join(work, "training-labels.jsonl"), trainingLabels);
  log(`  training: ${exchanges.length} exchanges in ${new Set(exchanges.map((e) => e.session_id)).size} sessions; ${fromImporters.length} importer labels + ${completed.length} stated by the synthetic plan`);
  log(human ? "  detect.unhappy learns from human labels only (the synthetic plan's detect.unhappy is left out of training)" : "  no human detect.unhappy labels: detect.unhappy learns from the synthetic plan (SYNTHETIC figures only)");
  const questions = [...bank, ...v3ClassQuestions, ...classTierQuestions];
  const versions = new Map(questions.map((q) => [q.id, q.version]));
  const signals = await loadCaptureSignals();
  const weights = trainEmbedded(
    [{ name: "research-engine-part", exchanges, labels: trainingLabels, exchangesSha256: sha256File(exFile), labelsSha256: sha256File(labFile) }],
    { versions, l2: "cv", signals, includeHoldout: true },
  );
  const file = join(work, "weights.json");
  writeFileSync(file, serialiseWeights(weights));
  const model = weightsId(weights);
  const trained = Object.keys(weights.questions).sort();
  const skipped = Object.entries(weights.skipped);
  const group = (prefix: string): number => trained.filter((k) => k.startsWith(prefix)).length;
  log(`  trained ${model}: ${trained.length} questions (detect ${group("detect.")}, blame ${group("blame.")}, mode ${group("mode.")}, cost ${group("cost.")}, v3 class ${group("class.")}, ClassTier ${group("classtier.")}); capture signals ${weights.features.captureSignals ? "on" : "OFF (classifier not built)"}`);
  const untrained = questions.map((q) => `${q.id}@${q.version}`).filter((k) => !trained.includes(k));
  const noLabels = untrained.filter((k) => !(k in weights.skipped));
  if (noLabels.length > 0) log(`  no labels at all (answers will be unscored): ${noLabels.join(", ")}`);
  if (skipped.length > 0) log(`  skipped for too few labels (fewer than 5 majority-yes or majority-no items): ${skipped.map(([k]) => k).join(", ")}`);
  const config: TrainedEngine["config"] = { schema: "engine-config/1", lane: "research", lanes: { research: { kind: "embedded", weights: file } } };
  return { mode: "train", config, file, model, cuts: trainedCuts(weights, [...bank, ...v3ClassQuestions]), trained, skipped: Object.fromEntries(skipped), noLabels, captureSignals: weights.features.captureSignals, trainingExchanges: exchanges.length, trainingLabels: trainingLabels.length, detectFromHumans: human };
}

/** The salt of the engine/research partition of sessions (see the header). */
export const ENGINE_SALT = "errata-research-engine/1";

/**
 * The shipped weights, and a filter that keeps only the sessions the engine held out
 * (`holdout/1`) in every corpus: conservative, whatever names the weights list their sets by.
 */
export function shippedEngine({ log }: { log: (line: string) => void }): ShippedEngine {
  const path = shippedWeightsPath();
  if (path === null) throw new ErrataError("NOT_FOUND", "--engine shipped: no datasets/weights/embedded.json in this checkout (train with `errata engine train` or use --engine train)");
  const w = parseWeights(readFileSync(path, "utf8"));
  const sets = w.trainedOn.map((t) => t.set);
  if (w.split.holdoutExcluded !== true) throw new ErrataError("BAD_INPUT", `--engine shipped: ${path} was trained on every session (--include-holdout): no session is left to score it on honestly`, { expected: "weights trained with the holdout excluded", found: "split.holdoutExcluded false" });
  const keep = (e: Exchange): boolean => isHoldout(e.corpus, e.session_id);
  log(`  shipped weights ${path}: trained on ${sets.join(", ") || "nothing listed"}; keeping only the sessions their training held out (${SPLIT_METHOD})`);
  return { mode: "shipped", file: path, model: weightsId(w), cuts: trainedCuts(w, [...bank, ...v3ClassQuestions]), keep, trainedOn: sets, trained: Object.keys(w.questions).sort(), skipped: w.skipped };
}

/**
 * The cut each trained question carries (the kappa cut on its own training items), for the
 * bank and v3 questions: what the v4 pass composes with before any blind label exists, so
 * diagnose reaches the engine's failures and the gold draw's strata mean something. The
 * calibrated cuts replace them once the labels are in.
 *
 * Example: trainedCuts({questions: {"detect.unhappy@1": {cut: 0.21, ...}}}, bank) -> {"detect.unhappy": 0.21}
 */
export function trainedCuts(weights: Pick<WeightsFile, "questions">, questions: readonly Pick<Question, "id" | "version">[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of questions) {
    const w = weights.questions[`${q.id}@${q.version}`];
    if (w && typeof w.cut === "number" && w.cut >= 0 && w.cut <= 1) out[q.id] = w.cut;
  }
  return out;
}
