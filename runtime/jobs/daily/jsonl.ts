import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { z } from "zod";

/**
 * Small JSONL helpers for the daily loop's own files (runs, events, audit, upgrades).
 * Reading is torn-line tolerant: a line that is not JSON or fails its schema is counted in
 * `bad` and skipped, never fatal. Example: a file holding one good line and a torn tail
 * `{"schema":"run/1",` reads as `{rows: [<the good line>], bad: 1}`.
 */
export interface JsonlRead<T> {
  rows: T[];
  bad: number;
}

export function readJsonl<S extends z.ZodType>(path: string, schema: S): JsonlRead<z.output<S>> {
  if (!existsSync(path)) return { rows: [], bad: 0 };
  const rows: z.output<S>[] = [];
  let bad = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      bad++;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) rows.push(parsed.data);
    else bad++;
  }
  return { rows, bad };
}

/** Reads lines of any of several schemas, dispatched on the line's `schema` field. */
export function readJsonlRaw(path: string): { values: unknown[]; bad: number } {
  if (!existsSync(path)) return { values: [], bad: 0 };
  const values: unknown[] = [];
  let bad = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      bad++;
    }
  }
  return { values, bad };
}

/**
 * Appends whole lines in one write. When the file ends in a torn line (no final newline),
 * a newline is written first so the new line is never glued onto the torn one.
 */
export function appendJsonl(path: string, values: readonly unknown[]): void {
  if (values.length === 0) return;
  mkdirSync(dirname(path), { recursive: true });
  let prefix = "";
  if (existsSync(path)) {
    const size = statSync(path).size;
    if (size > 0) {
      const fd = openSync(path, "r");
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      closeSync(fd);
      if (last[0] !== 0x0a) prefix = "\n";
    }
  }
  appendFileSync(path, prefix + values.map((v) => JSON.stringify(v)).join("\n") + "\n", { flag: "a" });
}

/** Writes a whole file atomically (temp file + rename). */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
