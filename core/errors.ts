/**
 * Errors that carry a stable code and an exit code. Only the CLI turns them into
 * `process.exitCode`; library code throws them.
 *
 * Exit codes: 0 ok, 1 a check failed, 2 bad input or I/O error.
 */
export type ErrataErrorCode =
  | "BAD_INPUT"
  | "BAD_CONFIG"
  | "IO"
  | "NOT_FOUND"
  | "CHECK_FAILED"
  | "BUDGET"
  | "UNSUPPORTED";

export class ErrataError extends Error {
  readonly code: ErrataErrorCode;
  readonly exitCode: 1 | 2;
  /** What was expected and what was found, for the message the person reads. */
  readonly expected: string | undefined;
  readonly found: string | undefined;

  constructor(
    code: ErrataErrorCode,
    message: string,
    opts: { expected?: string; found?: string; cause?: unknown } = {},
  ) {
    const detail = [
      opts.expected !== undefined ? `expected ${opts.expected}` : undefined,
      opts.found !== undefined ? `found ${opts.found}` : undefined,
    ]
      .filter((s): s is string => s !== undefined)
      .join("; ");
    super(detail ? `${message} (${detail})` : message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "ErrataError";
    this.code = code;
    this.exitCode = code === "CHECK_FAILED" ? 1 : 2;
    this.expected = opts.expected;
    this.found = opts.found;
  }
}

/** Bad input: the person gave something the command cannot use. Exit 2, nothing written. */
export function badInput(message: string, expected?: string, found?: string): ErrataError {
  const opts: { expected?: string; found?: string } = {};
  if (expected !== undefined) opts.expected = expected;
  if (found !== undefined) opts.found = found;
  return new ErrataError("BAD_INPUT", message, opts);
}

/** A short, printable description of a value for "found ..." parts of messages. */
export function describeFound(value: unknown, max = 60): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
