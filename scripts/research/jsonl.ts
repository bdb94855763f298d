// Small file helpers for the research loop: JSONL and JSON read/write, SHA-256.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { z } from "zod";
import { ErrataError } from "../../core/errors.js";

/**
 * Every non-empty line of `file`, each checked against `schema`; a line that is not JSON or
 * not a valid row is an error naming file and line. The loop's only JSONL reader.
 *
 * The rows are returned as read, not as zod's output: the loop writes them back and hashes
 * the files (the engine's weights record those hashes, and the model id is a hash of the
 * weights), and zod's output would drop unknown keys and reorder the rest.
 *
 * Example: readJsonl("datasets/ab-redial/labels.jsonl", LabelSchema)
 * -> [{schema: "label/1", exchange_id: "ex-…", labeler: "ab-redial:r1", question: "satisfaction", value: 4, …}, …]
 */
export function readJsonl<S extends z.ZodType>(file: string, schema: S): z.output<S>[] {
  const out: z.output<S>[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new ErrataError("BAD_INPUT", `${file}:${i + 1}: not JSON`, { expected: "one JSON value a line", found: JSON.stringify(line.slice(0, 60)) });
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ErrataError("BAD_INPUT", `${file}:${i + 1}: not a valid row`, { expected: `${issue?.path.join(".") || "the row"}: ${issue?.message ?? "valid"}`, found: JSON.stringify(line.slice(0, 80)) });
      }
      out.push(value as z.output<S>);
    });
  return out;
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
