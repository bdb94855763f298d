import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { z } from "zod";
import { parseAnswer, SHEET_FIXED_COLUMNS, specText, SHEET_NOTE_COLUMN, type AnswerSpec, type SheetItem } from "../../eval/index.js";
import { badInput, describeFound } from "../../core/errors.js";
import { writeFileAtomic } from "../files/index.js";

/**
 * The labelling page's state on disk, one folder: `tokens.json` (one random token per
 * labeller, kept so a restarted server keeps its URLs; mode 0600) and `<labeller>.json` (that
 * labeller's answers and skips, rewritten whole and atomically after every answer, so a crash
 * or a restart loses nothing acknowledged). A labeller's state holds only their own answers.
 *
 * Example: `progress.answers["ex-89f85987863af467"]` -> `{"detect.unhappy": true, "satisfaction": 2}`.
 */
const TOKENS_SCHEMA = z.object({ schema: z.literal("errata-label-tokens/1"), tokens: z.record(z.string(), z.string().regex(/^[0-9a-f]{48}$/)) });
const Value = z.union([z.boolean(), z.number(), z.string()]);
const PROGRESS_SCHEMA = z.object({
  schema: z.literal("errata-label-progress/1"),
  labeler: z.string(),
  answers: z.record(z.string(), z.record(z.string(), Value)),
  skipped: z.record(z.string(), z.array(z.string())),
});
export type Progress = z.infer<typeof PROGRESS_SCHEMA>;
export type AnswerValue = z.infer<typeof Value>;

function readJson<S extends z.ZodType>(file: string, schema: S, what: string): z.infer<S> | null {
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw badInput(`the labelling state ${file} is not JSON`, what, "unparseable text");
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw badInput(`the labelling state ${file} is damaged`, what, r.error.issues[0]?.message ?? "a schema error");
  return r.data;
}

/** Tokens for these labellers: the stored ones, new ones for labellers without one (not written on a dry run). */
export function loadTokens(dir: string, labelers: readonly string[], write: boolean): Map<string, string> {
  const file = join(dir, "tokens.json");
  const stored = readJson(file, TOKENS_SCHEMA, "an errata-label-tokens/1 file")?.tokens ?? {};
  const tokens: Record<string, string> = { ...stored };
  let fresh = false;
  for (const l of labelers) {
    if (tokens[l] === undefined) {
      tokens[l] = randomBytes(24).toString("hex");
      fresh = true;
    }
  }
  if (fresh && write) writeFileAtomic(file, `${JSON.stringify({ schema: "errata-label-tokens/1", tokens }, null, 2)}\n`, { mode: 0o600 });
  return new Map(labelers.map((l) => [l, tokens[l]!]));
}

/** The labeller a token belongs to, compared in constant time; null for no match. */
export function labelerOfToken(tokens: ReadonlyMap<string, string>, given: string | null): string | null {
  if (given === null || !/^[0-9a-f]{48}$/.test(given)) return null;
  const g = Buffer.from(given);
  let found: string | null = null;
  for (const [labeler, token] of tokens) if (timingSafeEqual(Buffer.from(token), g)) found = labeler;
  return found;
}

export const progressFile = (dir: string, labeler: string): string => join(dir, `${labeler}.json`);

export function loadProgress(dir: string, labeler: string): Progress {
  return readJson(progressFile(dir, labeler), PROGRESS_SCHEMA, "an errata-label-progress/1 file") ?? { schema: "errata-label-progress/1", labeler, answers: {}, skipped: {} };
}

export function saveProgress(dir: string, p: Progress): void {
  writeFileAtomic(progressFile(dir, p.labeler), `${JSON.stringify(p)}\n`);
}

/** One change a page asks for: an answer (`value` as a sheet cell would hold it), a skip, or a clear (undo). */
export type Change = { exchange_id: string; question: string } & ({ op: "answer"; value: string } | { op: "skip" } | { op: "clear" });

/** Applies a change to a copy of the progress; throws bad input for an unknown item, question or answer. */
export function applyChange(p: Progress, change: Change, items: ReadonlySet<string>, questions: readonly AnswerSpec[]): Progress {
  if (!items.has(change.exchange_id)) throw badInput("unknown item", "an exchange_id of this sheet", describeFound(change.exchange_id));
  const spec = questions.find((q) => q.id === change.question);
  if (spec === undefined) throw badInput("unknown question", `one of ${questions.map((q) => q.id).join(", ")}`, describeFound(change.question));
  const answers = { ...(p.answers[change.exchange_id] ?? {}) };
  const skipped = new Set(p.skipped[change.exchange_id] ?? []);
  delete answers[change.question];
  skipped.delete(change.question);
  if (change.op === "answer") {
    const a = parseAnswer(spec, change.value);
    if (!a.ok) throw badInput(`bad answer to ${spec.id}`, spec.kind === "yesno" ? "yes or no" : spec.kind === "rating" ? `${spec.min}-${spec.max}` : spec.values.join(", "), describeFound(change.value));
    answers[change.question] = a.value;
  } else if (change.op === "skip") skipped.add(change.question);
  const next: Progress = { ...p, answers: { ...p.answers, [change.exchange_id]: answers }, skipped: { ...p.skipped, [change.exchange_id]: [...skipped].sort() } };
  if (Object.keys(answers).length === 0) delete next.answers[change.exchange_id];
  if (skipped.size === 0) delete next.skipped[change.exchange_id];
  return next;
}

const cellOf = (v: AnswerValue): string => (typeof v === "boolean" ? (v ? "yes" : "no") : String(v));

/** An item is done when every question is answered or skipped. */
export function itemDone(p: Progress, id: string, questions: readonly AnswerSpec[]): boolean {
  const a = p.answers[id] ?? {};
  const s = p.skipped[id] ?? [];
  return questions.every((q) => a[q.id] !== undefined || s.includes(q.id));
}

export const SKIP_NOTE = "skipped on the labelling page";

/**
 * The labeller's sheet, filled, from their items in the order the page showed them (the
 * labeller's shuffle, or an active round's order): the columns `eval label export` writes (so
 * `eval label import` validates it like any returned sheet), only the rows whose every
 * question is answered or skipped; a skipped answer is left empty with a note naming it.
 */
export function filledSheet(labeler: string, ordered: readonly SheetItem[], questions: readonly AnswerSpec[], p: Progress): string {
  // Each column carries its spec (satisfaction:1-5; a yes/no question is its id), so the sheet
  // re-imports with `eval label import` without repeating --questions.
  const fields = [...SHEET_FIXED_COLUMNS, ...questions.map(specText), SHEET_NOTE_COLUMN];
  const rows: string[][] = [];
  ordered.forEach((it, i) => {
    if (!itemDone(p, it.exchange_id, questions)) return;
    const a = p.answers[it.exchange_id] ?? {};
    const skipped = p.skipped[it.exchange_id] ?? [];
    const cells = questions.map((q) => (a[q.id] === undefined ? "" : cellOf(a[q.id]!)));
    const note = skipped.length > 0 ? `${SKIP_NOTE}: ${skipped.join(", ")}` : "";
    rows.push([labeler, String(i + 1), it.exchange_id, it.previous_ask ?? "", it.reply_end ?? "", it.tool_calls, it.prompt, ...cells, note]);
  });
  // escapeFormulae as buildSheet does: a prompt starting with "=" must not run as a formula.
  return Papa.unparse({ fields, data: rows }, { escapeFormulae: true, newline: "\n" });
}
