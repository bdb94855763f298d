/** Privacy at write: secret redaction (one entry point for writers: for-write.ts) and stable reporter pseudonyms. */
export { attachmentForWrite, type AttachmentForWrite } from "./attachment.js";
export { redactForWrite, redactTextForWrite, type RedactedForWrite } from "./for-write.js";
export { isPseudonym, loadOrCreateReporterKey, pseudonymize, readReporterKey } from "./pseudonym.js";
export { redactNullable, redactSecrets } from "./redact.js";
export { learnKnownValues } from "./known-learn.js";
export { knowProjectValues } from "./known-store.js";
export { importRulesFile, importedRulesStatus } from "./import-rules-file.js";
export { collectKnownValues } from "./known-learn.js";
export { planPush, valueBits, PUSH_FP_BITS, PUSH_MIN_BITS, type NamedValue, type PushPlan } from "./known-push.js";
export { scrubWithStores } from "./known-scrub.js";
export { parseStore, type KnownStore } from "./known-values.js";
