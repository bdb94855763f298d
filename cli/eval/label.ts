import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { buildSheet, validateSheet, type SheetItem } from "../../eval/sheet.js";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { GoldItemSchema } from "../../schemas/gold.js";
import { LabelSchema, type Label } from "../../schemas/label.js";
import type { CommandContext } from "../command.js";
import { badInput, describeFound } from "../../core/errors.js";
import { printJson, println, warn } from "../io.js";
import { evalPaths, readJsonlStrict, readText, resolveFrom, toJsonl, writeAtomic } from "./files.js";
import { answerSpecs } from "./questions.js";

/**
 * `errata eval label export` and `import`: blind CSV sheets for labellers, and the
 * validated import of a returned sheet into `labels.jsonl` (label/1 rows, origin
 * "sheet:<file>"). A sheet with any error imports nothing; the errors are listed with
 * their spreadsheet row numbers and the exit code is 2.
 *
 * Example: `errata eval label export --labeler ana` → "wrote …/sheets/ana.csv: 300 items,
 * 27 questions"; `errata eval label import ana.csv` → "imported 8,100 labels from ana".
 */
export interface ExportFlags {
  labeler: string;
  gold?: string;
  exchanges?: string[];
  questions?: string;
  split: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
}

const LABELER = /^[A-Za-z0-9][A-Za-z0-9_.:@-]*$/;

function goldRows(ctx: CommandContext, file: string | undefined) {
  const path = file ? resolveFrom(ctx.io, file) : evalPaths(ctx.io).gold;
  return { path, rows: readJsonlStrict(path, GoldItemSchema, "gold-item/1") };
}

const clip = (s: string | null, n = 4000): string | null => (s === null ? null : s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function runExport(ctx: CommandContext, flags: ExportFlags): void {
  if (!LABELER.test(flags.labeler)) throw badInput("bad --labeler", "an id of letters, digits and _ . : @ -", describeFound(flags.labeler));
  if (!["all", "fit", "holdout"].includes(flags.split)) throw badInput("bad --split", "all, fit or holdout", describeFound(flags.split));
  const p = evalPaths(ctx.io);
  const gold = goldRows(ctx, flags.gold).rows.filter((g) => flags.split === "all" || g.split === flags.split);
  if (gold.length === 0) throw badInput("no gold items to label", "a gold set (errata eval sample)", `0 items in split ${flags.split}`);
  const exchangeFiles = (flags.exchanges && flags.exchanges.length > 0 ? flags.exchanges : [`${p.v4Dir}/exchanges.jsonl`]).map((f) => resolveFrom(ctx.io, f));
  const byId = new Map(exchangeFiles.flatMap((f) => readJsonlStrict(f, ExchangeSchema, "exchange/1")).map((e) => [e.id, e]));
  const missing = gold.filter((g) => !byId.has(g.exchange_id));
  if (missing.length > 0) throw badInput("gold items without their exchange text", `every gold exchange in ${exchangeFiles.join(", ")}`, `${missing.length} missing, e.g. ${missing[0]?.exchange_id}`);
  const questions = answerSpecs(flags.questions);
  // Only the text the labeller needs: no stratum, no weights, no judge or labeller answers.
  const items: SheetItem[] = gold.map((g) => {
    const e = byId.get(g.exchange_id) as NonNullable<ReturnType<typeof byId.get>>;
    return {
      exchange_id: e.id,
      previous_ask: clip(e.previous_ask),
      reply_end: clip(e.reply_end),
      tool_calls: e.tool_calls.map((t) => `${t.name}: ${t.summary}`).join("\n"),
      prompt: clip(e.prompt) ?? "",
    };
  });
  const csv = buildSheet(flags.labeler, items, questions);
  const out = flags.out ? resolveFrom(ctx.io, flags.out) : join(p.sheets, `${flags.labeler}.csv`);
  if (!flags.dryRun) writeAtomic(out, csv);
  if (flags.json) printJson(ctx.io, { written: !flags.dryRun, out, labeler: flags.labeler, items: items.length, questions: questions.map((q) => q.id) });
  else println(ctx.io, `${flags.dryRun ? "would write" : "wrote"} ${out}: ${items.length} items, ${questions.length} questions, shuffled for ${flags.labeler}`);
}

export interface ImportFlags {
  gold?: string;
  labels?: string;
  labeler?: string;
  questions?: string;
  replace?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export function runImport(ctx: CommandContext, file: string, flags: ImportFlags): void {
  const path = resolveFrom(ctx.io, file);
  const text = readText(path);
  const gold = goldRows(ctx, flags.gold).rows;
  const result = validateSheet(text, { items: new Set(gold.map((g) => g.exchange_id)), questions: answerSpecs(flags.questions), ...(flags.labeler ? { labeler: flags.labeler } : {}) });
  if (!result.ok) {
    if (flags.json) printJson(ctx.io, { imported: 0, errors: result.errors });
    for (const e of result.errors.slice(0, 50)) warn(ctx.io, `${basename(path)}: ${e.message}`);
    if (result.errors.length > 50) warn(ctx.io, `… and ${result.errors.length - 50} more`);
    throw badInput(`the sheet ${basename(path)} has ${result.errors.length} error(s); nothing imported`, "a sheet without errors", `first: ${result.errors[0]?.message}`);
  }
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
