/**
 * The quick reflection after the answer (`errata hook stop`, issue 22 item 8): when the
 * session's last typed prompt was captured into the errata ledger by the UserPromptSubmit
 * hook, sort that correction by cause for the ladder (`sorted.jsonl`, keyed by the exchange
 * id the nightly auditor gives the same turn, so the auditor takes the reflection's cause).
 *
 * This module is the gate, in the main hook bundle (so a Stop loads no other part for it) and
 * small: it looks at the end of this month's ledger file for the session's newest hook row,
 * and at the end of the ladder's receipts for a reflection that already handled that row. Only
 * a row no reflection has handled loads the sort (hook-reflect-sort.ts, its own bundle part,
 * with the transcript reader and the shipped cause model). So a Stop whose prompt was not
 * captured, or whose capture was sorted at an earlier Stop, reads two file ends and writes
 * nothing. The ledger paths module is imported when a Stop runs, not when a prompt loads the
 * bundle (its start-up requires node:os, which an ordinary prompt does not need).
 *
 * A fault never fails the hook: one line on stderr, and the auditor sorts what the reflection
 * did not (journey transition 7). zod-free, no model, no network.
 *
 * Example: Stop after "No, that's wrong, we use pnpm here" was captured (er-…) ->
 * `{ran: true, sorted: true, cause: "rule_gap", ...}`; the next Stop -> `{ran: false}`.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { CaptureRow, ReflectOutcome, SortInput } from "./hook-reflect-sort.js";

/** How much of the ledger's end is searched for the session's capture: rows written since the prompt, by every session, fit many times over. */
export const LEDGER_TAIL_BYTES = 64 * 1024;
/** How much of the receipts' end is searched for a reflection of that row (one receipt per captured prompt, a few per night). */
export const RECEIPTS_TAIL_BYTES = 64 * 1024;
const ROW_KINDS = new Set(["correction", "directive", "complaint"]);

export interface ReflectInput extends Omit<SortInput, "ledgerDir"> {
  env: Record<string, string | undefined>;
  cwd: string;
  say: (line: string) => void;
}

export type { ReflectOutcome };

/** Runs the reflection for one Stop; never rejects (a fault is one line through `say`). */
export async function reflectAfterStop(input: ReflectInput): Promise<ReflectOutcome> {
  try {
    const { ledgerDir } = (await import("../paths.js")).resolvePaths(input.env, input.cwd);
    const row = sessionCapture(ledgerDir, input.sessionId, input.nowMs);
    if (row === null || reflectedBefore(ledgerDir, row.id)) return { ran: false };
    const { sortCapture } = await import("./hook-reflect-sort.js");
    return await sortCapture({ ledgerDir, nowMs: input.nowMs, sessionId: input.sessionId, transcriptPath: input.transcriptPath, verdictKind: input.verdictKind, ...(input.transcriptWaitMs !== undefined ? { transcriptWaitMs: input.transcriptWaitMs } : {}) }, row);
  } catch (err) {
    input.say(`reflection fault (${err instanceof Error ? err.message : String(err)}); the nightly audit sorts this correction`);
    return { ran: false };
  }
}

/**
 * The session's newest hook row in the ledger's end, when it could need sorting (a correction
 * or a low rating; praise is not sorted), else null. The ledger's month files are
 * `errata-YYYY-MM.jsonl` (store/ids.ts monthFileName; not imported, which would bring the
 * store's error module into this part; a test keeps the two equal).
 */
export function sessionCapture(ledgerDir: string, sessionId: string, nowMs: number): CaptureRow | null {
  const needle = Buffer.from(`"session_id":${JSON.stringify(sessionId)}`);
  const months = [...new Set([nowMs, nowMs - 86_400_000].map((t) => new Date(t).toISOString().slice(0, 7)))];
  for (const month of months) {
    const buf = tail(join(ledgerDir, `errata-${month}.jsonl`), LEDGER_TAIL_BYTES);
    if (buf === null || buf.indexOf(needle) < 0) continue;
    for (let end = buf.length; end > 0; ) {
      const start = buf.lastIndexOf(10, end - 1) + 1;
      const line = buf.subarray(start, end);
      end = start - 1;
      if (line.indexOf(needle) < 0) continue;
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(line.toString("utf8")) as Record<string, unknown>;
      } catch {
        continue; // a torn or broken line
      }
      const ctx = v["context"] as Record<string, unknown> | undefined;
      if (v["channel"] !== "hook" || ctx?.["session_id"] !== sessionId) continue;
      // The newest row of the session decides: an older one belongs to an earlier prompt.
      if (!ROW_KINDS.has(String(v["kind"])) || typeof v["id"] !== "string" || typeof v["ts"] !== "string" || typeof v["complaint"] !== "string") return null;
      return { id: v["id"], ts: v["ts"], kind: String(v["kind"]), complaint: v["complaint"] };
    }
  }
  return null;
}

/**
 * A reflection receipt names the erratum it handled (hook-reflect-sort.ts): found in the
 * receipts' end, the row is done. The ladder folder and file are ladder-formats/files.ts'
 * LADDER_DIR and RECEIPTS_FILE, written out so that the prompt's bundle holds no more
 * (test/ladder/reflection.test.ts keeps them equal).
 */
function reflectedBefore(ledgerDir: string, erratumId: string): boolean {
  const buf = tail(join(ledgerDir, "ladder", "receipts.jsonl"), RECEIPTS_TAIL_BYTES);
  return buf !== null && buf.indexOf(`"note":${JSON.stringify(`${erratumId}:`).slice(0, -1)}`) >= 0;
}

/** The last `max` bytes of a regular file (a first line that may be cut is left in: callers search whole lines), or null when there is none. */
function tail(file: string, max: number): Buffer | null {
  if (!existsSync(file)) return null;
  // Non-blocking: a FIFO in the file's place must not hold the hook (it is then refused below).
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const start = Math.max(0, st.size - max);
    const buf = Buffer.allocUnsafe(st.size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
