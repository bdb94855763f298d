import { existsSync } from "node:fs";
import type { Command } from "commander";
import { agreementReport, type QuestionAgreement } from "../../../eval/index.js";
import { ExchangeSchema } from "../../../schemas/exchange.js";
import { GoldItemSchema } from "../../../schemas/gold.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { evalPaths, listOption, parseIntOption, parseNumberOption, pure, readJsonlStrict, resolveFrom } from "../../shared/eval-files.js";
import { withInterval } from "../../shared/eval-format.js";
import { loadLabels } from "../../shared/eval-labels.js";
import { adjudicationReports, loadAdjudications, printAdjudicationReport } from "../../shared/eval-adjudication.js";
import { examples } from "../../shared/help.js";

/**
 * `errata eval agreement`: per question, raw agreement, Fleiss' kappa (fixed and variable
 * raters), Krippendorff's alpha (nominal; interval for rating scales), Cohen's kappa per
 * pair of labellers, the 2-of-3 majority with ties, and bootstrap intervals named for what
 * they resample: session blocks when the items' sessions are known (a gold file or
 * `--exchanges`), else items one by one ("item bootstrap", with a warning: too narrow when
 * items of a session are correlated; on USS SGD 17% narrower).
 * Labels come from sheets imported into the eval folder and/or any label/1 files (the
 * importers' rater labels count as labellers).
 *
 * Example: `errata eval agreement --labels datasets/ab-redial/labels.jsonl --labelers r1,r2,r3`
 * → "satisfaction (rating) … Fleiss' kappa, fixed raters (599 items): 0.219 [...]".
 */
export interface AgreementFlags {
  labels?: string[];
  gold?: string;
  exchanges?: string[];
  labelers?: string;
  questions?: string;
  resamples?: string;
  seed?: string;
  level?: string;
  adjudications?: string;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
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
    .option("--adjudications <file>", "adjudication/1 JSONL (default: <ledger>/eval/adjudications.jsonl when present): each labeller's agreement with the gold before and after")
    .option("--json", "print one JSON value: every question's figures")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy ab-redial && errata eval agreement --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --labelers ab-redial:r1,ab-redial:r2,ab-redial:r3",
      ]),
    )
    .action((flags: AgreementFlags) => runAgreement(ctx, flags));
}

function printQuestion(ctx: CommandContext, q: QuestionAgreement): void {
  const f = (x: { value: number | null; lower: number | null; upper: number | null; reason: string | null }): string =>
    x.value === null ? `— (${x.reason})` : withInterval(x.value, x.lower, x.upper);
  println(ctx.io, `${q.question} (${q.kind}): labellers ${q.labelers.join(", ")}; ${q.items} items with labels`);
  println(ctx.io, `  raw agreement: pairwise ${withInterval(q.raw.pairwise, null, null)}, unanimous ${withInterval(q.raw.unanimous, null, null)} (${q.raw.items} items with 2+ labels)`);
  println(ctx.io, `  Fleiss' kappa, fixed raters (${q.fleissFixed.items} items labelled by all): ${f(q.fleissFixed)}`);
  println(ctx.io, `  Fleiss' kappa, variable raters (${q.fleissVariable.items} items): ${f(q.fleissVariable)}`);
  println(ctx.io, `  Krippendorff's alpha, nominal: ${f(q.alpha.nominal)}${q.alpha.interval ? `; interval: ${f(q.alpha.interval)}` : ""}`);
  for (const c of q.cohen) println(ctx.io, `  Cohen's kappa ${c.a} / ${c.b} (${c.items} shared items): ${f(c)}`);
  println(ctx.io, `  ${q.majority.minVotes}-vote majority: ${q.majority.majority} items, ties ${q.majority.tie}, too few labels ${q.majority.insufficient}`);
  const empties = [q.fleissFixed, q.fleissVariable, q.alpha.nominal, ...(q.alpha.interval ? [q.alpha.interval] : []), ...q.cohen].reduce((m, x) => Math.max(m, x.emptyReplicates), 0);
  if (empties > 0) println(ctx.io, `  replicates with an undefined figure (left out of intervals): up to ${empties}`);
}

function runAgreement(ctx: CommandContext, flags: AgreementFlags): void {
  const p = evalPaths(ctx.io);
  const { files, labels } = loadLabels(ctx, flags.labels);
  const goldFile = flags.gold ? resolveFrom(ctx.io, flags.gold) : !flags.labels && existsSync(p.gold) ? p.gold : null;
  const sessionOf = new Map<string, string>();
  for (const f of flags.exchanges ?? []) for (const e of readJsonlStrict(resolveFrom(ctx.io, f), ExchangeSchema, "exchange/1")) sessionOf.set(e.id, e.session_id);
  let scoped = labels;
  if (goldFile) {
    const gold = readJsonlStrict(goldFile, GoldItemSchema, "gold-item/1");
    for (const g of gold) sessionOf.set(g.exchange_id, g.session_id);
    const ids = new Set(gold.map((g) => g.exchange_id));
    scoped = labels.filter((l) => ids.has(l.exchange_id));
    if (scoped.length === 0) throw badInput("no labels for the gold items", `labels of items in ${goldFile}`, "none");
  }
  const resamples = parseIntOption("--resamples", flags.resamples, 2000, 100);
  const seed = parseIntOption("--seed", flags.seed, 1, 0, 2 ** 32 - 1);
  const level = parseNumberOption("--level", flags.level, 0.95, 0.5, 0.999);
  const labelers = listOption(flags.labelers);
  const questions = listOption(flags.questions);
  const report = pure(() =>
    agreementReport(scoped, { sessionOf, resamples, seed, level, ...(labelers ? { labelers } : {}), ...(questions ? { questions } : {}) }),
  );
  const boot = report.find((q) => q.bootstrap)?.bootstrap ?? null;
  const without = report.reduce((m, q) => Math.max(m, q.bootstrap?.itemsWithoutSession ?? 0), 0);
  if (without > 0) {
    ctx.io.stderr.write(`errata: warning: ${without} labelled items have no session id, so their intervals resample them one by one (an item bootstrap: too narrow when items of a session are correlated); pass --exchanges FILE (or --gold) for session blocks\n`);
  }
  // Adjudication changes the gold, never the raw labels: the figures above stay as they are.
  const adj = loadAdjudications(ctx, flags.adjudications);
  const adjudication = adj.rows.length > 0 || flags.adjudications ? adjudicationReports(scoped, adj.rows, report.map((q) => q.question), { labelers, sessionOf, resamples, seed, level }) : [];
  if (flags.json) {
    printJson(ctx.io, { labels: files, gold: goldFile, questions: report, adjudications: adj.file, adjudication });
    return;
  }
  for (const q of report) {
    printQuestion(ctx, q);
    const a = adjudication.find((x) => x.question === q.question);
    if (a) printAdjudicationReport(ctx.io, a);
  }
  if (boot) {
    const blocks = boot.itemsWithoutSession > 0 ? `; ${boot.itemsWithoutSession} items without a session are their own block (--exchanges gives their sessions)` : "";
    println(ctx.io, `intervals: ${boot.method}, ${boot.resamples} resamples, seed ${boot.seed}, level ${boot.level}, ${boot.sessions} blocks${blocks}`);
  }
}
