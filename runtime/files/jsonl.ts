/**
 * JSONL files the program writes and reads back (answers, caches, exchanges, the daily
 * loop's logs, inputs handed to a command): one JSON value per line.
 *
 * The bad-line policy, one for every reader (the ledger's own reader, runtime/store, follows
 * the same rules with the same codes):
 * - A blank line is skipped silently (an append after a torn tail can leave none, but a
 *   hand-edited file may).
 * - The last line of a file, with no newline after it, that is not JSON is a torn tail (a
 *   write cut short by a crash, power loss or a full disk): skipped, and reported as a
 *   `torn-tail` problem of severity "warning". A last line without its newline that is
 *   JSON is read as a row.
 * - Any other line that is not JSON is `malformed-json` (severity "error"), and a JSON line
 *   that fails the schema is `schema` (severity "error"): skipped and reported with file,
 *   line, what was expected and what was found. Nothing is guessed or repaired.
 * - Appending sets a torn tail apart: when the file's last byte is not a newline, the write
 *   starts with one, so the fragment becomes its own malformed line (reported, skipped by
 *   every later read) and no new row is ever glued onto it. An append is one `write(2)` of
 *   whole lines to a file opened with O_APPEND: concurrent appenders never interleave within
 *   a line, and a crash leaves at most one torn tail.
 *
 * Readers never throw on content. What a problem means is the caller's call: a log or a
 * cache skips and counts; a command's input file is refused at its first error
 * (`firstError`).
 *
 * Example: a file `{"a":1}\n{"a":\n{"a":3}\n{"a":` read with `z.object({a: z.number()})`
 * -> `{rows: [{a: 1}, {a: 3}], problems: [{line: 2, code: "malformed-json", severity:
 * "error", …}, {line: 4, code: "torn-tail", severity: "warning", …}]}`; appending `{"a":5}`
 * then writes `\n{"a":5}\n`, so line 4 stays a (now malformed) fragment and line 5 is whole.
 */
import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import { describeFound, ErrataError } from "../../core/errors.js";
import { appendWhole } from "./append.js";
import { readLines } from "./lines.js";

export type JsonlProblemCode = "torn-tail" | "malformed-json" | "schema";

export interface JsonlProblem {
  /** The file as the caller named it. */
  file: string;
  /** 1-based physical line number. */
  line: number;
  code: JsonlProblemCode;
  severity: "warning" | "error";
  expected: string;
  found: string;
}

export interface JsonlRead<T> {
  rows: T[];
  problems: JsonlProblem[];
}

export interface JsonlReadOptions {
  /** What one good line is, for `expected` (default "a valid row"), e.g. "an answer/1 row". */
  what?: string;
  /** The file's name in problems (default: the path as given). */
  name?: string;
  /**
   * Return each row as it was read (checked by the schema, but not zod's output, which drops
   * unknown keys and reorders the rest): for callers that write rows back and hash them.
   */
  asRead?: boolean;
}

type Checked<T> = { ok: true; value: T } | { ok: false; problem: JsonlProblem } | null;

/** Applies the policy to one line; null for a blank line. */
function checkLine<S extends z.ZodType>(text: string, line: number, terminated: boolean, file: string, schema: S, what: string, asRead = false): Checked<z.output<S>> {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (!terminated) {
      return {
        ok: false,
        problem: { file, line, code: "torn-tail", severity: "warning", expected: "a last line that is whole JSON", found: `an unterminated fragment of ${Buffer.byteLength(text)} bytes: ${describeFound(text)}` },
      };
    }
    return { ok: false, problem: { file, line, code: "malformed-json", severity: "error", expected: `${what}: one JSON value a line`, found: describeFound(text) } };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: (asRead ? value : parsed.data) as z.output<S> };
  const issue = parsed.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "";
  const at = path === "" ? value : valueAt(value, issue?.path ?? []);
  return {
    ok: false,
    problem: {
      file,
      line,
      code: "schema",
      severity: "error",
      expected: `${what} (${path === "" ? "" : `${path}: `}${issue?.message ?? "valid"})`,
      found: `${path === "" ? "" : `${path} = `}${describeFound(at)}`,
    },
  };
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * Parses JSONL text already in memory (a caller that also hashes the bytes, say) under the
 * policy above. `file` names the source in problems.
 */
export function parseJsonlText<S extends z.ZodType>(text: string, file: string, schema: S, opts: JsonlReadOptions = {}): JsonlRead<z.output<S>> {
  const what = opts.what ?? "a valid row";
  const rows: z.output<S>[] = [];
  const problems: JsonlProblem[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const terminated = i < lines.length - 1;
    const r = checkLine(lines[i]!, i + 1, terminated, file, schema, what, opts.asRead === true);
    if (r === null) continue;
    if (r.ok) rows.push(r.value);
    else problems.push(r.problem);
  }
  return { rows, problems };
}

/** Reads a whole file under the policy; a missing file reads as empty (no rows, no problems). */
export function readJsonl<S extends z.ZodType>(path: string, schema: S, opts: JsonlReadOptions = {}): JsonlRead<z.output<S>> {
  if (!existsSync(path)) return { rows: [], problems: [] };
  return parseJsonlText(readFileSync(path, "utf8"), opts.name ?? path, schema, opts);
}

export interface JsonlIterateOptions extends JsonlReadOptions {
  /** Called for each problem as it is met (default: dropped). */
  onProblem?: (p: JsonlProblem) => void;
}

/**
 * Streams a file's good rows with their line numbers, holding one chunk and one line at a
 * time (for files too large to read whole, like a long-lived exchanges.jsonl). A missing
 * file yields nothing.
 */
export async function* iterateJsonl<S extends z.ZodType>(path: string, schema: S, opts: JsonlIterateOptions = {}): AsyncGenerator<{ line: number; row: z.output<S> }> {
  if (!existsSync(path)) return;
  const what = opts.what ?? "a valid row";
  const file = opts.name ?? path;
  for await (const l of readLines(path)) {
    const r = checkLine(l.text, l.lineNo, l.terminated, file, schema, what);
    if (r === null) continue;
    if (r.ok) yield { line: l.lineNo, row: r.value };
    else opts.onProblem?.(r.problem);
  }
}

/** Counts a file's good rows (streamed, nothing kept) and returns its problems. */
export async function countJsonl(path: string, schema: z.ZodType, opts: JsonlReadOptions = {}): Promise<{ rows: number; problems: JsonlProblem[] }> {
  const problems: JsonlProblem[] = [];
  let rows = 0;
  for await (const _ of iterateJsonl(path, schema, { ...opts, onProblem: (p) => problems.push(p) })) rows++;
  return { rows, problems };
}

/** The first problem of severity "error", if any: what a reader of a command's input refuses. */
export function firstError(problems: readonly JsonlProblem[]): JsonlProblem | undefined {
  return problems.find((p) => p.severity === "error");
}

/** One line for a person: `v4/answers.jsonl:12: schema: expected …; found …`. */
export function formatProblem(p: JsonlProblem): string {
  return `${p.file}:${p.line}: ${p.code === "torn-tail" ? "torn last line skipped" : `${p.code} line skipped`} (expected ${p.expected}; found ${p.found})`;
}

/**
 * Hands each problem to `warn` as one line, at most `max` of them (a file written by an
 * older version can hold thousands), then one line with how many more there were.
 */
export function reportProblems(problems: readonly JsonlProblem[], warn: (line: string) => void, max = 10): void {
  for (const p of problems.slice(0, max)) warn(formatProblem(p));
  if (problems.length > max) warn(`… and ${problems.length - max} more unreadable lines`);
}

/** Where a reader without a caller's sink reports problems: stderr, one line each. */
export function warnOnStderr(line: string): void {
  process.stderr.write(`errata: ${line}\n`);
}

export interface JsonlAppend {
  bytes: number;
  /** The file ended in a torn fragment, and the write started on a fresh line. */
  setApartTornTail: boolean;
}

/**
 * Appends values as whole lines in one write to a file opened with O_APPEND (created, with
 * its folder, when missing), setting a torn tail apart first (see the policy above).
 * `fsync: true` also flushes to the device before returning. Nothing to append writes
 * nothing.
 */
export function appendJsonl(path: string, values: readonly unknown[], opts: { fsync?: boolean } = {}): JsonlAppend {
  if (values.length === 0) return { bytes: 0, setApartTornTail: false };
  let body = "";
  for (const v of values) {
    const line = JSON.stringify(v);
    if (line === undefined) throw new ErrataError("BAD_INPUT", `cannot append to ${path}`, { expected: "JSON values", found: describeFound(String(v)) });
    body += `${line}\n`;
  }
  return appendWhole(path, Buffer.from(body, "utf8"), opts);
}
