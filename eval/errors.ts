/**
 * Errors thrown by the pure evaluation code. Each carries a stable code and says what was
 * expected and what was found; they are `CodedError`s of kind `input`, exit code 2. Degenerate
 * but valid data (every rating in one category) is not an error: statistics return `null`
 * with a reason instead (see `Undefined`).
 *
 * Example: `new EvalInputError("EMPTY", "Fleiss' kappa needs rated items", "at least one item with 2 or more ratings", "0 items")`
 * has message "Fleiss' kappa needs rated items (expected at least one item with 2 or more ratings; found 0 items)".
 */
import { CodedError, withDetail } from "../core/errors.js";

export type EvalErrorCode = "EMPTY" | "BAD_SHAPE" | "BAD_VALUE" | "BAD_OPTION";

/** Kind `input` (exit 2): the data or an option given to a statistic cannot be used. */
export class EvalInputError extends CodedError {
  declare readonly code: EvalErrorCode;
  declare readonly expected: string;
  declare readonly found: string;
  constructor(code: EvalErrorCode, message: string, expected: string, found: string) {
    super("input", code, withDetail(message, expected, found), { expected, found });
    this.name = "EvalInputError";
  }
}

/** Throws EMPTY unless `count > 0`. */
export function requireNonEmpty(count: number, what: string, expected: string): void {
  if (!(count > 0)) throw new EvalInputError("EMPTY", what, expected, `${count}`);
}

/** Throws BAD_OPTION unless `value` is a finite number in [lo, hi]. */
export function requireInRange(value: number, lo: number, hi: number, name: string): void {
  if (!Number.isFinite(value) || value < lo || value > hi) {
    throw new EvalInputError("BAD_OPTION", `${name} out of range`, `a number in [${lo}, ${hi}]`, String(value));
  }
}
