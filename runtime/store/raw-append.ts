/**
 * The zod-free write path shared by the ledger and the capture hook: redact the free-text
 * fields, append the line to the month of its `ts`, then write the record-stream row.
 * Validation is the caller's job (`openLedger().append` validates with zod first; the hook
 * builds its rows from fixed code and cannot afford zod's start-up).
 *
 * Example: `appendErratumRaw({ ledgerDir, stateDir }, erratum, console.error)` ->
 * `{ file: "/…/errata-2026-11.jsonl", line: {…redacted erratum…}, redacted: ["github-token"], recorded: true }`
 */
import { join } from "node:path";
import { allCleared, redactNullable, redactSecrets } from "../privacy/redact.js";
import { appendLine } from "./append-line.js";
import { monthFileName, monthOf } from "./ids.js";
import { recordRowFor, writeRecordRow, type RecordSubject } from "./record.js";

export interface RawPaths {
  ledgerDir: string;
  stateDir: string;
}

/** The free-text fields of an erratum, the only ones redaction rewrites. */
export interface RedactableErratum extends RecordSubject {
  ts: string;
  complaint: string;
  context: {
    requested: string | null;
    doing: string | null;
    response_preview: string | null;
    component: string | null;
    cwd: string | null;
    session_id: string | null;
    output_ids: string[];
  } & Record<string, unknown>;
}

/** Returns a copy with secrets in the complaint and context text replaced by typed markers. */
export function redactErratum<T extends RedactableErratum>(e: T): { erratum: T; redacted: string[] } {
  const c = e.context;
  // One pre-filter run for the six fields (the common case: none can hold a secret).
  if (allCleared([e.complaint, c.requested, c.doing, c.response_preview, c.component, c.cwd])) return { erratum: { ...e, context: { ...c } }, redacted: [] };
  const kinds: string[] = [];
  const complaint = redactSecrets(e.complaint);
  kinds.push(...complaint.kinds);
  const context = {
    ...e.context,
    requested: redactNullable(e.context.requested, kinds),
    doing: redactNullable(e.context.doing, kinds),
    response_preview: redactNullable(e.context.response_preview, kinds),
    component: redactNullable(e.context.component, kinds),
    cwd: redactNullable(e.context.cwd, kinds),
  };
  return { erratum: { ...e, complaint: complaint.text, context }, redacted: kinds };
}

export interface RawAppendResult<T> {
  file: string;
  line: T;
  redacted: string[];
  recorded: boolean;
}

export function appendErratumRaw<T extends RedactableErratum>(
  paths: RawPaths,
  e: T,
  report: (line: string) => void,
  opts: { fsync?: boolean; nowIso?: string } = {},
): RawAppendResult<T> {
  const { erratum, redacted } = redactErratum(e);
  const file = join(paths.ledgerDir, monthFileName(monthOf(erratum.ts)));
  appendLine(file, JSON.stringify(erratum), { fsync: opts.fsync ?? false });
  const recorded = writeRecordRow(paths.stateDir, recordRowFor("append", erratum, opts.nowIso ?? erratum.ts), report);
  return { file, line: erratum, redacted, recorded };
}
