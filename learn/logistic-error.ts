/**
 * The error `fitLogistic` throws for input it cannot use; `code` is stable:
 * BAD_INPUT (wrong shapes, values out of range) or DEGENERATE (one class only).
 *
 * Example: `fitLogistic([[1], [2]], [1, 1], {l2: 1})` throws
 * `LogisticError("DEGENERATE", "expected both classes among rows with positive weight; found only y=1")`.
 */
import { CodedError } from "../core/errors.js";

export type LogisticErrorCode = "BAD_INPUT" | "DEGENERATE";

/** Thrown for input the fit cannot use; `code` is stable; kind `input` (exit 2). */
export class LogisticError extends CodedError {
  declare readonly code: LogisticErrorCode;
  constructor(code: LogisticErrorCode, message: string) {
    super("input", code, message);
    this.name = "LogisticError";
  }
}

