// Small file helpers for the research loop: JSONL and JSON read/write, SHA-256.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { z } from "zod";
import { ErrataError } from "../../core/errors.js";
import { readJsonl as readJsonlFile } from "../../runtime/files/jsonl.js";

/**
 * Every row of `file` under the project's one JSONL policy (runtime/files/jsonl.ts), each
 * checked against `schema`; the loop's inputs are refused at their first problem (a line that
 * is not JSON, not a valid row, or torn), naming file and line. A missing file is an error.
 *
 * The rows are returned as read, not as zod's output: the loop writes them back and hashes
 * the files (the engine's weights record those hashes, and the model id is a hash of the
 * weights), and zod's output would drop unknown keys and reorder the rest.
 *
 * Example: readJsonl("datasets/ab-redial/labels.jsonl", LabelSchema)
 * -> [{schema: "label/1", exchange_id: "ex-…", labeler: "ab-redial:r1", question: "satisfaction", value: 4, …}, …]
 */
export function readJsonl<S extends z.ZodType>(file: string, schema: S): z.output<S>[] {
  if (!existsSync(file)) throw new ErrataError("NOT_FOUND", `${file}: no such file`, { expected: "a JSONL file", found: "nothing" });
  const read = readJsonlFile(file, schema, { asRead: true });
  const bad = read.problems[0];
  if (bad !== undefined) throw new ErrataError("BAD_INPUT", `${bad.file}:${bad.line}: ${bad.code === "schema" ? "not a valid row" : bad.code === "torn-tail" ? "a torn last line" : "not JSON"}`, { expected: bad.expected, found: bad.found });
  return read.rows;
}

/** Writes one JSON value a line (creating the folder); returns the file. */
export function writeJsonl(file: string, rows: readonly unknown[]): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length > 0 ? "\n" : ""));
  return file;
}

/** Writes indented JSON and a newline (creating the folder); returns the file. */
export function writeJson(file: string, value: unknown): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
  return file;
}

/** One JSON file checked against `schema`, returned as read (see readJsonl). */
export function readJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  const value: unknown = JSON.parse(readFileSync(file, "utf8"));
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ErrataError("BAD_INPUT", `${file}: not a valid record`, { expected: `${issue?.path.join(".") || "the record"}: ${issue?.message ?? "valid"}`, found: "another shape" });
  }
  return value as z.output<S>;
}

export function sha256File(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}
