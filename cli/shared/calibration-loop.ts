import { basename, join, resolve } from "node:path";
import Papa from "papaparse";
import { z } from "zod";
import { CalibDrawRowSchema, type CalibDrawRow } from "../../schemas/calibration.js";
import type { Label } from "../../schemas/label.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { CommandContext } from "./command.js";
import { badInput } from "../../core/errors.js";
import { fileExists, readJsonl, readText } from "./research-files.js";

/**
 * The files of the calibration loop for ANY yes/no question (a bank question, or the rules
 * pass's rule_covers and same_root_cause), shared by `errata calibrate draw|brief|agreement|fit`:
 * one folder holding draw.jsonl → brief.md + sheet-N.csv → labels.jsonl.
 */
export const QuestionFileSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  guidance: z.string().min(1),
  positive: z.array(z.record(z.string(), z.unknown())).optional(),
  negative: z.array(z.record(z.string(), z.unknown())).optional(),
});

export function folderFor(ctx: CommandContext, dir: string | undefined, question: string | undefined): string {
  if (dir) return resolve(ctx.io.cwd, dir);
  if (!question) throw badInput("missing --dir", "--dir DIR (or --question ID for the default folder)", "neither");
  return join(resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir, "calibration", question);
}

export function readDraw(folder: string): CalibDrawRow[] {
  const file = join(folder, "draw.jsonl");
  if (!fileExists(file)) throw badInput(`no draw in ${folder}`, "draw.jsonl written by `errata calibrate draw`", "no such file");
  const rows = readJsonl(file, CalibDrawRowSchema);
  if (rows.length === 0) throw badInput(`${file} is empty`, "drawn items", "none");
  return rows;
}

/** yes/no cell → boolean, empty → null; anything else is bad input. */
export function parseAnswerCell(cell: string, where: string): boolean | null {
  const v = cell.trim().toLowerCase();
  if (v === "") return null;
  if (["yes", "y", "true", "1"].includes(v)) return true;
  if (["no", "n", "false", "0"].includes(v)) return false;
  throw badInput(`bad answer at ${where}`, "yes, no or empty", JSON.stringify(cell));
}

export function sheetLabels(file: string, question: string, known: Set<string>): Label[] {
  const parsed = Papa.parse<Record<string, string>>(readText(file), { header: true, skipEmptyLines: true });
  const labeler = basename(file).replace(/\.csv$/i, "");
  const out: Label[] = [];
  parsed.data.forEach((row, i) => {
    const id = row["item_id"];
    if (id === undefined || !("answer" in row)) throw badInput(`${file} is not a calibration sheet`, "columns item_id and answer", Object.keys(row).join(", "));
    if (!known.has(id)) throw badInput(`${file} row ${i + 2} names an item not in the draw`, "an item_id of draw.jsonl", JSON.stringify(id));
    const value = parseAnswerCell(row["answer"] ?? "", `${file} row ${i + 2}`);
    if (value !== null) out.push({ schema: "label/1", exchange_id: id, labeler, question, value, origin: `sheet:${basename(file)}` });
  });
  return out;
}
