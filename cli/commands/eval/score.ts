import { existsSync } from "node:fs";
import type { Command } from "commander";
import { checkBars, DEFAULT_BARS, type BarResult } from "../../../eval/index.js";
import { METRICS } from "../../../eval/index.js";
import { scoreDetectors, type ScoreReport } from "../../../eval/index.js";
import { EvalBarsSchema, type EvalBars } from "../../../schemas/eval-bars.js";
import { GoldItemSchema } from "../../../schemas/gold.js";
import { DETECT_UNHAPPY } from "../../../schemas/label.js";
import { PredictionSchema } from "../../../schemas/prediction.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { evalPaths, listOption, parseIntOption, parseNumberOption, pure, readJsonStrict, readJsonlStrict, resolveFrom } from "../../shared/eval-files.js";
import { fmt, pad, withInterval } from "../../shared/eval-format.js";
import { loadLabels } from "../../shared/eval-labels.js";
import { CLASS_QUESTION } from "../../shared/eval-questions.js";
import { examples } from "../../shared/help.js";

/**
 * `errata eval score [--check]`: compares detectors (prediction/1 files) on the majority
 * labels of the gold holdout, reweighted to the corpus, with paired session-block
 * intervals; `--check` judges the promotion bars (from `--bars FILE`, else `eval-bars.json`
 * in the working folder or the eval folder, else the defaults) and exits 1 when one fails.
 *
 * Example: `errata eval score --predictions preds.jsonl --check` → a table of precision,
 * recall, F1, class accuracy and kappa per detector, the differences, then
 * "PASS ISC-56 v4 detection recall is high: v4.recall 0.741 [0.612, 0.858] (point >= 0.6)".
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
  check?: boolean;
  bars?: string;
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
    .option("--check", "judge the promotion bars; exit 1 when one fails")
    .option("--bars <file>", "bars config (eval-bars/1); default eval-bars.json here or in <ledger>/eval, else the built-in bars")
    .option("--json", "print one JSON value: figures, differences, labellers, PPI, check")
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
          "errata eval score --predictions predictions.jsonl --labels datasets/ab-redial/labels.jsonl --check  # exit 1: a bar fails",
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

function printReport(ctx: CommandContext, r: ScoreReport): void {
  const b = r.bootstrap;
  println(ctx.io, `${r.split} split: ${r.items} gold items, ${r.scored} with a majority verdict (${r.noMajority} ties or too few labels left out), ${r.goldFailures} gold failures; corpus weights sum ${r.weightSum.toFixed(1)}`);
  println(ctx.io, `intervals: ${b.method}, paired across detectors, ${b.resamples} resamples, seed ${b.seed}, level ${b.level}, ${b.sessions} sessions`);
  const head = ["detector", "scored", ...METRICS.map((m) => (m === "classAccuracy" ? "class | detected" : m === "kappa" ? "kappa vs majority" : m))];
  const w = [10, 8, 24, 24, 24, 24, 24];
  println(ctx.io, head.map((h, i) => pad(h, w[i] ?? 10)).join(""));
  for (const d of r.detectors) {
    const cells = [d.name, String(d.scored), ...METRICS.map((m) => withInterval(d.figures[m].point, d.figures[m].lower, d.figures[m].upper))];
    println(ctx.io, cells.map((c, i) => pad(c, w[i] ?? 10)).join(""));
  }
  for (const d of r.detectors) {
    const notes = [
      d.unscoredDetection ? `${d.unscoredDetection} unscored (left out, never "no")` : "",
      d.unscoredClass ? `${d.unscoredClass} detected without a class` : "",
      ...METRICS.filter((m) => d.figures[m].emptyReplicates > 0).map((m) => `${m}: ${d.figures[m].emptyReplicates} replicates with an empty denominator`),
    ].filter(Boolean);
    if (notes.length) println(ctx.io, `  ${d.name}: ${notes.join("; ")}`);
  }
  if (r.differences.length) println(ctx.io, "differences (paired, same resamples):");
  const pairs = [...new Set(r.differences.map((d) => `${d.a}\t${d.b}`))];
  for (const pair of pairs) {
    const [a, c] = pair.split("\t");
    const ds = r.differences.filter((d) => d.a === a && d.b === c);
    println(ctx.io, `  ${a} - ${c}: ${ds.map((d) => `${d.metric} ${withInterval(d.point, d.lower, d.upper, 3, true)}`).join("; ")}`);
  }
  const lab = r.labellers.detect;
  if (lab) {
    const cohen = lab.cohen.map((c) => `${c.a}/${c.b} ${fmt(c.value)}`).join(", ");
    println(ctx.io, `labellers on the same items (${lab.question}): Fleiss ${withInterval(lab.fleissFixed.value ?? lab.fleissVariable.value, lab.fleissFixed.value === null ? lab.fleissVariable.lower : lab.fleissFixed.lower, lab.fleissFixed.value === null ? lab.fleissVariable.upper : lab.fleissFixed.upper)}; Cohen ${cohen || "—"}`);
  }
  if (r.labellers.class) println(ctx.io, `labellers on class (gold failures): Fleiss ${fmt(r.labellers.class.fleissVariable.value)}`);
  if (r.ppi) {
    const p = r.ppi;
    println(ctx.io, `corpus failure rate (PPI++ with ${p.detector}, ${Math.round(p.level * 100)}% interval): ${withInterval(p.estimate, p.lower, p.upper, 4)} (lambda ${p.lambda.toFixed(3)}; ${p.labelled} labelled, ${p.unlabelled} unlabelled)`);
  }
}

function printBars(ctx: CommandContext, source: string, results: BarResult[]): void {
  println(ctx.io, `check (bars: ${source}):`);
  for (const b of results) {
    const rule = b.rule === "lower" ? `lower bound ${b.name.includes("-") ? ">" : ">="} ${b.threshold}` : `point ${b.name.includes("-") ? ">" : ">="} ${b.threshold}`;
    const fig = withInterval(b.figure, b.lower, b.upper, 3, b.name.includes("-"));
    println(ctx.io, `  ${b.pass ? "PASS" : "FAIL"} ${b.id} ${b.description}: ${b.name} ${fig} (${rule})${b.reason ? ` — ${b.reason}` : ""}`);
  }
}

function runScore(ctx: CommandContext, flags: ScoreFlags): void {
  if (!["holdout", "fit", "all"].includes(flags.split)) throw badInput("bad --split", "holdout, fit or all", describeFound(flags.split));
  if (!flags.predictions || flags.predictions.length === 0) throw badInput("no predictions", "--predictions FILE (prediction/1 rows)", "none");
  const p = evalPaths(ctx.io);
  const goldFile = flags.gold ? resolveFrom(ctx.io, flags.gold) : p.gold;
  const gold = readJsonlStrict(goldFile, GoldItemSchema, "gold-item/1");
  const { labels } = loadLabels(ctx, flags.labels);
  const predictions = flags.predictions.flatMap((f) => readJsonlStrict(resolveFrom(ctx.io, f), PredictionSchema, "prediction/1"));
  const resamples = parseIntOption("--resamples", flags.resamples, 2000, 2000);
  const seed = parseIntOption("--seed", flags.seed, 1, 0, 2 ** 32 - 1);
  const level = parseNumberOption("--level", flags.level, 0.95, 0.5, 0.999);
  const ppiLevel = parseNumberOption("--ppi-level", flags.ppiLevel, 0.9, 0.5, 0.999);
  const detectors = listOption(flags.detectors);
  const labelers = listOption(flags.labelers);
  const names = new Set(predictions.map((x) => x.detector));
  const ppiDetector = flags.ppiDetector ?? (names.has("v4") ? "v4" : null);
  const bars = flags.check ? loadBars(ctx, flags.bars) : null;
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
        ppi: ppiDetector ? { detector: ppiDetector, alpha: 1 - ppiLevel } : null,
        ...(detectors ? { detectors } : {}),
        ...(labelers ? { labelers } : {}),
      },
    ),
  );
  const scored = report.detectors.map((d) => d.name);
  const results = bars ? pure(() => checkBars(bars.bars.bars, report.figures, scored)) : null;
  if (results && results.some((r) => !r.pass)) ctx.exitCode = 1;
  if (flags.json) {
    const { figures: _figures, ...rest } = report;
    printJson(ctx.io, { gold: goldFile, ...rest, check: results && bars ? { source: bars.source, pass: results.every((r) => r.pass), bars: results } : null });
    return;
  }
  printReport(ctx, report);
  if (results && bars) printBars(ctx, bars.source, results);
}

