/**
 * The error `fitLogistic` throws for input it cannot use; `code` is stable:
 * BAD_INPUT (wrong shapes, values out of range) or DEGENERATE (one class only).
 *
 * Example: `fitLogistic([[1], [2]], [1, 1], {l2: 1})` throws
 * `LogisticError("DEGENERATE", "expected both classes among rows with positive weight; found only y=1")`.
 */
export type LogisticErrorCode = "BAD_INPUT" | "DEGENERATE";

/** Thrown for input the fit cannot use; `code` is stable. */
export class LogisticError extends Error {
  readonly code: LogisticErrorCode;
  constructor(code: LogisticErrorCode, message: string) {
    super(message);
    this.name = "LogisticError";
    this.code = code;
  }
}

