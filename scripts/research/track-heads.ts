// The second half of a track (see track.ts): the Combiner's heads, ClassTier's level and its
// detector's rows, then `eval score --check` on the holdout and `promote`, which must agree.
import { join } from "node:path";
import { classTierPromptHash, classTierQuestions, verdictsFromCache } from "../../classtier/index.js";
import { ClassTierAnswerSchema, ClassTierLevelSchema } from "../../schemas/classtier.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { GoldItem } from "../../schemas/gold.js";
import { PredictionSchema } from "../../schemas/prediction.js";
import { type CliRunner, replyOf, StepError } from "./cli.js";
import { f3 } from "./fmt.js";
import { readJson, readJsonl, writeJsonl } from "./jsonl.js";
import type { Step } from "./loop.js";
import { classTierPredictions } from "./predictions.js";
import type { ClassTierAskReply, ClassTierEvalReply, CombinerEvalReply, CombinerFitReply, PromoteReply } from "./replies.js";
import { scoreStep } from "./score.js";
import { verdictOverlap } from "./summaries.js";
import type { PromoteStep, ResearchOptions, Track } from "./summary.js";

/** Where a track keeps its files (its ledger folder and its work folder). */
export interface TrackPaths {
  ledgerDir: string;
  work: string;
  v4Dir: string;
  exchanges: string;
  gold: string;
  labels: string;
  answers: string;
  predDir: string;
  /** The regex, v3 and v4 detectors' prediction/1 rows. */
  regex: string;
  v3: string;
  v4: string;
}

type Fitted = { file: string; predFile: string; fit: CombinerFitReply["combiner"]; eval: CombinerEvalReply };

export async function runHeads({ name, cli, opts, step, log, paths, exchanges, gold, cutsFile }: {
  name: string;
  cli: CliRunner;
  opts: ResearchOptions;
  step: Step;
  log: (line: string) => void;
  paths: TrackPaths;
  exchanges: readonly Exchange[];
  gold: readonly GoldItem[];
  /** The calibrated cuts. */
  cutsFile: string;
}): Promise<Pick<Track, "combiner" | "classtier" | "classtierPredictions" | "detectors" | "sameVerdicts" | "score" | "promote" | "files">> {
  const { work, v4Dir, predDir, gold: goldFile, labels: labelsFile, answers: answersFile } = paths;
  const combiner = await step(`${name}: combiner fit (fit side) and eval (holdout)`, async (): Promise<Fitted | { skipped: string }> => {
    const file = join(work, "candidates", "combiner.json");
    const common = ["--answers", answersFile, "--labels", labelsFile, "--gold", goldFile];
    const fitArgs = ["combiner", "fit", ...common, "--seed", String(opts.seed), "--out", file, "--json"];
    const fit = await cli.call(fitArgs, { allowed: [0, 2] });
    if (fit.code === 2) {
      // The one refusal that is about the data, not a fault: too little to fit either head on.
      if (!fit.err.includes("nothing to fit")) throw new StepError("STEP_EXIT", `combiner fit exited 2`, { out: fit.out, err: fit.err });
      const reason = fit.err.replace(/^errata: /, "").trim();
      log(`  the Combiner cannot be fitted on this gold set: ${reason}`);
      log("  (it is left out of the score and of promote; ClassTier's second look reads v4's verdicts instead)");
      return { skipped: reason };
    }
    const predFile = join(predDir, "combiner.jsonl");
    const ev = await cli.json<CombinerEvalReply>(["combiner", "eval", ...common, "--model", file, "--predictions", predFile, "--json"]);
    const c = replyOf<CombinerFitReply>(fit, fitArgs).combiner;
    log(`  detect head: ${c.detect ? `L2 ${c.detect.l2}, cut ${f3(c.detect.cut)}` : "not fitted"}; class head: ${c.class ? `${c.class.classes.length} classes, L2 ${c.class.l2}` : "not fitted"}${c.notes.length ? ` (${c.notes.join("; ")})` : ""}`);
    log(`  holdout: ${ev.value.items} items; detect log loss ${f3(ev.value.detect?.log_loss)}, Brier ${f3(ev.value.detect?.brier)}, ECE ${f3(ev.value.detect?.ece)}${ev.value.class ? `; class accuracy given a gold failure ${f3(ev.value.class.accuracy_given_gold_failure)} (${ev.value.class.n})` : ""}`);
    return { file, predFile, fit: c, eval: ev.value };
  });
  const fitted = "skipped" in combiner ? null : combiner;
  // What ClassTier's second look and the classtier detector read as "the detector".
  const detector = fitted === null ? { name: "v4", file: paths.v4 } : { name: "combiner", file: fitted.predFile };
  const goldIds = new Set(gold.map((g) => g.exchange_id));

  const classtier = await step(`${name}: classtier ask + eval --write (fit side)`, async () => {
    const goldExFile = writeJsonl(join(work, "classtier", "gold-exchanges.jsonl"), exchanges.filter((e) => goldIds.has(e.id)));
    // Exit 1: every answer unscored (the embedded lane holds no class-tier weights); its counts say so and the page reports them.
    const ask = await cli.json<ClassTierAskReply>(["classtier", "ask", "--exchanges", goldExFile, "--json"], { allowed: [0, 1] });
    log(`  classtier ask: ${JSON.stringify(ask.value.verdicts)} over ${ask.value.exchanges} gold exchanges on the ${ask.value.lane} lane (${ask.value.model}), cached in ${cli.shown(ask.value.cache)}`);
    const ev = await cli.json<ClassTierEvalReply>(["classtier", "eval", "--labels", labelsFile, "--gold", goldFile, "--answers", answersFile, ...(fitted === null ? [] : ["--combiner", fitted.file]), "--predictions", detector.file, "--detector", detector.name, "--write", "--json"]);
    const rec = ev.value.record;
    log(`  level ${rec.level}, second look ${rec.second_look ? "on" : "off"}: ${rec.reasons.join("; ")}`);
    return { ask: ask.value, record: rec };
  });
  const levelFile = join(v4Dir, "classtier-level.json");
  const cache = readJsonl(join(v4Dir, "classtier.jsonl"), ClassTierAnswerSchema).map((r) => ({ prompt_hash: r.prompt_hash, answer: r.answer }));
  const verdicts = verdictsFromCache(cache, { questions: classTierQuestions, promptHash: classTierPromptHash });
  const ctPred = classTierPredictions({ detectorRows: readJsonl(detector.file, PredictionSchema).filter((p) => goldIds.has(p.exchange_id)), verdicts, level: readJson(levelFile, ClassTierLevelSchema) });
  const ctFile = writeJsonl(join(predDir, "classtier.jsonl"), ctPred.rows);

  const predictionFiles = fitted === null ? [paths.regex, paths.v3, paths.v4, ctFile] : [paths.regex, paths.v3, paths.v4, fitted.predFile, ctFile];
  const predictionSets = predictionFiles.map((f) => readJsonl(f, PredictionSchema));
  const detectors = predictionSets.map((rows) => rows[0]?.detector ?? "?");
  const sameVerdicts = verdictOverlap(predictionSets, gold);
  const score = await step(`${name}: eval score --check on the holdout`, () => scoreStep({ cli, opts, goldFile, labelsFile, predictionFiles, detectors, log }));
  const promote = await step(`${name}: promote`, async (): Promise<PromoteStep> => {
    const args = ["promote", "--predictions", ...predictionFiles, "--cuts", cutsFile, ...(fitted === null ? [] : ["--combiner", fitted.file]), "--classtier-level", levelFile, "--seed", String(opts.seed), "--resamples", String(opts.resamples)];
    const r = await cli.json<PromoteReply>([...args, "--json"], { allowed: [0, 1] });
    const text = await cli.call([...args, "--dry-run"], { allowed: [0, 1], quiet: true });
    const out: PromoteStep = { exitCode: r.code, matchesCheck: r.code === score.exitCode, value: r.value, text: (text.out + text.err).trim() };
    log(`  promote exited ${r.code} (${r.code === 0 ? "promoted: wrote promoted.json" : "refused: wrote nothing"}); eval score --check exited ${score.exitCode}: ${out.matchesCheck ? "they agree" : "THEY DISAGREE"}`);
    for (const line of out.text.split("\n").slice(0, 12)) log(`    ${line}`);
    if (!out.matchesCheck) throw new StepError("INCONSISTENT", `promote's exit code differs from eval score --check's on the same holdout (expected ${score.exitCode}, found ${r.code})`);
    return out;
  });
  return {
    combiner: "skipped" in combiner ? { skipped: combiner.skipped } : { fit: combiner.fit, eval: combiner.eval },
    classtier,
    classtierPredictions: ctPred.counts,
    detectors,
    sameVerdicts,
    score,
    promote,
    files: { ledger: paths.ledgerDir, exchanges: paths.exchanges, gold: goldFile, labels: labelsFile, predictions: predictionFiles, cuts: cutsFile, combiner: fitted === null ? null : fitted.file, classtierLevel: levelFile, brief: join(work, "brief.md"), promoted: join(paths.ledgerDir, "promoted.json"), returned: join(work, "returned") },
  };
}
