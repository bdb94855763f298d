import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { validateSheet } from "../../../../eval/index.js";
import { LabelSchema, type Label } from "../../../../schemas/label.js";
import type { CommandContext } from "../../../shared/command.js";
import { badInput } from "../../../../core/errors.js";
import { printJson, println, warn } from "../../../shared/io.js";
import { evalPaths, readJsonlStrict, readText, resolveFrom, toJsonl, writeAtomic } from "../../../shared/eval-files.js";
import { readGoldItems } from "../../../shared/eval-labels.js";
import { answerSpecs } from "../../../shared/eval-questions.js";
import { examples } from "../../../shared/help.js";
import { lastActiveRound, type ActiveRecord } from "../../../shared/eval-next.js";

/**
 * `errata eval label import`: the validated import of a returned sheet into `labels.jsonl`
 * (label/1 rows, origin "sheet:<file>"). A sheet with any error imports nothing; the errors
 * are listed with their spreadsheet row numbers and the exit code is 2. Its items are the gold
 * set's and those of the active-labelling rounds in the eval folder's `active.jsonl`.
 *
 * Example: `errata eval label import ana.csv` → "imported 8,100 labels from ana".
 */
export interface ImportFlags {
  gold?: string;
  labels?: string;
  labeler?: string;
  questions?: string;
  replace?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
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
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
          `printf 'labeler,exchange_id,detect.unhappy\\nana,ex-89f85987863af467,yes\\n' > ana.csv &&`,
          "errata eval label import ana.csv",
        ],
      ]),
    )
    .action((sheet: string, flags: ImportFlags) => runImport(ctx, sheet, flags));
}

function runImport(ctx: CommandContext, file: string, flags: ImportFlags): void {
  const path = resolveFrom(ctx.io, file);
  const text = readText(path);
  // The gold set's items, and those an active-labelling round proposed (the page serves them).
  const active = lastActiveRound(evalPaths(ctx.io).active)?.all ?? [];
  const goldPath = flags.gold ? resolveFrom(ctx.io, flags.gold) : evalPaths(ctx.io).gold;
  const gold = active.length > 0 && !existsSync(goldPath) ? [] : readGoldItems(ctx, flags.gold).rows;
  const known = new Set([...gold.map((g) => g.exchange_id), ...active.filter((r) => r.drawn).map((r) => r.exchange_id)]);
  const result = validateSheet(text, { items: known, questions: answerSpecs(flags.questions), ...(flags.labeler ? { labeler: flags.labeler } : {}) });
  if (!result.ok) {
    if (flags.json) printJson(ctx.io, { imported: 0, errors: result.errors });
    for (const e of result.errors.slice(0, 50)) warn(ctx.io, `${basename(path)}: ${e.message}`);
    if (result.errors.length > 50) warn(ctx.io, `… and ${result.errors.length - 50} more`);
    throw badInput(`the sheet ${basename(path)} has ${result.errors.length} error(s); nothing imported`, "a sheet without errors", `first: ${result.errors[0]?.message}`);
  }
  if (result.active) checkActiveRows(result.active, active, evalPaths(ctx.io).active, basename(path));
  const labelsFile = flags.labels ? resolveFrom(ctx.io, flags.labels) : evalPaths(ctx.io).labels;
  const existing: Label[] = existsSync(labelsFile) ? readJsonlStrict(labelsFile, LabelSchema, "label/1") : [];
  const items = new Set(result.answers.map((a) => a.exchange_id));
  const mine = (l: Label): boolean => l.labeler === result.labeler && items.has(l.exchange_id);
  const clash = existing.filter(mine);
  if (clash.length > 0 && !flags.replace) {
    throw badInput(`labeller ${result.labeler} already has labels for items of this sheet`, "--replace to replace them", `${clash.length} labels in ${labelsFile}`);
  }
  const fresh: Label[] = result.answers.map((a) =>
    LabelSchema.parse({ schema: "label/1", exchange_id: a.exchange_id, labeler: result.labeler, question: a.question, value: a.value, origin: `sheet:${basename(path)}` }),
  );
  const kept = flags.replace ? existing.filter((l) => !mine(l)) : existing;
  if (!flags.dryRun) writeAtomic(labelsFile, toJsonl([...kept, ...fresh]));
  const summary = { imported: flags.dryRun ? 0 : fresh.length, labels: fresh.length, labeler: result.labeler, rows: result.rows, questions: result.questions, leftEmptyWithNote: result.skipped.length, replaced: flags.replace ? clash.length : 0, labelsFile, written: !flags.dryRun };
  if (flags.json) printJson(ctx.io, summary);
  else println(ctx.io, `${flags.dryRun ? "would import" : "imported"} ${fresh.length} labels from ${result.labeler} (${result.rows} rows, ${result.questions.length} questions${result.skipped.length ? `, ${result.skipped.length} left empty with a note` : ""}) into ${labelsFile}`);
}

/**
 * An active round's sheet carries each item's round and inclusion probability: both must be
 * those `active.jsonl` recorded for a drawn item, or nothing is imported (the estimate would
 * weight the label wrongly).
 */
function checkActiveRows(rows: readonly { row: number; exchange_id: string; round: number; pi: number }[], records: readonly ActiveRecord[], file: string, sheet: string): void {
  const drawn = new Map(records.filter((r) => r.drawn).map((r) => [`${r.round}\u0000${r.exchange_id}`, r]));
  for (const r of rows) {
    const rec = drawn.get(`${r.round}\u0000${r.exchange_id}`);
    if (!rec) throw badInput(`${sheet} row ${r.row}: ${r.exchange_id} was not drawn in active round ${r.round}; nothing imported`, `an item drawn in that round in ${file}`, records.length === 0 ? "no active.jsonl rounds" : "no such draw");
    if (Math.abs(rec.pi - r.pi) > 1e-12 * Math.max(1, rec.pi)) throw badInput(`${sheet} row ${r.row}: ${r.exchange_id}'s inclusion probability differs from active.jsonl; nothing imported`, String(rec.pi), String(r.pi));
  }
}
