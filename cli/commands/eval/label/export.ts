import { join } from "node:path";
import type { Command } from "commander";
import { buildSheet, specText, type SheetItem } from "../../../../eval/index.js";
import { ExchangeSchema } from "../../../../schemas/exchange.js";
import type { CommandContext } from "../../../shared/command.js";
import { badInput, describeFound } from "../../../../core/errors.js";
import { printJson, println } from "../../../shared/io.js";
import { evalPaths, readJsonlStrict, resolveFrom, writeAtomic } from "../../../shared/eval-files.js";
import { readGoldItems } from "../../../shared/eval-labels.js";
import { answerSpecs } from "../../../shared/eval-questions.js";
import { examples } from "../../../shared/help.js";
import { lastActiveRound, proposedOf } from "../../../shared/eval-next.js";

/**
 * `errata eval label export`: one labeller's blind CSV sheet: the items' text, one column per
 * question, shuffled for that labeller; no stratum, weight or anyone's answers. When an
 * active-labelling round exists (`active.jsonl`, like `eval label serve`), the sheet holds that
 * round's proposals in its order (the most informative first) with the round and each item's
 * inclusion probability, which `eval label import` checks against `active.jsonl`.
 *
 * Example: `errata eval label export --labeler ana` → "wrote …/sheets/ana.csv: 300 items,
 * 27 questions".
 */
export interface ExportFlags {
  labeler: string;
  gold?: string;
  exchanges?: string[];
  questions?: string;
  split: string;
  items: string;
  active?: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
}

export const LABELER = /^[A-Za-z0-9][A-Za-z0-9_.:@-]*$/;

const clip = (s: string | null, n = 4000): string | null => (s === null ? null : s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("export")
    .description("Write one labeller's CSV sheet: the items' text, one column per question, shuffled for that labeller; no other answers")
    .requiredOption("--labeler <id>", "the labeller's id (also seeds the item order)")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--exchanges <files...>", "exchange/1 JSONL with the items' text (default: the v4 folder's exchanges.jsonl)")
    .option("--questions <list>", "answer columns, e.g. detect.unhappy,class,satisfaction:1-5 (default: the bank's questions and class)")
    .option("--split <side>", "all, fit or holdout", "all")
    .option("--items <which>", "auto (the last active-labelling round's proposals, in its order, with their inclusion probabilities, when active.jsonl exists; else the gold set), active or gold", "auto")
    .option("--active <file>", "active-draw/1 rounds (default: <ledger>/eval/active.jsonl)")
    .option("--out <file>", "the sheet (default: <ledger>/eval/sheets/<id>.csv)")
    .option("--dry-run", "build the sheet, write nothing")
    .option("--json", "print one JSON value: {out, labeler, items, questions, active_round, written}")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial && errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 30 --failure-items 0 &&",
          "errata eval label export --labeler ana --exchanges datasets/ab-redial/exchanges.jsonl --split all",
        ],
        [
          "errata datasets copy ab-redial &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex --out regex.jsonl &&",
          "errata eval sample --next 20 --exchanges datasets/ab-redial/exchanges.jsonl --failures regex.jsonl --failure-detector regex &&",
          "errata eval label export --labeler ana --exchanges datasets/ab-redial/exchanges.jsonl",
        ],
      ]),
    )
    .action((flags: ExportFlags) => runExport(ctx, flags));
}

/** The exchanges' text as sheet items (text only: no stratum, weights or anyone's answers), by id. */
export function exchangeTexts(ctx: CommandContext, exchanges: readonly string[] | undefined): { files: string[]; byId: Map<string, SheetItem> } {
  const p = evalPaths(ctx.io);
  const files = (exchanges && exchanges.length > 0 ? exchanges : [`${p.v4Dir}/exchanges.jsonl`]).map((f) => resolveFrom(ctx.io, f));
  const byId = new Map<string, SheetItem>();
  for (const e of files.flatMap((f) => readJsonlStrict(f, ExchangeSchema, "exchange/1"))) {
    byId.set(e.id, { exchange_id: e.id, previous_ask: clip(e.previous_ask), reply_end: clip(e.reply_end), tool_calls: e.tool_calls.map((t) => `${t.name}: ${t.summary}`).join("\n"), prompt: clip(e.prompt) ?? "" });
  }
  return { files, byId };
}

/**
 * The items of a labeller's sheet and its answer columns: the gold set's items (of `split`),
 * or the `only` items in that order (an active round's proposals), with the exchanges' text;
 * shared with `eval label serve`.
 */
export function sheetItems(ctx: CommandContext, flags: { gold?: string; exchanges?: string[]; questions?: string; split: string }, only?: readonly string[]): { items: SheetItem[]; questions: ReturnType<typeof answerSpecs> } {
  if (!["all", "fit", "holdout"].includes(flags.split)) throw badInput("bad --split", "all, fit or holdout", describeFound(flags.split));
  const ids = only ?? readGoldItems(ctx, flags.gold).rows.filter((g) => flags.split === "all" || g.split === flags.split).map((g) => g.exchange_id);
  if (ids.length === 0) throw badInput("no gold items to label", "a gold set (errata eval sample)", `0 items in split ${flags.split}`);
  const { files, byId } = exchangeTexts(ctx, flags.exchanges);
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw badInput(`${only ? "items" : "gold items"} without their exchange text`, `every item's exchange in ${files.join(", ")}`, `${missing.length} missing, e.g. ${missing[0]}`);
  return { items: ids.map((id) => byId.get(id)!), questions: answerSpecs(flags.questions) };
}

function runExport(ctx: CommandContext, flags: ExportFlags): void {
  if (!LABELER.test(flags.labeler)) throw badInput("bad --labeler", "an id of letters, digits and _ . : @ -", describeFound(flags.labeler));
  if (!["auto", "active", "gold"].includes(flags.items)) throw badInput("bad --items", "auto, active or gold", describeFound(flags.items));
  const p = evalPaths(ctx.io);
  const activeFile = flags.active ? resolveFrom(ctx.io, flags.active) : p.active;
  const round = flags.items === "gold" ? null : lastActiveRound(activeFile);
  if (flags.items === "active" && round === null) throw badInput("no active-labelling round", `rounds in ${activeFile} (errata eval sample --next K)`, "none");
  const proposed = round ? proposedOf(round.rows) : null;
  if (round && proposed!.length === 0) throw badInput(`the last active round (${round.round}) proposed no items`, "a round with proposals (errata eval sample --next K)", "0");
  const { items, questions } = sheetItems(ctx, flags, proposed ? proposed.map((r) => r.exchange_id) : undefined);
  // A question the importer knows by its id keeps the plain id; any other column carries its
  // spec (satisfaction:1-5), so `eval label import` needs no --questions to read the sheet back.
  const known = new Map(answerSpecs(undefined).map((q) => [q.id, specText(q)]));
  const active = round && proposed ? { round: round.round, pi: new Map(proposed.map((r) => [r.exchange_id, r.pi])) } : undefined;
  const csv = buildSheet(flags.labeler, items, questions, (q) => (known.get(q.id) === specText(q) ? q.id : specText(q)), active);
  const out = flags.out ? resolveFrom(ctx.io, flags.out) : join(p.sheets, `${flags.labeler}.csv`);
  if (!flags.dryRun) writeAtomic(out, csv);
  if (flags.json) printJson(ctx.io, { written: !flags.dryRun, out, labeler: flags.labeler, items: items.length, questions: questions.map((q) => q.id), active_round: active?.round ?? null });
  else println(ctx.io, `${flags.dryRun ? "would write" : "wrote"} ${out}: ${items.length} items, ${questions.length} questions, ${active ? `active round ${active.round} in its order (the most informative first) with each item's inclusion probability` : `shuffled for ${flags.labeler}`}`);
}
