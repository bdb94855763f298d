/**
 * The error the Combiner's fitting code throws for data it cannot fit: a `CodedError` of kind
 * `input` (exit 2), message "combiner: expected X, found Y". Codes are stable: BAD_OPTION (a
 * parameter out of range), TOO_FEW (fewer sessions than folds), ONE_CLASS (the gold holds one
 * class where a head needs two), EMPTY (nothing to standardise or choose from). A head fitted
 * under another bank is `CombinerBankError` (model.ts).
 *
 * Example: `sessionFolds(["a", "b"], 3, 1)` throws
 * `CombinerInputError("TOO_FEW", "at least 3 sessions for 3 folds", "2")`.
 */
import { CodedError } from "../core/errors.js";

export type CombinerErrorCode = "BAD_OPTION" | "TOO_FEW" | "ONE_CLASS" | "EMPTY";

export class CombinerInputError extends CodedError {
  declare readonly code: CombinerErrorCode;
  declare readonly expected: string;
  declare readonly found: string;
  constructor(code: CombinerErrorCode, expected: string, found: string) {
    super("input", code, `combiner: expected ${expected}, found ${found}`, { expected, found });
    this.name = "CombinerInputError";
  }
}
