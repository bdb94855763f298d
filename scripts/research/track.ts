// One track of the research loop: one corpus in its own ledger folder, from the v4 pass to
// promote. Each track draws its own gold set, so the cuts are calibrated on its own fit
// side and a judge is promoted (or not) on the evidence of one population: mixing an easy
// synthetic set with human-labelled dialogues would let the synthetic figures carry the bars.
// The Combiner, ClassTier, score and promote steps are in track-heads.ts.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bank, modes } from "../../questions/index.js";
import type { Exchange } from "../../schemas/exchange.js";
import { GoldItemSchema } from "../../schemas/gold.js";
import type { Label } from "../../schemas/label.js";
import { cliRunner, StepError } from "./cli.js";
import type { LoopEngine } from "./engine.js";
import { f3 } from "./fmt.js";
import { readJsonl, writeJson, writeJsonl } from "./jsonl.js";
import type { Step } from "./loop.js";
import type { AgreementReply, CutsReply, DocReply, LabelExportReply, LabelImportReply, PredictionsReply, SampleReply, V4ReportReply, V4StageReply } from "./replies.js";
import { fillSheet, raterIndex, sheetQuestions } from "./sheets.js";
import { hasKappaCut, summariseReport, summariseSample } from "./summaries.js";
import type { ResearchOptions, SheetCounts, StageCounts, Track } from "./summary.js";
import { runHeads, type TrackPaths } from "./track-heads.js";

export const LABELERS = ["rater1", "rater2", "rater3"] as const;

const V4_STAGES = ["detect", "diagnose", "v3"] as const;


export async function runTrack({ name, exchanges, labels, engine, opts, repoRoot, root, log, env, step, commands }: {
  name: string;
  exchanges: readonly Exchange[];
  labels: readonly Label[];
  engine: LoopEngine;
  opts: ResearchOptions;
  repoRoot: string;
  /** The loop's folder; this track's is <root>/<name>. */
  root: string;
  log: (line: string) => void;
  env: Record<string, string | undefined>;
  step: Step;
  commands: string[];
}): Promise<Track> {
  const dir = join(root, name);
  const ledgerDir = join(dir, "ledger");
  const work = join(dir, "work");
  const evalDir = join(ledgerDir, "eval");
  const v4Dir = join(ledgerDir, "v4");
  const cli = cliRunner({ repoRoot, dir: root, cwd: dir, ledgerDir, log, env, commands });
  if (engine.mode === "train") writeJson(join(ledgerDir, "errata-engine.json"), engine.config);
  const exchangesFile = writeJsonl(join(work, "exchanges.jsonl"), exchanges);
  const labelsFile0 = writeJsonl(join(work, "importer-labels.jsonl"), labels);
  const corpusOf = new Map(exchanges.map((e) => [e.id, e.corpus]));
  const predDir = join(work, "predictions");
  const paths: TrackPaths = {
    ledgerDir,
    work,
    v4Dir,
    exchanges: exchangesFile,
    gold: join(evalDir, "gold.jsonl"),
    labels: join(evalDir, "labels.jsonl"),
    answers: join(v4Dir, "answers.jsonl"),
    predDir,
    regex: join(predDir, "regex.jsonl"),
    v3: join(predDir, "v3.jsonl"),
    v4: join(predDir, "v4.jsonl"),
  };
  const { gold: goldFile, labels: labelsFile, answers: answersFile } = paths;
  // Before any blind label: compose with the cuts the engine learnt in training.
  const engineCuts = writeJson(join(work, "engine-cuts.json"), { cuts: engine.cuts });

  const v4pass = await step(`${name}: v4 pass (shadow): detect, diagnose, v3, report`, async () => {
    log(`  composing with the engine's trained cuts (${Object.entries(engine.cuts).filter(([k]) => k.startsWith("detect.")).map(([k, v]) => `${k} ${f3(v)}`).join(", ") || "none"}) until the calibrated ones exist`);
    const out: Partial<Record<(typeof V4_STAGES)[number], StageCounts>> = {};
    for (const stage of V4_STAGES) {
      // Exit 1 is a stage that did nothing useful (every answer unscored, e.g. v3 on a lane without class weights): reported by its counts.
      const r = await cli.json<V4StageReply>(["v4", stage, "--exchanges", exchangesFile, "--cuts", engineCuts, "--json"], { allowed: [0, 1] });
      out[stage] = { eligible: r.value.eligible, asked: r.value.asked, scored: r.value.scored, unscored: r.value.unscored, judge: r.value.judge };
      log(`    ${stage}: ${r.value.eligible} eligible exchanges, asked ${r.value.asked}, scored ${r.value.scored}, unscored ${r.value.unscored} (${r.value.judge.lane}/${r.value.judge.model})`);
    }
    const again = await cli.json<V4StageReply>(["v4", "detect", "--exchanges", exchangesFile, "--json"], { quiet: true });
    if (again.value.asked !== 0) throw new StepError("INCONSISTENT", `a second v4 detect asked ${again.value.asked} questions: it must ask nothing new`);
    log(`    a second v4 detect asked nothing new (${again.value.already_answered} already answered)`);
    const rep = await cli.json<V4ReportReply>(["v4", "report", "--exchanges", exchangesFile, "--labels", labelsFile0, "--cuts", engineCuts, "--json"]);
    const { detect, diagnose, v3 } = out;
    if (!detect || !diagnose || !v3) throw new StepError("INCONSISTENT", "a v4 stage printed no counts");
    return { detect, diagnose, v3, report: summariseReport(rep.value, log) };
  });
  const judge = v4pass.detect.judge;

  // Whose stored answers v3 and v4 compose: the judge the v4 pass ran (explicit, not "most answers").
  const judgeArgs = ["--lane", judge.lane, "--model", judge.model];
  const regex = await step(`${name}: capture classifier (regex) over every exchange; v3 class questions of what it caught`, async () => {
    const r = await cli.json<PredictionsReply>(["eval", "predictions", "--exchanges", exchangesFile, "--detectors", "regex", "--out", paths.regex, "--json"]);
    const counts = r.value.counts.regex;
    if (!counts) throw new StepError("INCONSISTENT", "eval predictions --detectors regex printed no regex counts");
    log(`  regex flagged ${counts.flagged} of ${exchanges.length} exchanges (${counts.skip} skipped as not typed)`);
    const a = await cli.json<V4StageReply>(["v4", "v3", "--exchanges", exchangesFile, "--cuts", engineCuts, "--regex-caught", "--json"], { allowed: [0, 1] });
    log(`  v4 v3 --regex-caught: ${a.value.eligible} eligible (composed failures and what the regex caught), asked ${a.value.asked} new, ${a.value.unscored} unscored`);
    return { counts };
  });

  const sampleReply = await step(`${name}: eval sample: the gold set`, async () =>
    (await cli.json<SampleReply>(["eval", "sample", "--exchanges", exchangesFile, "--cuts", engineCuts, "--items", String(opts.items), "--failure-items", String(opts.failureItems), "--per-session", String(opts.perSession), "--seed", String(opts.seed), "--holdout-share", String(opts.holdoutShare), "--monte-carlo", String(opts.monteCarlo), "--json"])).value,
  );
  const gold = readJsonl(goldFile, GoldItemSchema);
  const sample = summariseSample(sampleReply, gold, log);

  await step(`${name}: eval brief: the labellers' brief`, async () => {
    const r = await cli.json<DocReply>(["eval", "brief", "--out", join(work, "brief.md"), "--json"]);
    log(`  ${r.value.bytes} bytes written to ${r.value.out === null ? "stdout" : cli.shown(r.value.out)}`);
  });

  const bankIds = bank.map((q) => q.id);
  const questions = sheetQuestions(bankIds).join(",");
  const sheets = await step(`${name}: eval label export / import: ${LABELERS.join(", ")} (sheets filled from the importers' rater labels)`, async () => {
    const index = raterIndex(labels);
    const classOfMode = new Map<string, string>(modes.map((m) => [m.id, m.class_id]));
    const out: Record<string, SheetCounts> = {};
    mkdirSync(join(work, "returned"), { recursive: true });
    for (const [k, l] of LABELERS.entries()) {
      const sheet = join(evalDir, "sheets", `${l}.csv`);
      await cli.json<LabelExportReply>(["eval", "label", "export", "--labeler", l, "--exchanges", exchangesFile, "--questions", questions, "--out", sheet, "--json"]);
      const filled = fillSheet(readFileSync(sheet, "utf8"), k, { index, corpusOf, bankIds, classOfMode });
      const back = join(work, "returned", `${l}.csv`);
      writeFileSync(back, filled.csv);
      const r = await cli.json<LabelImportReply>(["eval", "label", "import", back, "--labeler", l, "--questions", questions, "--json"]);
      if (r.value.imported !== filled.answers) throw new StepError("INCONSISTENT", `${l}: imported ${r.value.imported} labels, the sheet holds ${filled.answers} answers`);
      out[l] = { rows: filled.rows, answers: filled.answers, imported: r.value.imported, blankRows: filled.blankRows };
      log(`    ${l}: ${filled.rows} rows, ${r.value.imported} answers imported (= the answers written into the sheet), ${filled.blankRows} rows left empty with a note`);
    }
    return out;
  });

  const agreement = await step(`${name}: eval agreement`, async () => {
    const qs = name === "ab-redial" ? "detect.unhappy,satisfaction" : "detect.unhappy,class";
    const r = await cli.json<AgreementReply>(["eval", "agreement", "--labels", labelsFile, "--gold", goldFile, "--questions", qs, "--seed", String(opts.seed), "--resamples", String(opts.resamples), "--json"]);
    for (const q of r.value.questions) log(`  ${q.question}: Fleiss ${f3(q.fleiss_fixed.value)} [${f3(q.fleiss_fixed.lower)}, ${f3(q.fleiss_fixed.upper)}] over ${q.items} items; majority ${q.majority.majority}, ties ${q.majority.tie}`);
    if (name === "synthetic") log("  (synthetic: the three sheets carry the generator's plan, one source: they agree by construction)");
    return r.value;
  });

  const cuts = await step(`${name}: calibrate cuts (fit side), diagnose under them, calibrate again`, async () => {
    // Two passes: the mode cuts can only be learnt once diagnose has asked the modes of the
    // exchanges the calibrated detect cut makes failures; detect's answers do not change, so
    // the second pass keeps its cut and adds the modes'.
    let last: { file: string; candidate: CutsReply["candidate"] } | null = null;
    for (const pass of [1, 2]) {
      const file = join(work, "candidates", pass === 1 ? "cuts-pass1.json" : "cuts.json");
      const candidate = (await cli.json<CutsReply>(["calibrate", "cuts", "--answers", answersFile, "--labels", labelsFile, "--gold", goldFile, "--out", file, "--json"])).value.candidate;
      const chosen = candidate.questions.filter(hasKappaCut);
      log(`  pass ${pass}: ${Object.keys(candidate.cuts).length} cuts (rule ${candidate.rule}): ${chosen.filter((q) => q.question.startsWith("detect.")).map((q) => `${q.question} ${f3(q.kappa_cut.cut)} (fit kappa ${f3(q.kappa_cut.kappa)})`).join(", ")}${chosen.some((q) => q.question.startsWith("mode.")) ? `; ${chosen.filter((q) => q.question.startsWith("mode.")).length} mode cuts` : ""}`);
      for (const stage of ["diagnose", "v3"]) {
        const a = await cli.json<V4StageReply>(["v4", stage, "--exchanges", exchangesFile, "--cuts", file, "--json"], { allowed: [0, 1] });
        log(`    ${stage} under these cuts: ${a.value.eligible} eligible, asked ${a.value.asked} new`);
      }
      last = { file, candidate };
    }
    if (last === null) throw new StepError("INCONSISTENT", "calibrate cuts ran no pass");
    return last;
  });
  // v3 and v4 under the calibrated cuts, through `errata eval predictions` (runtime/jobs/v4/predictions.ts).
  const counts = async (d: "v3" | "v4", file: string): Promise<PredictionsReply["counts"]> =>
    (await cli.json<PredictionsReply>(["eval", "predictions", "--exchanges", exchangesFile, "--cuts", cuts.file, "--detectors", d, ...judgeArgs, "--out", file, "--json"])).value.counts;
  const v3 = (await counts("v3", paths.v3)).v3;
  const v4 = (await counts("v4", paths.v4)).v4;
  if (!v3 || !v4) throw new StepError("INCONSISTENT", "eval predictions printed no v3 or v4 counts");
  const composed = { v3, v4 };
  log(`  v4 under the cuts: ${composed.v4.detected} failures (${composed.v4.class_named} with a class), ${composed.v4.unscored} unscored; v3: ${composed.v3.detected} caught, ${composed.v3.class_named} with a class`);

  const heads = await runHeads({ name, cli, opts, step, log, paths, exchanges, gold, cutsFile: cuts.file });
  return {
    corpus: name,
    v4pass,
    regex: regex.counts,
    sample,
    labels: sheets,
    agreement,
    cuts: cuts.candidate,
    composed,
    ...heads,
  };
}
