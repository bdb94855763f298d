import { CodedError, type ErrorKind } from "../../core/errors.js";

/**
 * The ladder's errors. FILE_CHANGED: an instruction file or check file differs from what the
 * proposal was drafted against (it was edited by hand since), so an apply would overwrite
 * the owner's edit; NOT_PENDING: approve/reject of a proposal already decided; NOT_FOUND: no
 * such proposal or rule; BAD_LEDGER: a ledger line that cannot be used.
 */
export type LadderErrorCode = "FILE_CHANGED" | "NOT_PENDING" | "NOT_FOUND" | "BAD_LEDGER" | "BAD_INPUT" | "NO_BACKUP";

const KIND: Record<LadderErrorCode, ErrorKind> = {
  FILE_CHANGED: "check",
  NOT_PENDING: "input",
  NOT_FOUND: "not_found",
  BAD_LEDGER: "input",
  BAD_INPUT: "input",
  NO_BACKUP: "not_found",
};

export class LadderError extends CodedError {
  constructor(code: LadderErrorCode, message: string, detail: { expected?: string; found?: string } = {}) {
    super(KIND[code], code, `${message}${detail.expected !== undefined ? ` (expected ${detail.expected}; found ${detail.found ?? "nothing"})` : ""}`, detail);
    this.name = "LadderError";
  }
}
