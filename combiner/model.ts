/**
 * The Combiner as a record: refusing to use heads fitted under another question bank (their
 * features are other questions' answers, so their weights mean nothing there).
 *
 * Example: assertSameBank({bank_hash: "aa…"}, "bb…") throws CombinerBankError with
 * expected "bank aa…" and found "bank bb…" (code BANK_MISMATCH, kind `input`).
 */
import { CodedError } from "../core/errors.js";

export class CombinerBankError extends CodedError {
  declare readonly code: "BANK_MISMATCH";
  declare readonly expected: string;
  declare readonly found: string;
  constructor(modelBank: string, currentBank: string) {
    super("input", "BANK_MISMATCH", `the combiner was fitted under bank ${modelBank}, not the current bank ${currentBank}: refit it (errata combiner fit)`, {
      expected: `bank ${modelBank}`,
      found: `bank ${currentBank}`,
    });
    this.name = "CombinerBankError";
  }
}

export function assertSameBank(model: { bank_hash: string }, currentBankHash: string): void {
  if (model.bank_hash !== currentBankHash) throw new CombinerBankError(model.bank_hash, currentBankHash);
}
