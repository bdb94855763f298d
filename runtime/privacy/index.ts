/** Privacy at write: secret redaction and stable reporter pseudonyms. */
export { isPseudonym, loadOrCreateReporterKey, pseudonymize, readReporterKey } from "./pseudonym.js";
export { redactNullable, redactSecrets } from "./redact.js";
