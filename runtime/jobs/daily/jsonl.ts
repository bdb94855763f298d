import { z } from "zod";
import { appendJsonl as appendLines, readJsonl as readRows, type JsonlProblem } from "../../files/index.js";
import { redactForWrite } from "../../privacy/index.js";

export { writeFileAtomic } from "../../files/index.js";

/**
 * The daily loop's own files (runs, events, audit, upgrades) through the one JSONL module
 * (runtime/files/jsonl.ts, where the bad-line policy is): a line that is not JSON or fails
 * its schema is counted in `bad`, listed in `problems` and skipped, never fatal. Example: a
 * file holding one good line and a torn tail `{"schema":"run/1",` reads as
 * `{rows: [<the good line>], bad: 1, problems: [{line: 2, code: "torn-tail", …}]}`.
 */
export interface JsonlRead<T> {
  rows: T[];
  bad: number;
  problems: JsonlProblem[];
}

export function readJsonl<S extends z.ZodType>(path: string, schema: S): JsonlRead<z.output<S>> {
  const r = readRows(path, schema);
  return { rows: r.rows, bad: r.problems.length, problems: r.problems };
}

/** Reads lines of any of several schemas (dispatched by the caller on the line's `schema` field). */
export function readJsonlRaw(path: string): { values: unknown[]; bad: number } {
  const r = readRows(path, z.unknown());
  return { values: r.rows, bad: r.problems.length };
}

/**
 * Appends whole lines in one write; a torn tail is set apart first, so no line is glued onto
 * it. Every string passes the redaction entry point: audit proposals and upgrades hold a
 * model's prose about a complaint.
 */
export function appendJsonl(path: string, values: readonly unknown[]): void {
  appendLines(
    path,
    values.map((v) => redactForWrite(v).value),
  );
}
