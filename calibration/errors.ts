/**
 * The error calibration's pure code throws for input it cannot use: a `CodedError` of kind
 * `input` (exit 2) whose message names the routine and says what was expected and what was
 * found. Codes are stable, the same four as eval/'s: EMPTY (nothing to fit or score),
 * BAD_SHAPE (lengths that do not line up), BAD_VALUE (a value out of its domain),
 * BAD_OPTION (a parameter out of range).
 *
 * Example: `fitPlatt([], [])` throws
 * `CalibrationError("EMPTY", "platt", "at least one score", "none")`, whose message is
 * "platt: expected at least one score, found none".
 */
import { CodedError } from "../core/errors.js";

export type CalibrationErrorCode = "EMPTY" | "BAD_SHAPE" | "BAD_VALUE" | "BAD_OPTION";

export class CalibrationError extends CodedError {
  declare readonly code: CalibrationErrorCode;
  declare readonly expected: string;
  declare readonly found: string;
  /** `where` names the routine ("platt", "cuts", a scoring rule's name). */
  constructor(code: CalibrationErrorCode, where: string, expected: string, found: string) {
    super("input", code, `${where}: expected ${expected}, found ${found}`, { expected, found });
    this.name = "CalibrationError";
  }
}
