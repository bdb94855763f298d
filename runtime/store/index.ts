/**
 * The store's public surface: `openLedger(paths)` with `append`, `patch`, `readAll`, `get`;
 * the zod-free pieces the hook uses live in `append-line.ts`, `raw-append.ts`, `ids.ts`,
 * `record.ts` (import those directly from the hook, not this index, which loads zod).
 */
export { IdTakenError, openLedger, type AppendOptions, type Ledger, type LedgerOptions, type LedgerRead, type AppendOutcome, type PatchOutcome } from "./ledger.js";
export type { FoldedErratum } from "./fold.js";
export { DAMAGE_CODES, type ReadProblem } from "./read-files.js";
export { newErratum, type NewErratumInput } from "./new-erratum.js";
export { newErratumId, monthOf, monthFileName, archiveFileName } from "./ids.js";
export { appendLine } from "./append-line.js";
export { RECORD_FILE } from "./record.js";
export { safeAttachmentName, writeAttachment } from "./attachments.js";
export { parseErText } from "./er-grammar.js";
export { applySet, patchRefusal } from "./fold.js";
export { redactErratum } from "./raw-append.js";
export { recordRowFor, writeRecordRow } from "./record.js";
export { rotateLedger } from "./rotate.js";
export { checkErratumRules, checkPatchRules, issuesToProblems } from "./rules.js";
export { ledgerStats, type LedgerStats } from "./stats.js";
export { validateLedger } from "./validate.js";
