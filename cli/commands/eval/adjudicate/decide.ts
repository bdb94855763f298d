import type { Command } from "commander";
import { checkDecision, votesByItem, type LabelValue } from "../../../../eval/index.js";
import type { Adjudication } from "../../../../schemas/adjudication.js";
import { appendAdjudication } from "../../../../runtime/pages/index.js";
import type { CommandContext } from "../../../shared/command.js";
import { badInput, describeFound } from "../../../../core/errors.js";
import { printJson, println } from "../../../shared/io.js";
import { evalPaths, listOption, pure, resolveFrom } from "../../../shared/eval-files.js";
import { loadLabels } from "../../../shared/eval-labels.js";
import { cellOf, valueFromCell } from "../../../shared/eval-adjudication.js";
import { LABELER } from "../label/export.js";
import { examples } from "../../../shared/help.js";

/**
 * `errata eval adjudicate decide`: one adjudicator's decision on one disputed item: `--value`
 * picks one of the labels given (yes / no, the rating, the category), `--ambiguous` says the
 * item has no right answer (it leaves the gold), `--withdraw` takes the decision in force back.
 * The row, with the labels it saw, is appended to `adjudications.jsonl`; the labels are not
 * touched.
 *
 * Example: `errata eval adjudicate decide ex-1 --question detect.unhappy --value yes --adjudicator lee`
 * -> "lee: ex-1 detect.unhappy -> yes (labels ana yes | ben no) appended to …/adjudications.jsonl".
 */
interface DecideFlags {
  question: string;
  value?: string;
  ambiguous?: boolean;
  withdraw?: boolean;
  adjudicator: string;
  note?: string;
  labels?: string[];
  labelers?: string;
  adjudications?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("decide")
    .description("Record one decision on a disputed item: --value (one of its labels), --ambiguous, or --withdraw; appended apart from the labels")
    .argument("<exchange_id>", "the disputed item")
    .requiredOption("--question <id>", "the question it is disputed on")
    .requiredOption("--adjudicator <id>", "who decides")
    .option("--value <cell>", "the label picked, as a sheet cell: yes, no, a rating, a category")
    .option("--ambiguous", "no label is right: the item leaves the gold")
    .option("--withdraw", "take back the decision in force")
    .option("--note <text>", "why (kept with the decision)")
    .option("--labels <files...>", "label/1 JSONL files (default: <ledger>/eval/labels.jsonl)")
    .option("--labelers <list>", "labellers whose labels count (default: all)")
    .option("--adjudications <file>", "adjudication/1 JSONL to append to (default: <ledger>/eval/adjudications.jsonl)")
    .option("--dry-run", "check the decision, write nothing")
    .option("--json", "print one JSON value: the row and where it went")
    .addHelpText(
      "after",
      examples([
        [
          "printf '%s\\n' '{\"schema\":\"label/1\",\"exchange_id\":\"ex-1\",\"labeler\":\"ana\",\"question\":\"detect.unhappy\",\"value\":true,\"origin\":\"x\"}'",
          "'{\"schema\":\"label/1\",\"exchange_id\":\"ex-1\",\"labeler\":\"ben\",\"question\":\"detect.unhappy\",\"value\":false,\"origin\":\"x\"}' > labels.jsonl &&",
          "errata eval adjudicate decide ex-1 --question detect.unhappy --value yes --adjudicator lee --labels labels.jsonl --adjudications adjudications.jsonl",
        ],
      ]),
    )
    .action((id: string, flags: DecideFlags) => runDecide(ctx, id, flags));
}

function runDecide(ctx: CommandContext, exchangeId: string, flags: DecideFlags): void {
  if (!LABELER.test(flags.adjudicator)) throw badInput("bad --adjudicator", "an id of letters, digits and _ . : @ -", describeFound(flags.adjudicator));
  const given = [flags.value !== undefined, flags.ambiguous === true, flags.withdraw === true].filter(Boolean).length;
  if (given !== 1) throw badInput("one decision", "exactly one of --value CELL, --ambiguous, --withdraw", `${given} given`);
  const { labels } = loadLabels(ctx, flags.labels);
  const labelers = listOption(flags.labelers);
  const votes = pure(() => votesByItem(labels, flags.question, labelers)).get(exchangeId);
  let value: LabelValue | null = null;
  if (flags.value !== undefined) {
    value = valueFromCell(flags.value, (votes ?? []).map((v) => v.value));
    if (value === null) throw badInput(`--value ${flags.value} is not one of the labels of ${exchangeId} on ${flags.question}`, `one of ${[...new Set((votes ?? []).map((v) => cellOf(v.value)))].join(", ") || "(no labels)"}, or --ambiguous`, describeFound(flags.value));
  }
  const decision = flags.withdraw ? "withdrawn" : flags.ambiguous ? "ambiguous" : "label";
  if (decision !== "withdrawn") pure(() => checkDecision(votes, { exchange_id: exchangeId, question: flags.question, decision, value }));
  else if (!votes || votes.length < 2) throw badInput(`nothing to withdraw for ${exchangeId} on ${flags.question}`, "an item with two or more labels", votes ? "one label" : "no labels");
  const row: Adjudication = {
    schema: "adjudication/1",
    exchange_id: exchangeId,
    question: flags.question,
    adjudicator: flags.adjudicator,
    decision,
    value,
    labels: votes!.map((v) => ({ labeler: v.labeler, value: v.value })),
    ...(flags.note !== undefined ? { note: flags.note } : {}),
    at: new Date(ctx.io.now()).toISOString(),
  };
  const file = flags.adjudications ? resolveFrom(ctx.io, flags.adjudications) : evalPaths(ctx.io).adjudications;
  if (!flags.dryRun) appendAdjudication(file, row);
  if (flags.json) {
    printJson(ctx.io, { written: !flags.dryRun, file, row });
    return;
  }
  const what = decision === "label" ? cellOf(value!) : decision;
  println(ctx.io, `${flags.adjudicator}: ${exchangeId} ${flags.question} -> ${what} (labels ${votes!.map((v) => `${v.labeler} ${cellOf(v.value)}`).join(" | ")}) ${flags.dryRun ? "would be appended" : "appended"} to ${file}`);
}
