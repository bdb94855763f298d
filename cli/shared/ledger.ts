/**
 * Shared pieces of the ledger commands (add, list, show, stats, validate, rotate): opening
 * the ledger from the command's Io, reporting read problems on stderr, and parsing the
 * option values they share.
 *
 * Example: `const ledger = ledgerFor(ctx)` -> the ledger at ERRATA_DIR (or the default),
 * warnings to `ctx.io.stderr`.
 */
import { relative } from "node:path";
import type { CommandContext } from "./command.js";
import { badInput, describeFound } from "../../core/errors.js";
import { warn } from "./io.js";
import { resolvePaths, type ErrataPaths } from "../../runtime/paths.js";
import { openLedger, type Ledger, type ReadProblem } from "../../runtime/store/index.js";
import { KINDS, SOURCES, STATUSES } from "../../schemas/erratum-constants.js";

export function pathsFor(ctx: CommandContext): ErrataPaths {
  return resolvePaths(ctx.io.env, ctx.io.cwd);
}

export function ledgerFor(ctx: CommandContext, opts: { fsync?: boolean } = {}): Ledger {
  return openLedger(pathsFor(ctx), {
    now: ctx.io.now,
    warn: (line) => warn(ctx.io, line),
    fsync: opts.fsync ?? false,
  });
}

/** Prints read problems on stderr as `file:line: code: message`. */
export function reportProblems(ctx: CommandContext, problems: readonly ReadProblem[]): void {
  for (const p of problems) warn(ctx.io, `errata: ${formatProblem(p)}`);
}

export function formatProblem(p: ReadProblem): string {
  return `${p.file}:${p.line}: ${p.severity} ${p.code}: ${p.message}`;
}

/** A path relative to the ledger folder for messages (absolute paths stay out of output). */
export function rel(paths: ErrataPaths, file: string): string {
  return relative(paths.ledgerDir, file) || ".";
}

export function oneOf<T extends string>(name: string, allowed: readonly T[], value: string | undefined): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badInput(`bad --${name}`, `one of ${allowed.join(", ")}`, describeFound(value));
  }
  return value as T;
}

export const parseKind = (v: string | undefined) => oneOf("kind", KINDS, v);
export const parseStatus = (v: string | undefined) => oneOf("status", STATUSES, v);
export const parseSource = (v: string | undefined) => oneOf("source", SOURCES, v);

export function parseNumber(name: string, value: string | undefined, opts: { integer?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(n) || (opts.integer && !Number.isInteger(n))) {
    throw badInput(`bad --${name}`, opts.integer ? "a whole number" : "a number", describeFound(value));
  }
  return n;
}

/**
 * True when the `YYYY-MM-DD` at the start of `value` is a day on the calendar. `Date.parse`
 * alone accepts 2026-02-30 and rolls it to 2026-03-02, so the parts are checked round trip.
 *
 * Example: `isCalendarDate("2024-02-29")` -> true; `isCalendarDate("2026-02-30")` -> false.
 */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** A time given as `YYYY-MM-DDTHH:MM[:SS[.sss]]Z` (or with an offset) on a real calendar day -> its ISO form in UTC. */
export function parseTime(name: string, value: string, expected = "a UTC ISO-8601 time on a real calendar day"): string {
  const v = value.trim();
  const ms = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(v) || Number.isNaN(ms) || !isCalendarDate(v)) throw badInput(`bad --${name}`, expected, describeFound(value));
  return new Date(ms).toISOString();
}

/** `YYYY-MM-DD` or a full ISO time, on a real calendar day -> an ISO time for comparisons with `ts`. */
export function parseSince(value: string | undefined, name = "since"): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    if (!isCalendarDate(v)) throw badInput(`bad --${name}`, "a date YYYY-MM-DD on the calendar", describeFound(value));
    return `${v}T00:00:00.000Z`;
  }
  const ms = Date.parse(v);
  if (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(ms) && isCalendarDate(v)) return new Date(ms).toISOString();
  throw badInput(`bad --${name}`, "a date YYYY-MM-DD or an ISO time, on the calendar", describeFound(value));
}

/** Shortens text to one line of at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
