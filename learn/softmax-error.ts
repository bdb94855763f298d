/**
 * The error `fitSoftmax` and `predictSoftmax` throw for input they cannot use: a `CodedError`
 * of kind `input` (exit 2), message "softmax: expected X, found Y". Codes are stable: EMPTY
 * (no rows), BAD_INPUT (shapes, values or options out of range), DEGENERATE (a class that
 * carries no weight).
 *
 * Example: `fitSoftmax([], [], 2, {l2: 1})` throws
 * `SoftmaxError("EMPTY", "at least one row", "none")`.
 */
import { CodedError } from "../core/errors.js";

export type SoftmaxErrorCode = "EMPTY" | "BAD_INPUT" | "DEGENERATE";

export class SoftmaxError extends CodedError {
  declare readonly code: SoftmaxErrorCode;
  declare readonly expected: string;
  declare readonly found: string;
  constructor(code: SoftmaxErrorCode, expected: string, found: string) {
    super("input", code, `softmax: expected ${expected}, found ${found}`, { expected, found });
    this.name = "SoftmaxError";
  }
}
