import type { Writable } from "node:stream";

/**
 * Everything a command touches outside itself: output streams, environment, clock,
 * working directory and stdin. Tests pass their own; `defaultIo()` wires the process.
 */
export interface Io {
  stdout: Pick<Writable, "write">;
  stderr: Pick<Writable, "write">;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Whole stdin as text (commands that read stdin call this once). */
  readStdin: () => Promise<string>;
  /** True when stderr is a terminal, so long work may draw a progress bar. */
  isTTY: boolean;
  /** `--quiet`: no progress bars even on a terminal. */
  quiet?: boolean;
}

export function defaultIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
    readStdin: () => readAll(process.stdin),
    isTTY: Boolean(process.stderr.isTTY),
  };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Writes exactly one JSON value and a newline: the `--json` contract. Keys are written in one
 * case, snake_case, as the records are: a camelCase key of an internal type (`exchangesRead`)
 * is renamed here, at the output boundary, so the code's own fields stay as they are. Only
 * keys that are camelCase identifiers change; data used as keys (question ids
 * `detect.unhappy`, classes, erratum ids, `assistant/complaint`, tool names) never matches.
 */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(snakeKeys(value), null, 2)}\n`);
}

const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

/** `exchangesRead` -> `exchanges_read`, `bankHash` -> `bank_hash`, `p95Ms` -> `p95_ms`; other keys unchanged. */
export function snakeKey(key: string): string {
  return CAMEL.test(key) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key;
}

/** A copy of `value` with every object key through `snakeKey` (toJSON honoured first, as JSON.stringify does). */
export function snakeKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const v = value as { toJSON?: () => unknown };
  if (typeof v.toJSON === "function") return snakeKeys(v.toJSON());
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value instanceof Map || value instanceof Set) return value;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(value)) out[snakeKey(k)] = snakeKeys(x);
  return out;
}

/** "1 file", "2 files": a count with its noun, plural unless the count is 1. Example: `count(1, "row")` -> "1 row". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function println(io: Io, line = ""): void {
  io.stdout.write(`${line}\n`);
}

export function warn(io: Io, line: string): void {
  io.stderr.write(`${line}\n`);
}

export { progress, showsProgress, type Progress } from "./progress.js";

/**
 * A run that did nothing useful (found no input, or every answer came back unscored) says so:
 * one line on stderr, why and what to do, and exit 1, so a script never mistakes it for a
 * quiet success. Whatever the command printed on stdout (its `--json` value) stands.
 *
 * Example: `didNothing(ctx, "every answer is unscored (no weights for these questions)", "ask with --lane openai")`
 * -> stderr "errata: did nothing: every answer is unscored (no weights for these questions); ask with --lane openai", exit 1.
 */
export function didNothing(ctx: { io: Io; exitCode: number }, why: string, todo: string): void {
  warn(ctx.io, `errata: did nothing: ${why}; ${todo}`);
  ctx.exitCode = 1;
}
