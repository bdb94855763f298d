/**
 * The record stream: `record.jsonl` in the ledger's state folder. Every append, and every
 * patch that sets a status or an enrichment, writes one row: the id, kind, system, the
 * status after the change, and the session and output ids. Never the complaint, the
 * context text or enrichment prose: the row is built field by field from ids and enums.
 *
 * The default ledger's state folder holds the live record; a scratch ledger's state folder
 * is `.state/` inside it, so it writes a scratch record there. A fault writing the record is
 * reported (stderr through `report`) and appended to `record-faults.jsonl` in state; it is
 * never thrown: the ledger line is the truth and is already written.
 *
 * zod-free (the hook writes record rows too).
 *
 * Example row: `{"schema":"record/1","ts":"2026-11-30T12:00:00.000Z","event":"append",
 * "id":"er-20261130-3fa9c1","kind":"bug","system":"assistant","status":"new",
 * "session_id":null,"output_ids":[]}`
 */
import { join } from "node:path";
import { appendLine } from "./append-line.js";

export const RECORD_FILE = "record.jsonl";
export const RECORD_FAULTS_FILE = "record-faults.jsonl";

export interface RecordSubject {
  id: string;
  kind: string;
  system: string;
  status: string;
  context?: { session_id?: string | null; output_ids?: readonly string[] } | null;
}

export interface RecordRowPlain {
  schema: "record/1";
  ts: string;
  event: "append" | "patch";
  id: string;
  kind: string;
  system: string;
  status: string;
  session_id: string | null;
  output_ids: string[];
}

/** Builds a row from the erratum as it stands after the change; copies ids and enums only. */
export function recordRowFor(event: "append" | "patch", subject: RecordSubject, ts: string): RecordRowPlain {
  return {
    schema: "record/1",
    ts,
    event,
    id: subject.id,
    kind: subject.kind,
    system: subject.system,
    status: subject.status,
    session_id: subject.context?.session_id ?? null,
    output_ids: [...(subject.context?.output_ids ?? [])],
  };
}

/**
 * Appends a row; returns false (after reporting) on any fault, never throws.
 * `report` receives one line for stderr.
 */
export function writeRecordRow(stateDir: string, row: RecordRowPlain, report: (line: string) => void): boolean {
  try {
    appendLine(join(stateDir, RECORD_FILE), JSON.stringify(row));
    return true;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    report(`errata: record stream fault for ${row.id} (${row.event}): ${message}`);
    try {
      appendLine(
        join(stateDir, RECORD_FAULTS_FILE),
        JSON.stringify({ schema: "record-fault/1", ts: row.ts, id: row.id, event: row.event, error: message.slice(0, 300) }),
      );
    } catch {
      // The state folder itself is unwritable: stderr already has the fault.
    }
    return false;
  }
}
