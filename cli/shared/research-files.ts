import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { z } from "zod";
import { resolvePaths } from "../../runtime/paths.js";
import type { CommandContext } from "./command.js";
import { badInput, ErrataError } from "../../core/errors.js";

/**
 * File helpers shared by the research commands (calibrate, combiner, classtier, promote):
 * parse JSONL and JSON at the edge with zod (bad input names file and line), and write
 * atomically (temp file + rename). Not a command module (it has no `register`).
 */
export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") throw badInput(`cannot read ${file}`, "an existing file", "no such file");
    throw new ErrataError("IO", `cannot read ${file}: ${e.message}`);
  }
}

export function readJsonl<S extends z.ZodType>(file: string, schema: S): z.infer<S>[] {
  const out: z.infer<S>[] = [];
  const lines = readText(file).split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw badInput(`${file}:${i + 1} is not JSON`, "one JSON object a line", JSON.stringify(line.slice(0, 60)));
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badInput(`${file}:${i + 1} does not match its schema`, `${issue?.path.join(".") || "the record"}: ${issue?.message ?? "valid"}`, JSON.stringify(line.slice(0, 80)));
    }
    out.push(parsed.data);
  });
  return out;
}

export function readJson<S extends z.ZodType>(file: string, schema: S): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(readText(file));
  } catch (err) {
    if (err instanceof ErrataError) throw err;
    throw badInput(`${file} is not JSON`, "a JSON document", "unparsable text");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badInput(`${file} does not match its schema`, `${issue?.path.join(".") || "the document"}: ${issue?.message ?? "valid"}`, "another shape");
  }
  return parsed.data;
}

/** Writes a whole file atomically: a temp file beside it, then rename. */
export function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${Date.now().toString(36)}-${process.pid}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function fileExists(file: string): boolean {
  return existsSync(file);
}

/** A filesystem-safe timestamp from the injected clock: 20261130T120000Z. */
export function stamp(nowMs: number): string {
  return new Date(nowMs).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

/** Parses a number option, refusing anything else with a clear message. */
export function numberOption(name: string, raw: string | number | undefined, fallback: number, range: [number, number]): number {
  if (raw === undefined) return fallback;
  const v = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(v) || v < range[0] || v > range[1]) throw badInput(`bad --${name}`, `a number in [${range[0]}, ${range[1]}]`, JSON.stringify(raw));
  return v;
}

export function intOption(name: string, raw: string | number | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const v = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isInteger(v) || v < min) throw badInput(`bad --${name}`, `a whole number >= ${min}`, JSON.stringify(raw));
  return v;
}

/** Where a candidate goes: `<v4>/candidates/NAME` unless --out; never a promoted configuration. */
export function candidatePath(ctx: CommandContext, out: string | undefined, name: string): string {
  const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
  const file = out ? resolve(ctx.io.cwd, out) : join(paths.v4Dir, "candidates", name);
  if (basename(file) === "promoted.json" || file === join(paths.ledgerDir, "promoted.json")) {
    throw badInput("refusing to write the promoted configuration", "a candidate path (errata promote writes promoted.json)", file);
  }
  return file;
}

