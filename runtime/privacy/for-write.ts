/**
 * The one redaction entry point for text Errata writes outside the ledger's own append
 * (which redacts its fields itself, store/raw-append.ts): exchanges, the hook's kept
 * replies, attachments, text sent to a model lane, reports. A writer passes the record (or
 * the text) it is about to write through `redactForWrite`; every string inside it, at any
 * depth, is redacted. Object keys are left as they are (they are field names); so are
 * numbers, booleans and null. test/privacy/writers.test.ts checks that every module that
 * writes files under the Errata folders either calls this or says why it need not.
 *
 * Example: `redactForWrite({prompt: "DB_PASSWORD=hunter2x9", turn: 3})` ->
 * `{value: {prompt: "DB_PASSWORD=[REDACTED:env-assignment]", turn: 3}, kinds: ["env-assignment"]}`.
 */
import { mapStrings } from "./map-strings.js";
import { allCleared, redactSecrets } from "./redact.js";

export interface RedactedForWrite<T> {
  value: T;
  /** The kinds replaced anywhere in the value, in first-seen order, each once. */
  kinds: string[];
}

export function redactForWrite<T>(value: T): RedactedForWrite<T> {
  const kinds: string[] = [];
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === "string") strings.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(collect);
  };
  collect(value);
  // One pre-filter run for every string of the record (redact.ts allCleared).
  const clear = allCleared(strings);
  const out = mapStrings(value, (v) => {
    if (clear) return v;
    const r = redactSecrets(v);
    for (const k of r.kinds) if (!kinds.includes(k)) kinds.push(k);
    return r.text;
  });
  return { value: out, kinds };
}

/** The text alone, redacted (for a writer of one string: a report, a prompt to a lane). */
export function redactTextForWrite(text: string): string {
  return redactSecrets(text).text;
}
