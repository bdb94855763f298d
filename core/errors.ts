/**
 * The one base of Errata's errors, `CodedError`: a stable `code` (what went wrong, for
 * programs and tests), a `kind` (what sort of problem it is, which decides the exit code),
 * and what was `expected` and what was `found` (for the person reading the message). Each
 * area subclasses it under its own name (`EvalInputError`, `EngineConfigError`,
 * `AppendError`, `CalibrationError`, ...); library code throws them and only the CLI turns
 * them into an exit code, in one place (`run()` in cli/main.ts, through `exitCodeOfKind`).
 * No imports, no I/O: the pure folders and the capture hook import it at no cost.
 *
 * Kinds and their exit codes:
 *
 * | kind          | meaning                                                      | exit |
 * | ------------- | ------------------------------------------------------------ | ---- |
 * | `input`       | an argument, a file's content or a value the code cannot use | 2    |
 * | `config`      | a configuration (file or environment) that cannot be used    | 2    |
 * | `not_found`   | something named (a file, an id, weights) does not exist      | 2    |
 * | `unsupported` | a capability this build or setup does not have               | 2    |
 * | `budget`      | a spending limit refused the work                            | 2    |
 * | `io`          | the file system or a device failed                           | 2    |
 * | `check`       | a check ran and failed (a gate, a bar, a verification)       | 1    |
 * | `internal`    | a broken invariant: a bug in Errata, reported with its stack | 2    |
 *
 * Exit 0 is success. A Node system error (an object with a numeric `errno` and a `syscall`,
 * e.g. ENOENT from `readFileSync`) is an I/O fault: `isSystemError` recognises it by those
 * fields, not by the shape of its code (`EMPTY` is an evaluation code, not an OS one).
 *
 * Example: `new ErrataError("BAD_INPUT", "bad --k", { expected: "an integer >= 2", found: "1" })`
 * has kind "input", exit code 2 and message "bad --k (expected an integer >= 2; found 1)".
 */
export type ErrorKind = "input" | "config" | "not_found" | "unsupported" | "budget" | "io" | "check" | "internal";

/** The exit code for each kind: 1 when a check failed, 2 for every other failure. */
export const EXIT_CODE_OF_KIND: Readonly<Record<ErrorKind, 1 | 2>> = {
  input: 2,
  config: 2,
  not_found: 2,
  unsupported: 2,
  budget: 2,
  io: 2,
  check: 1,
  internal: 2,
};

export function exitCodeOfKind(kind: ErrorKind): 1 | 2 {
  return EXIT_CODE_OF_KIND[kind];
}

/** What was expected and what was found; `cause` is the error this one wraps. */
export interface ErrorDetail {
  expected?: string | undefined;
  found?: string | undefined;
  cause?: unknown;
}

/** `message (expected X; found Y)`, or the message alone when neither is given. */
export function withDetail(message: string, expected?: string, found?: string): string {
  const parts: string[] = [];
  if (expected !== undefined) parts.push(`expected ${expected}`);
  if (found !== undefined) parts.push(`found ${found}`);
  return parts.length > 0 ? `${message} (${parts.join("; ")})` : message;
}

/**
 * The base class. The message is used as given (subclasses decide whether it carries the
 * "(expected ...; found ...)" tail, see `withDetail`); `expected` and `found` are kept as
 * fields either way so the CLI can restate them.
 */
export class CodedError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly expected: string | undefined;
  readonly found: string | undefined;
  /** `exitCodeOfKind(kind)`, kept as a field for callers that read it. */
  readonly exitCode: 1 | 2;

  constructor(kind: ErrorKind, code: string, message: string, detail: ErrorDetail = {}) {
    super(message, detail.cause === undefined ? undefined : { cause: detail.cause });
    this.name = "CodedError";
    this.kind = kind;
    this.code = code;
    this.expected = detail.expected;
    this.found = detail.found;
    this.exitCode = exitCodeOfKind(kind);
  }
}

/** True for an error of the base (any area's subclass). */
export function isCodedError(err: unknown): err is CodedError {
  return err instanceof CodedError;
}

/**
 * True for a Node system error: the `errno` (a number) and `syscall` (a string) that libuv's
 * errors carry, with their `code` (ENOENT, EACCES, ...).
 */
export function isSystemError(err: unknown): err is Error & { errno: number; syscall: string; code: string } {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { errno?: unknown; syscall?: unknown; code?: unknown };
  return typeof e.errno === "number" && typeof e.syscall === "string" && typeof e.code === "string";
}

/** The codes of the CLI's own errors. */
export type ErrataErrorCode =
  | "BAD_INPUT"
  | "BAD_CONFIG"
  | "IO"
  | "NOT_FOUND"
  | "CHECK_FAILED"
  | "BUDGET"
  | "UNSUPPORTED";

const KIND_OF_ERRATA_CODE: Readonly<Record<ErrataErrorCode, ErrorKind>> = {
  BAD_INPUT: "input",
  BAD_CONFIG: "config",
  IO: "io",
  NOT_FOUND: "not_found",
  CHECK_FAILED: "check",
  BUDGET: "budget",
  UNSUPPORTED: "unsupported",
};

/**
 * The CLI's and the runtime's general error: its code names the kind; the message ends in
 * "(expected ...; found ...)" when those are given.
 */
export class ErrataError extends CodedError {
  declare readonly code: ErrataErrorCode;

  constructor(code: ErrataErrorCode, message: string, opts: { expected?: string; found?: string; cause?: unknown } = {}) {
    super(KIND_OF_ERRATA_CODE[code], code, withDetail(message, opts.expected, opts.found), opts);
    this.name = "ErrataError";
  }
}

/** Bad input: the person gave something the command cannot use. Exit 2, nothing written. */
export function badInput(message: string, expected?: string, found?: string): ErrataError {
  const opts: { expected?: string; found?: string } = {};
  if (expected !== undefined) opts.expected = expected;
  if (found !== undefined) opts.found = found;
  return new ErrataError("BAD_INPUT", message, opts);
}

/**
 * A broken invariant: something Errata's own code guarantees did not hold (an engine that
 * answered for other pairs, a template missing for a mode). Kind `internal`: a bug to report.
 */
export class InvariantError extends CodedError {
  constructor(code: string, message: string, detail: ErrorDetail = {}) {
    super("internal", code, message, detail);
    this.name = "InvariantError";
  }
}

/** A short, printable description of a value for "found ..." parts of messages. */
export function describeFound(value: unknown, max = 60): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
