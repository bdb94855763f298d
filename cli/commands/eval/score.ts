import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { activeEstimateFromDraws, checkBars, DEFAULT_BARS, majorityVote, type ActiveDrawsResult, type InSampleNote, type PpiMethodChoice } from "../../../eval/index.js";
import type { Label } from "../../../schemas/label.js";
import { lastActiveRound } from "../../shared/eval-next.js";
import { ExchangeSchema } from "../../../schemas/exchange.js";
import { scoreDetectors } from "../../../eval/index.js";
import { EvalBarsSchema, type EvalBars } from "../../../schemas/eval-bars.js";
import { GoldItemSchema } from "../../../schemas/gold.js";
import { DETECT_UNHAPPY } from "../../../schemas/label.js";
import { PredictionSchema } from "../../../schemas/prediction.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { evalPaths, listOption, parseIntOption, parseNumberOption, pure, readJsonStrict, readJsonlStrict, resolveFrom } from "../../shared/eval-files.js";
import { printBars, printScoreReport } from "../../shared/eval-score-print.js";
import { ENGINE_DETECTORS, loadTrainingRecords } from "../../shared/eval-training.js";
import { loadLabels } from "../../shared/eval-labels.js";
import { CLASS_QUESTION } from "../../shared/eval-questions.js";
import { examples } from "../../shared/help.js";
import { printConsistency, readConsistency } from "../../shared/eval-consistency.js";
import { loadAdjudications } from "../../shared/eval-adjudication.js";

/**
 * `errata eval score [--check]`: compares detectors (prediction/1 files) on the majority
 * labels of the gold holdout, reweighted to the corpus, with paired session-block
 * intervals, each detector's coverage and strict view, and the items each detector's judge
 * was trained on (`--weights`, by default the shipped weights for v3 and v4), marked on
 * every line; `--check` judges the promotion bars (from `--bars FILE`, else `eval-bars.json`
 * in the working folder or the eval folder, else the defaults) and their coverage bar, and
 * exits 1 when one fails (a bar of an in-sample detector fails).
 *
 * Example: `errata eval score --predictions preds.jsonl --check` → a table of precision,
 * recall, F1, class accuracy and kappa per detector, coverage and the strict view, the
 * differences, then "PASS ISC-56 v4 detection recall is high: v4.recall 0.741 [0.612, 0.858]
 * (judged on the lower bound >= 0.6)".
 */
export interface ScoreFlags {
  predictions: string[];
  gold?: string;
  labels?: string[];
  detectors?: string;
  labelers?: string;
  split: string;
  detectQuestion: string;
  classQuestion: string;
  resamples?: string;
  seed?: string;
  level?: string;
  ppiDetector?: string;
  ppiLevel?: string;
  ppiMethod?: string;
  check?: boolean;
  bars?: string;
  weights?: string[];
  exchanges?: string[];
  consistency?: string;
  maxFlipRate?: string;
  adjudications?: string;
  rawGold?: boolean;
  active?: string;
  json?: boolean;
}

const SCORE_DEFAULTS = { detectQuestion: DETECT_UNHAPPY, classQuestion: CLASS_QUESTION };

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("score")
    .description("Compare detectors on the gold holdout's majority labels: weighted precision, recall, F1, class accuracy, kappa; paired session-block intervals; PPI++ failure rate; --check the bars")
    .requiredOption("--predictions <files...>", "prediction/1 JSONL files (detector, detected, class per exchange)")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--labels <files...>", "label/1 JSONL files (default: <ledger>/eval/labels.jsonl)")
    .option("--detectors <list>", "detectors in report order (default: all in the predictions)")
    .option("--labelers <list>", "labellers whose majority is gold (default: all)")
    .option("--split <side>", "holdout, fit or all", "holdout")
    .option("--detect-question <id>", "the yes/no question whose majority is the gold verdict", SCORE_DEFAULTS.detectQuestion)
    .option("--class-question <id>", "the question whose majority is the gold class", SCORE_DEFAULTS.classQuestion)
    .option("--resamples <n>", "bootstrap resamples, at least 2000 (default 2000)")
    .option("--seed <n>", "bootstrap seed (default 1)")
    .option("--level <x>", "interval level (default 0.95)")
    .option("--ppi-detector <name>", "detector for the PPI++ corpus failure rate (default v4 when present)")
    .option("--ppi-level <x>", "PPI++ interval level (default 0.9, ppi_py's default)")
    .option("--ppi-method <m>", "auto (clustered where labelled items share sessions, else plain), plain, clustered or stratified (on the PPI detector's verdict)", "auto")
    .option("--check", "judge the promotion bars; exit 1 when one fails")
    .option("--bars <file>", "bars config (eval-bars/1); default eval-bars.json here or in <ledger>/eval, else the built-in bars")
    .option("--weights <pairs...>", `DETECTOR=FILE: the engine-weights file whose trainedOn says what DETECTOR's judge was trained on (items seen are marked in-sample and fail its bars); DETECTOR=none for no record (default: ${ENGINE_DETECTORS.join(", ")} = the shipped embedded weights)`)
    .option("--exchanges <files...>", "exchange/1 files giving each gold item's corpus (to mark items of a training set recorded without item hashes as possibly in-sample) and each predicted item's session (for clustered PPI)")
    .option("--consistency <file>", "a judge-consistency/1 report (eval consistency --out): say how far the judge's own flips bound its agreement with the gold")
    .option("--max-flip-rate <x>", "with --check: a bar that the detect question's flip rate (its interval's upper bound) is at most x (overrides the bars file's consistency bar)")
    .option("--adjudications <file>", "adjudication/1 JSONL (default: <ledger>/eval/adjudications.jsonl when present): the gold is the adjudicated label where a decision is in force")
    .option("--raw-gold", "ignore the adjudications: the gold is the raw 2-of-3 majority")
    .option("--active <file>", "active-draw/1 rounds (default: <ledger>/eval/active.jsonl when present): the corpus failure rate from the active labels, with the method printed")
    .option("--json", "print one JSON value: figures, differences, labellers, PPI, training, check")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex --out regex.jsonl &&",
          "errata eval score --predictions regex.jsonl --labels datasets/ab-redial/labels.jsonl",
        ],
        [
          "errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl &&",
          "errata v4 v3 --regex-caught --exchanges datasets/ab-redial/exchanges.jsonl &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --out predictions.jsonl &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
          "errata eval score --predictions predictions.jsonl --labels datasets/ab-redial/labels.jsonl --check  # exit 1: v4 is in-sample (the shipped weights trained on 498 of these items)",
        ],
        [
          "errata datasets copy ab-redial &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex --out regex.jsonl &&",
          `echo '{"schema":"eval-bars/1","coverage":{"min":0.9},"bars":[{"id":"recall","kind":"at_least","metric":"recall","detector":"regex","value":0.05,"on":"point"}]}' > eval-bars.json &&`,
          "errata eval score --predictions regex.jsonl --labels datasets/ab-redial/labels.jsonl --check --bars eval-bars.json",
        ],
        [
          "errata datasets copy ab-redial &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex --out regex.jsonl &&",
          "errata eval consistency --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --limit 100 --out consistency.json &&",
          `echo '{"schema":"eval-bars/1","coverage":{"min":0.9},"bars":[{"id":"recall","kind":"at_least","metric":"recall","detector":"regex","value":0.05,"on":"point"}]}' > eval-bars.json &&`,
          "errata eval score --predictions regex.jsonl --labels datasets/ab-redial/labels.jsonl --check --bars eval-bars.json --consistency consistency.json --max-flip-rate 0.05",
        ],
      ]),
    )
    .action((flags: ScoreFlags) => runScore(ctx, flags));
}

function loadBars(ctx: CommandContext, file: string | undefined): { source: string; bars: EvalBars } {
  if (file) {
    const path = resolveFrom(ctx.io, file);
    return { source: path, bars: readJsonStrict(path, EvalBarsSchema, "an eval-bars/1 config") };
  }
  for (const path of [resolveFrom(ctx.io, "eval-bars.json"), evalPaths(ctx.io).bars]) {
    if (existsSync(path)) return { source: path, bars: readJsonStrict(path, EvalBarsSchema, "an eval-bars/1 config") };
  }
  return { source: "defaults", bars: DEFAULT_BARS };
}

/** Each exchange's session, from --exchanges, for the unlabelled items of clustered PPI. */
function exchangeSessions(ctx: CommandContext, files: readonly string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files ?? []) for (const x of readJsonlStrict(resolveFrom(ctx.io, f), ExchangeSchema, "exchange/1")) out.set(x.id, x.session_id);
  return out;
}

function runScore(ctx: CommandContext, flags: ScoreFlags): void {
  if (!["holdout", "fit", "all"].includes(flags.split)) throw badInput("bad --split", "holdout, fit or all", describeFound(flags.split));
  if (!flags.predictions || flags.predictions.length === 0) throw badInput("no predictions", "--predictions FILE (prediction/1 rows)", "none");
  const p = evalPaths(ctx.io);
  const goldFile = flags.gold ? resolveFrom(ctx.io, flags.gold) : p.gold;
  const gold = readJsonlStrict(goldFile, GoldItemSchema, "gold-item/1");
  const { labels } = loadLabels(ctx, flags.labels);
  if (flags.rawGold && flags.adjudications) throw badInput("--raw-gold and --adjudications", "one of them", "both");
  const adjudications = flags.rawGold ? { file: null, rows: [] } : loadAdjudications(ctx, flags.adjudications);
  const predictions = flags.predictions.flatMap((f) => readJsonlStrict(resolveFrom(ctx.io, f), PredictionSchema, "prediction/1"));
  const resamples = parseIntOption("--resamples", flags.resamples, 2000, 2000);
  const seed = parseIntOption("--seed", flags.seed, 1, 0, 2 ** 32 - 1);
  const level = parseNumberOption("--level", flags.level, 0.95, 0.5, 0.999);
  const ppiLevel = parseNumberOption("--ppi-level", flags.ppiLevel, 0.9, 0.5, 0.999);
  const detectors = listOption(flags.detectors);
  const labelers = listOption(flags.labelers);
  const names = new Set(predictions.map((x) => x.detector));
  const ppiDetector = flags.ppiDetector ?? (names.has("v4") ? "v4" : null);
  const ppiMethod = flags.ppiMethod ?? "auto";
  if (!["auto", "plain", "clustered", "stratified"].includes(ppiMethod)) throw badInput("bad --ppi-method", "auto, plain, clustered or stratified", describeFound(ppiMethod));
  const bars = flags.check ? loadBars(ctx, flags.bars) : null;
  // The consistency bar: --max-flip-rate, else the bars file's "consistency"; its report from
  // --consistency, else the bars file's "report" (beside it), else <ledger>/eval/consistency.json.
  const barFile = bars?.bars.consistency;
  if (flags.maxFlipRate !== undefined && !(flags.check && (flags.consistency || barFile))) throw badInput("--max-flip-rate needs --check and a consistency report", "--check --consistency FILE --max-flip-rate x (or a consistency bar in the bars file)", "not both given");
  const maxFlip = flags.maxFlipRate !== undefined ? parseNumberOption("--max-flip-rate", flags.maxFlipRate, 0, 0, 1) : (barFile?.max_flip_rate ?? null);
  const barSource = flags.maxFlipRate !== undefined ? "--max-flip-rate" : (bars?.source ?? "--max-flip-rate");
  const reportFile = flags.consistency ? resolveFrom(ctx.io, flags.consistency) : barFile ? (barFile.report ? resolve(bars!.source === "defaults" ? ctx.io.cwd : dirname(bars!.source), barFile.report) : join(evalPaths(ctx.io).dir, "consistency.json")) : null;
  const missingReport = maxFlip !== null && reportFile !== null && !flags.consistency && !existsSync(reportFile) ? reportFile : null;
  const consistency = reportFile && missingReport === null ? readConsistency(ctx.io, reportFile, flags.detectQuestion, maxFlip, flags.maxFlipRate !== undefined ? "upper" : (barFile?.on ?? "upper"), barSource) : null;
  const splitGold = gold.filter((g) => flags.split === "all" || g.split === flags.split).map((g) => ({ id: g.exchange_id }));
  const training = loadTrainingRecords(ctx.io, flags.weights, detectors ? new Set(detectors) : names, splitGold, flags.exchanges);
  const report = pure(() =>
    scoreDetectors(
      gold.map((g) => ({ id: g.exchange_id, session: g.session_id, weight: g.weight, split: g.split })),
      labels,
      predictions,
      {
        split: flags.split as "holdout" | "fit" | "all",
        detectQuestion: flags.detectQuestion,
        classQuestion: flags.classQuestion,
        resamples,
        seed,
        level,
        ppi: ppiDetector ? { detector: ppiDetector, alpha: 1 - ppiLevel, method: ppiMethod as PpiMethodChoice, sessionOf: exchangeSessions(ctx, flags.exchanges) } : null,
        training: training.overlaps,
        adjudications: adjudications.rows,
        ...(detectors ? { detectors } : {}),
        ...(labelers ? { labelers } : {}),
      },
    ),
  );
  const scored = report.detectors.map((d) => d.name);
  const inSample = new Map<string, InSampleNote>();
  for (const d of report.detectors) {
    if (d.inSample && d.inSample.items > 0) inSample.set(d.name, { items: d.inSample.items, of: d.inSample.of, note: `${d.name} was trained on ${d.inSample.items} of these ${d.inSample.of} items (${d.inSample.source})` });
  }
  const results = bars ? pure(() => checkBars(bars.bars.bars, report.figures, scored, { coverage: bars.bars.coverage, inSample })) : null;
  if (results && results.some((r) => !r.pass)) ctx.exitCode = 1;
  if ((consistency?.bar && !consistency.bar.pass) || missingReport !== null) ctx.exitCode = 1;
  const missingNote = missingReport === null ? null : { pass: false, reason: `no judge-consistency report at ${missingReport} (make one with: errata eval consistency --exchanges FILE --out ${missingReport})`, source: barSource };
  for (const d of report.detectors) {
    if (d.inSample && d.inSample.items > 0) ctx.io.stderr.write(`errata: warning: ${d.name} is scored in-sample: its judge was trained on ${d.inSample.items} of the ${d.inSample.of} scored items (${d.inSample.source}); every line of it is marked\n`);
    else if (d.inSample && d.inSample.possibly > 0) ctx.io.stderr.write(`errata: warning: ${d.name} may be scored in-sample: ${d.inSample.possibly} of the ${d.inSample.of} scored items are from ${d.inSample.unknownSets.join(", ")}, whose training items are unknown\n`);
  }
  const active = activeFigure(ctx, flags.active, labels, flags.detectQuestion, 1 - ppiLevel);
  if (flags.json) {
    const { figures: _figures, ...rest } = report;
    printJson(ctx.io, { gold: goldFile, adjudications: adjudications.file, ...rest, active, training: training.notes, consistency, check: results && bars ? { source: bars.source, pass: results.every((r) => r.pass) && consistency?.bar?.pass !== false && missingNote === null, coverage: bars.bars.coverage, consistency_bar: missingNote ?? consistency?.bar ?? null, bars: results } : null });
    return;
  }
  printScoreReport(ctx.io, report, training.notes);
  if (active) printActive(ctx, active);
  if (consistency) printConsistency(ctx.io, consistency);
  if (missingNote) println(ctx.io, `  FAIL consistency ${flags.detectQuestion} flip rate <= ${maxFlip}: ${missingNote.reason}; bar from ${barSource}`);
  if (results && bars) printBars(ctx.io, bars.source, results);
}


/**
 * The corpus failure rate from the active-labelling rounds, when `active.jsonl` (or --active)
 * exists: the 2-of-3 majorities of the detect question (as `eval sample --next` reads them) on
 * the rounds' draws, through `activeEstimateFromDraws`. Null without rounds.
 */
function activeFigure(ctx: CommandContext, file: string | undefined, labels: readonly Pick<Label, "exchange_id" | "question" | "value">[], question: string, alpha: number): ({ file: string } & ActiveDrawsResult) | null {
  const path = file ? resolveFrom(ctx.io, file) : evalPaths(ctx.io).active;
  if (file && !existsSync(path)) throw badInput("no such --active file", "active-draw/1 rows (errata eval sample --next K)", path);
  const rounds = lastActiveRound(path);
  if (!rounds) return null;
  const votes = new Map<string, (boolean | number | string)[]>();
  for (const l of labels) if (l.question === question) votes.set(l.exchange_id, [...(votes.get(l.exchange_id) ?? []), l.value]);
  const y = new Map<string, number>();
  for (const [id, v] of votes) {
    const m = majorityVote(v, 2);
    if (m.status === "majority" && typeof m.value === "boolean") y.set(id, m.value ? 1 : 0);
  }
  return { file: path, ...pure(() => activeEstimateFromDraws(rounds.all, y, alpha)) };
}

function printActive(ctx: CommandContext, a: { file: string } & ActiveDrawsResult): void {
  if (!a.ok) {
    println(ctx.io, `corpus failure rate by active labelling (${a.file}): not yet: ${a.reason}; label them and score again`);
    return;
  }
  println(ctx.io, `corpus failure rate by active labelling: ${a.estimate.toFixed(4)} [${a.lower.toFixed(4)}, ${a.upper.toFixed(4)}] at ${Math.round(a.level * 100)}%, ${a.labelled} items labelled of ${a.items} in ${a.rounds} round(s)`);
  println(ctx.io, `  method: ${a.method}`);
}
