import type { Command } from "commander";
import { adjudicationQueue, type DisputeScope } from "../../../../eval/index.js";
import type { CommandContext } from "../../../shared/command.js";
import { badInput, describeFound } from "../../../../core/errors.js";
import { printJson, println } from "../../../shared/io.js";
import { listOption, pure } from "../../../shared/eval-files.js";
import { loadLabels } from "../../../shared/eval-labels.js";
import { cellOf, loadAdjudications } from "../../../shared/eval-adjudication.js";
import { examples } from "../../../shared/help.js";

/**
 * `errata eval adjudicate list`: every item the labellers split on (ties first: they have no
 * gold without a decision), its labels side by side, and the decision in force, pending, or
 * stale (the labels changed since it was made).
 *
 * Example: `errata eval adjudicate list --questions detect.unhappy` -> "tie    ex-…  detect.unhappy
 * ana yes | ben no   pending".
 */
interface ListFlags {
  labels?: string[];
  labelers?: string;
  questions?: string;
  scope: string;
  adjudications?: string;
  pending?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("list")
    .description("List the disputed items (splits and ties) with their labels side by side and their decision, pending or stale")
    .option("--labels <files...>", "label/1 JSONL files (default: <ledger>/eval/labels.jsonl)")
    .option("--labelers <list>", "labellers whose labels count (default: all)")
    .option("--questions <list>", "questions (default: every question in the labels)")
    .option("--scope <which>", "splits (any disagreement) or ties (no 2-of-3 majority)", "splits")
    .option("--adjudications <file>", "adjudication/1 JSONL (default: <ledger>/eval/adjudications.jsonl)")
    .option("--pending", "only the items without a decision in force")
    .option("--json", "print one JSON value: {items: [{exchange_id, question, dispute, votes, majority, decision, stale}], counts}")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy ab-redial && errata eval adjudicate list --labels datasets/ab-redial/labels.jsonl --labelers ab-redial:r1,ab-redial:r2,ab-redial:r3 --questions detect.unhappy --scope splits",
      ]),
    )
    .action((flags: ListFlags) => runList(ctx, flags));
}

function runList(ctx: CommandContext, flags: ListFlags): void {
  if (flags.scope !== "splits" && flags.scope !== "ties") throw badInput("bad --scope", "splits or ties", describeFound(flags.scope));
  const { labels } = loadLabels(ctx, flags.labels);
  const { file, rows } = loadAdjudications(ctx, flags.adjudications);
  const labelers = listOption(flags.labelers);
  const questions = listOption(flags.questions) ?? [...new Set(labels.map((l) => l.question))].sort();
  const known = new Set(labels.map((l) => l.question));
  const unknown = questions.find((q) => !known.has(q));
  if (unknown !== undefined) throw badInput(`no labels for question ${unknown}`, `one of ${[...known].sort().join(", ")}`, describeFound(unknown));
  const all = pure(() => adjudicationQueue(labels, rows, { questions, scope: flags.scope as DisputeScope, ...(labelers ? { labelers } : {}) }));
  const items = flags.pending ? all.filter((x) => x.decision === null) : all;
  const counts = { disputed: all.length, ties: all.filter((x) => x.dispute === "tie").length, decided: all.filter((x) => x.decision !== null).length, stale: all.filter((x) => x.stale).length };
  if (flags.json) {
    printJson(ctx.io, { adjudications: file, counts, items: items.map((x) => ({ exchange_id: x.exchange_id, question: x.question, dispute: x.dispute, votes: x.votes, majority: x.majority, decision: x.decision ? { decision: x.decision.decision, value: x.decision.value, adjudicator: x.decision.adjudicator } : null, stale: x.stale })) });
    return;
  }
  for (const x of items) {
    const side = x.votes.map((v) => `${v.labeler} ${cellOf(v.value)}`).join(" | ");
    const d = x.decision ? (x.decision.decision === "ambiguous" ? `ambiguous (${x.decision.adjudicator})` : `decided ${cellOf(x.decision.value!)} (${x.decision.adjudicator})`) : x.stale ? "stale: the labels changed since the decision" : "pending";
    println(ctx.io, `${x.dispute.padEnd(5)}  ${x.exchange_id}  ${x.question}  ${side}  ${d}`);
  }
  println(ctx.io, `${counts.disputed} disputed (${counts.ties} ties), ${counts.decided} decided, ${counts.disputed - counts.decided} pending${counts.stale > 0 ? ` (${counts.stale} stale)` : ""}; decisions in ${file ?? "none yet (eval adjudicate decide, or the page's adjudication view)"}`);
}
