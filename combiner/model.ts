/**
 * The Combiner as a record: refusing to use heads fitted under another question bank (their
 * features are other questions' answers, so their weights mean nothing there).
 *
 * Example: assertSameBank({bank_hash: "aa…"}, "bb…") throws CombinerBankError with
 * expected "bank aa…" and found "bank bb…".
 */
export class CombinerBankError extends Error {
  readonly code = "BANK_MISMATCH";
  readonly expected: string;
  readonly found: string;
  constructor(modelBank: string, currentBank: string) {
    super(`the combiner was fitted under bank ${modelBank}, not the current bank ${currentBank}: refit it (errata combiner fit)`);
    this.name = "CombinerBankError";
    this.expected = `bank ${modelBank}`;
    this.found = `bank ${currentBank}`;
  }
}

export function assertSameBank(model: { bank_hash: string }, currentBankHash: string): void {
  if (model.bank_hash !== currentBankHash) throw new CombinerBankError(model.bank_hash, currentBankHash);
}
