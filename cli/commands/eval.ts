/**
 * `errata eval`: gold sets, blind labelling, agreement and scoring (the research loop's
 * measuring half). `sample`, `label export`, `label import`, `agreement`, `score [--check]`.
 * The `eval` group is shared with `eval brief` (cli/commands/eval-brief.ts): whichever
 * file registers first creates it, the other reuses it.
 *
 * Example: `errata eval sample --exchanges ex.jsonl --failures v4.jsonl && errata eval label
 * export --labeler ana && … && errata eval score --predictions preds.jsonl --check`
 */
import type { Command } from "commander";
import type { CommandContext } from "../command.js";
import { runAgreement, type AgreementFlags } from "../eval/agreement.js";
import { runExport, runImport, type ExportFlags, type ImportFlags } from "../eval/label.js";
import { runSample, type SampleFlags } from "../eval/sample.js";
import { runScore, SCORE_DEFAULTS, type ScoreFlags } from "../eval/score.js";

export function evalGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === "eval") ?? program.command("eval").description("Gold sets, labels, agreement and scoring");
}

export function register(program: Command, ctx: CommandContext): void {
  const group = evalGroup(program);
  if (group.commands.some((c) => c.name() === "sample")) return;

  group
    .command("sample")
    .description("Draw the gold set: N items, at most k per session, M composed failures, seeded; exact inclusion probabilities; fit/holdout split by session")
    .option("--exchanges <files...>", "exchange/1 JSONL files (default: the v4 folder's exchanges.jsonl)")
    .option("--failures <file>", "composed verdicts as prediction/1 rows (default: compose the v4 folder's answers)")
    .option("--failure-detector <name>", "which detector's rows in --failures give the strata", "v4")
    .option("--answers <file>", "answer/1 JSONL to compose from (default: the v4 folder's answers.jsonl)")
    .option("--cuts <file>", "cuts used to compose the answers (default 0.5 per question)")
    .option("--items <n>", "items to draw (default 300)")
    .option("--per-session <k>", "at most k items per session (default 3, at least 2)")
    .option("--failure-items <m>", "composed failures to draw (default 180)")
    .option("--seed <n>", "seed of the draw (default 1)")
    .option("--holdout-share <x>", "share of sessions in the holdout (default 0.5)")
    .option("--split-salt <text>", "salt of the session hash (default errata-split/1)")
    .option("--monte-carlo <runs>", "also re-run the seeded sampler this many times and report the largest |z| against the exact probabilities")
    .option("--out <dir>", "folder for gold.jsonl and gold.json (default: <ledger>/eval)")
    .option("--force", "replace an existing gold set")
    .option("--dry-run", "draw and report, write nothing")
    .option("--json", "print one JSON value: the manifest and where it was written")
    .addHelpText("after", "\nExample:\n  $ errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --failures v4-predictions.jsonl --seed 7")
    .action((flags: SampleFlags) => runSample(ctx, flags));

  const label = group.command("label").description("Blind labelling sheets: export one per labeller, import the returned sheets");
  label
    .command("export")
    .description("Write one labeller's CSV sheet: the items' text, one column per question, shuffled for that labeller; no other answers")
    .requiredOption("--labeler <id>", "the labeller's id (also seeds the item order)")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--exchanges <files...>", "exchange/1 JSONL with the items' text (default: the v4 folder's exchanges.jsonl)")
    .option("--questions <list>", "answer columns, e.g. detect.unhappy,class,satisfaction:1-5 (default: the bank's questions and class)")
    .option("--split <side>", "all, fit or holdout", "all")
    .option("--out <file>", "the sheet (default: <ledger>/eval/sheets/<id>.csv)")
    .option("--dry-run", "build the sheet, write nothing")
    .option("--json", "print one JSON value: {out, labeler, items, questions, written}")
    .addHelpText("after", "\nExample:\n  $ errata eval label export --labeler ana --split all")
    .action((flags: ExportFlags) => runExport(ctx, flags));
  label
    .command("import")
    .description("Validate a returned sheet and add its answers to labels.jsonl; a sheet with any error imports nothing (errors name their rows)")
    .argument("<sheet>", "the CSV sheet")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--labels <file>", "label/1 JSONL to add to (default: <ledger>/eval/labels.jsonl)")
    .option("--labeler <id>", "expect this labeller on every row")
    .option("--questions <list>", "accepted answer columns (default: the bank's questions and class)")
    .option("--replace", "replace this labeller's earlier labels for the sheet's items")
    .option("--dry-run", "validate, write nothing")
    .option("--json", "print one JSON value: the import summary, or {imported: 0, errors}")
    .addHelpText("after", "\nExample:\n  $ errata eval label import ana.csv")
    .action((sheet: string, flags: ImportFlags) => runImport(ctx, sheet, flags));

  group
    .command("agreement")
    .description("Agreement per question: raw, Fleiss (fixed and variable raters), Krippendorff alpha, Cohen per pair, 2-of-3 majority, session-block intervals")
    .option("--labels <files...>", "label/1 JSONL files (default: <ledger>/eval/labels.jsonl); importers' rater labels count as labellers")
    .option("--gold <file>", "restrict to the gold items and block by their sessions (default with default labels: <ledger>/eval/gold.jsonl if present)")
    .option("--exchanges <files...>", "exchange/1 JSONL, for the sessions of items not in a gold file")
    .option("--labelers <list>", "labellers to use, e.g. r1,r2,r3 (default: all)")
    .option("--questions <list>", "questions to report (default: all)")
    .option("--resamples <n>", "bootstrap resamples (default 2000)")
    .option("--seed <n>", "bootstrap seed (default 1)")
    .option("--level <x>", "interval level (default 0.95)")
    .option("--json", "print one JSON value: every question's figures")
    .addHelpText("after", "\nExample:\n  $ errata eval agreement --labels datasets/ab-redial/labels.jsonl --labelers ab-redial:r1,ab-redial:r2,ab-redial:r3")
    .action((flags: AgreementFlags) => runAgreement(ctx, flags));

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
    .addHelpText("after", "\nExample:\n  $ errata eval score --predictions regex.jsonl v3.jsonl v4.jsonl --check")
    .action((flags: ScoreFlags) => runScore(ctx, flags));
}
