import Papa from "papaparse";
import { describeSpec, parseAnswer, parseAnswerSpec, type AnswerSpec } from "./answer-spec.js";
import { fnv1a32Utf16 } from "../core/fnv1a.js";
import { mulberry32 } from "../core/mulberry32.js";
import { shuffleInPlace } from "../core/shuffle.js";

/**
 * Blind labelling sheets (CSV, for any spreadsheet). Export: one labeller's sheet holds the
 * items' text and one empty column per question, items in an order shuffled per labeller
 * (seeded by the labeller id, so re-exporting gives the same order and two labellers see
 * different orders), and nothing else: no other labeller's answers, no judge's answers, no
 * stratum. Import: a returned sheet is validated whole; any error (unknown item, missing or
 * invalid answer, duplicate row, a row of another labeller, an unknown column) is reported
 * with its spreadsheet row number (the header is row 1) and nothing is imported.
 *
 * A blank answer is allowed only when the row's `note` says why (the brief: "when you cannot
 * read it at all, leave it empty and say why"); that answer is then not given.
 *
 * Example: `validateSheet(csv, {items: new Set(["ex-1"]), questions: [{id: "detect.unhappy", kind: "yesno"}]})`
 * on a sheet whose row 3 says "maybe" → `{ok: false, errors: [{row: 3, column: "detect.unhappy",
 * code: "invalid_answer", message: "row 3: detect.unhappy is \"maybe\"; expected yes or no"}]}`.
 */
export const SHEET_FIXED_COLUMNS = ["labeler", "item", "exchange_id", "previous_ask", "reply_end", "tool_calls", "prompt"] as const;
export const SHEET_NOTE_COLUMN = "note";
/**
 * The columns of an active-labelling round's sheet: the round and each item's inclusion
 * probability, so the sheet carries what the estimate needs and `eval label import` can check
 * it against `active.jsonl`. The items are then in the round's order (most informative first),
 * the same for every labeller.
 */
export const SHEET_ACTIVE_COLUMNS = ["active_round", "pi"] as const;

export interface SheetActive { round: number; pi: ReadonlyMap<string, number> }

export interface SheetItem {
  exchange_id: string;
  previous_ask: string | null;
  reply_end: string | null;
  tool_calls: string;
  prompt: string;
}

/** The per-labeller order: a shuffle seeded by the labeller id. */
export function labellerOrder<T>(items: readonly T[], labeler: string): T[] {
  return shuffleInPlace([...items], mulberry32(fnv1a32Utf16(`errata-sheet/1\u0000${labeler}`)));
}

/**
 * `columnName` names a question's column (default its id); `eval label export` writes the
 * spec itself (`satisfaction:1-5`) for a question the importer would not know by its id, so
 * the sheet re-imports without repeating `--questions`.
 */
export function buildSheet(labeler: string, items: readonly SheetItem[], questions: readonly AnswerSpec[], columnName: (q: AnswerSpec) => string = (q) => q.id, active?: SheetActive): string {
  const fields = [...SHEET_FIXED_COLUMNS, ...(active ? SHEET_ACTIVE_COLUMNS : []), ...questions.map(columnName), SHEET_NOTE_COLUMN];
  // An active round keeps its order (the most informative first); a gold sheet is shuffled per labeller.
  const rows = (active ? [...items] : labellerOrder(items, labeler)).map((it, i) => [
    labeler,
    String(i + 1),
    it.exchange_id,
    it.previous_ask ?? "",
    it.reply_end ?? "",
    it.tool_calls,
    it.prompt,
    // String(x) round-trips a double exactly, so the import can compare with active.jsonl.
    ...(active ? [String(active.round), String(active.pi.get(it.exchange_id) ?? "")] : []),
    ...questions.map(() => ""),
    "",
  ]);
  // escapeFormulae: a prompt starting with "=" must not run as a spreadsheet formula.
  return Papa.unparse({ fields, data: rows }, { escapeFormulae: true, newline: "\n" });
}

export type SheetErrorCode =
  | "csv"
  | "no_rows"
  | "missing_column"
  | "unknown_column"
  | "missing_item"
  | "unknown_item"
  | "duplicate_row"
  | "labeler"
  | "missing_answer"
  | "invalid_answer"
  | "invalid_value";

export interface SheetError {
  /** Spreadsheet row (header = 1); 1 for header problems. */
  row: number;
  column: string | null;
  code: SheetErrorCode;
  message: string;
}

export interface SheetAnswer {
  exchange_id: string;
  question: string;
  value: boolean | number | string;
  row: number;
}

export type SheetResult =
  | { ok: true; labeler: string; rows: number; answers: SheetAnswer[]; skipped: { row: number; question: string; note: string }[]; questions: string[]; active: { row: number; exchange_id: string; round: number; pi: number }[] | null }
  | { ok: false; errors: SheetError[] };

export function validateSheet(
  text: string,
  opts: { items: ReadonlySet<string>; questions: readonly AnswerSpec[]; labeler?: string },
): SheetResult {
  const errors: SheetError[] = [];
  const err = (row: number, column: string | null, code: SheetErrorCode, message: string): void => {
    errors.push({ row, column, code, message: `row ${row}: ${message}` });
  };
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" });
  for (const e of parsed.errors) err((e.row ?? 0) + 1, null, "csv", `CSV ${e.code}: ${e.message}`);
  const [header, ...data] = parsed.data;
  if (!header) return { ok: false, errors: [{ row: 1, column: null, code: "no_rows", message: "row 1: the sheet is empty; expected a header row" }] };
  const cols = header.map((h) => h.trim());
  const col = (name: string): number => cols.indexOf(name);
  for (const name of ["labeler", "exchange_id"]) if (col(name) < 0) err(1, name, "missing_column", `no ${name} column; expected the header written by eval label export`);
  const specs = new Map(opts.questions.map((q) => [q.id, q]));
  const answerCols: { index: number; spec: AnswerSpec }[] = [];
  cols.forEach((c, index) => {
    if ((SHEET_FIXED_COLUMNS as readonly string[]).includes(c) || (SHEET_ACTIVE_COLUMNS as readonly string[]).includes(c) || c === SHEET_NOTE_COLUMN) return;
    let spec = specs.get(c);
    if (!spec && c.includes(":")) {
      // A column that carries its spec (written by eval label export for a question the
      // default bank does not hold): read it from the header.
      try {
        spec = parseAnswerSpec(c);
      } catch (e) {
        err(1, c, "unknown_column", `column ${JSON.stringify(c)} names a question spec that does not parse: ${(e as Error).message}`);
        return;
      }
    }
    if (spec) answerCols.push({ index, spec });
    else err(1, c, "unknown_column", `column ${JSON.stringify(c)} is not a question of this sheet; expected one of ${[...specs.keys()].join(", ")}`);
  });
  if (answerCols.length === 0 && errors.length === 0) err(1, null, "missing_column", "no question columns");
  const hasActive = SHEET_ACTIVE_COLUMNS.map((c) => col(c) >= 0);
  if (hasActive[0] !== hasActive[1]) err(1, hasActive[0] ? "pi" : "active_round", "missing_column", `an active round's sheet has both ${SHEET_ACTIVE_COLUMNS.join(" and ")}; found only ${hasActive[0] ? "active_round" : "pi"}`);
  if (data.length === 0) err(2, null, "no_rows", "no item rows");
  if (errors.some((e) => e.row === 1)) return { ok: false, errors };

  const iL = col("labeler");
  const iX = col("exchange_id");
  const iN = col(SHEET_NOTE_COLUMN);
  const labeler = opts.labeler ?? (data[0]?.[iL] ?? "").trim();
  if (labeler === "") err(2, "labeler", "labeler", "labeler is empty; expected the labeller id the sheet was exported for");
  const seen = new Map<string, number>();
  const answers: SheetAnswer[] = [];
  const skipped: { row: number; question: string; note: string }[] = [];
  const iR = col("active_round");
  const iP = col("pi");
  const active: { row: number; exchange_id: string; round: number; pi: number }[] | null = iR >= 0 && iP >= 0 ? [] : null;
  data.forEach((cells, k) => {
    const row = k + 2;
    const cell = (i: number): string => (i >= 0 ? (cells[i] ?? "") : "").trim();
    const who = cell(iL);
    if (who !== labeler) err(row, "labeler", "labeler", `labeler is ${JSON.stringify(who)}; expected ${JSON.stringify(labeler)} (one labeller per sheet)`);
    const id = cell(iX);
    if (id === "") {
      err(row, "exchange_id", "missing_item", "exchange_id is empty");
      return;
    }
    if (!opts.items.has(id)) err(row, "exchange_id", "unknown_item", `exchange_id ${JSON.stringify(id)} is not in the gold set`);
    const first = seen.get(id);
    if (first !== undefined) err(row, "exchange_id", "duplicate_row", `exchange_id ${id} is also on row ${first}`);
    else seen.set(id, row);
    if (active) {
      const r = Number(cell(iR));
      const p = Number(cell(iP));
      if (!(Number.isInteger(r) && r >= 1)) err(row, "active_round", "invalid_value", `active_round is ${JSON.stringify(cell(iR))}; expected the round number written by eval label export`);
      else if (!(p > 0 && p <= 1)) err(row, "pi", "invalid_value", `pi is ${JSON.stringify(cell(iP))}; expected the inclusion probability in (0, 1] written by eval label export`);
      else active.push({ row, exchange_id: id, round: r, pi: p });
    }
    const note = cell(iN);
    for (const { index, spec } of answerCols) {
      const raw = cell(index);
      if (raw === "") {
        if (note !== "") skipped.push({ row, question: spec.id, note });
        else err(row, spec.id, "missing_answer", `${spec.id} is empty; expected ${describeSpec(spec)} (or a note saying why it is left empty)`);
        continue;
      }
      const a = parseAnswer(spec, raw);
      if (a.ok) answers.push({ exchange_id: id, question: spec.id, value: a.value, row });
      else err(row, spec.id, "invalid_answer", `${spec.id} is ${JSON.stringify(raw)}; expected ${describeSpec(spec)}`);
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, labeler, rows: data.length, answers, skipped, questions: answerCols.map((a) => a.spec.id), active };
}
