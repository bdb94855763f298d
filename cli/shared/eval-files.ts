import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { z } from "zod";
import { EvalInputError } from "../../eval/index.js";
import { resolvePaths } from "../../runtime/paths.js";
import { badInput, describeFound, ErrataError } from "../../core/errors.js";
import type { Io } from "./io.js";

/**
 * File helpers of the `eval` commands: where the eval folder is, strict JSONL reading
 * (a line that does not parse is bad input, named by file and line), atomic writes.
 *
 * Example: `evalPaths(io)` → `{dir: "<ledger>/eval", gold: "<ledger>/eval/gold.jsonl", …}`.
 */
export function evalPaths(io: Io) {
  const paths = resolvePaths(io.env, io.cwd);
  const dir = join(paths.ledgerDir, "eval");
  return {
    dir,
    v4Dir: paths.v4Dir,
    gold: join(dir, "gold.jsonl"),
    manifest: join(dir, "gold.json"),
    labels: join(dir, "labels.jsonl"),
    sheets: join(dir, "sheets"),
    bars: join(dir, "eval-bars.json"),
    adjudications: join(dir, "adjudications.jsonl"),
    active: join(dir, "active.jsonl"),
  };
}

export function readText(file: string): string {
  if (!existsSync(file)) throw badInput("no such file", "an existing file", describeFound(file));
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new ErrataError("IO", `cannot read ${file}`, { cause: e });
  }
}

/** Reads JSONL rows under a zod schema; any bad line is bad input with its line number. */
export function readJsonlStrict<S extends z.ZodType>(file: string, schema: S, what: string): z.infer<S>[] {
  const rows: z.infer<S>[] = [];
  readText(file)
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw badInput(`${file} line ${i + 1} is not JSON`, `one ${what} JSON object per line`, describeFound(line));
      }
      const p = schema.safeParse(value);
      if (!p.success) {
        const issue = p.error.issues[0];
        throw badInput(`${file} line ${i + 1} is not a valid ${what} row`, `${issue?.path.join(".") || "row"}: ${issue?.message ?? "valid"}`, describeFound(line));
      }
      rows.push(p.data);
    });
  return rows;
}

export function readJsonStrict<S extends z.ZodType>(file: string, schema: S, what: string): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(readText(file));
  } catch (e) {
    if (e instanceof ErrataError) throw e;
    throw badInput(`${file} is not JSON`, what, "unparsable text");
  }
  const p = schema.safeParse(value);
  if (!p.success) {
    const issue = p.error.issues[0];
    throw badInput(`${file} is not ${what}`, `${issue?.path.join(".") || "value"}: ${issue?.message ?? "valid"}`, describeFound(value));
  }
  return p.data;
}

/** Writes a file whole or not at all (temp file, then rename). */
export function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export const toJsonl = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length > 0 ? "\n" : "");

export const resolveFrom = (io: Io, file: string): string => resolve(io.cwd, file);

/** Runs pure eval code, turning its input errors into the CLI's bad input (exit 2). */
export function pure<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EvalInputError) throw badInput(e.message.replace(/ \(expected .*$/s, ""), e.expected, e.found);
    throw e;
  }
}

export function parseIntOption(name: string, raw: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw badInput(`bad ${name}`, `an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}`, describeFound(raw));
  return n;
}

export function parseNumberOption(name: string, raw: string | undefined, fallback: number, lo: number, hi: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < lo || n > hi) throw badInput(`bad ${name}`, `a number in [${lo}, ${hi}]`, describeFound(raw));
  return n;
}

export const listOption = (raw: string | undefined): string[] | undefined =>
  raw === undefined ? undefined : raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
