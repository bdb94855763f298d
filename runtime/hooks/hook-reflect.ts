/**
 * The quick reflection after the answer (`errata hook stop`, issue 22 item 8): when the
 * session's last typed prompt was captured into the errata ledger by the UserPromptSubmit
 * hook, sort that correction by cause and write the ladder's `sorted.jsonl` line, keyed by
 * the exchange id the nightly auditor gives the same turn (from the transcript: the typed
 * prompt's record uuid), so the auditor takes the reflection's cause; a duplicate reflection
 * (a second Stop for one prompt) keeps the first. Each reflection that ran writes its
 * receipt. No model, no fitting: the cause model is the shipped data file
 * (cause-model.ts), read only when there is a capture to sort.
 *
 * A Stop whose prompt was not captured costs one look at the tail of this month's ledger file
 * for the session's id, and writes nothing (no receipt: no reflection ran). A fault never
 * fails the hook: one line on stderr, and the auditor sorts what the reflection did not
 * (journey transition 7). zod-free: it runs in the hook (its own lazily loaded bundle part).
 *
 * Which capture: the newest hook row of the session (a correction or a low rating) whose time
 * is within CAPTURE_WINDOW_MS of the transcript's last typed prompt and whose complaint is
 * that prompt's words (secrets replaced by markers in the row). Anything else (praise, a row
 * of an earlier prompt, no transcript, a record without uuid) is left to the auditor.
 *
 * Example: after "No, that's wrong, we use pnpm here" was captured (er-…) and answered, Stop ->
 * ladder/sorted.jsonl `{"v":1,"exchange_id":"ex-3f…","cause":"rule_gap","by":"reflection",…}`
 * and ladder/receipts.jsonl `{"v":1,"loop":"reflection",…,"counts":{"sorted":1}}`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../core/sha256.js";
import { appendWhole } from "../files/append.js";
import { resolvePaths } from "../paths.js";
import { monthFileName } from "../store/ids.js";
import { assistantPart, classifyRecord } from "../transcripts/records.js";
import { typedPromptVerdict } from "../transcripts/typed.js";
import { compileCauseModel, loadCauseWeights } from "./cause-model.js";
import { readTailBytes } from "./transcript-tail.js";

/** The ladder folder in the ledger folder: pre-tool-use.ts' LADDER_DIR (not imported: that would bring the check runner into this part; a test keeps them equal). */
export const LADDER_DIR = "ladder";
export const SORTED_FILE = "sorted.jsonl";
export const RECEIPTS_FILE = "receipts.jsonl";
/** How far the capture row's time may be from the transcript's record of the prompt. */
export const CAPTURE_WINDOW_MS = 10 * 60 * 1000;
/** How much of the ledger's end is searched for the session's capture (rows are small, captures rare). */
export const LEDGER_TAIL_BYTES = 256 * 1024;
/** How much of the transcript's end is searched for the prompt and the reply before it. */
export const TRANSCRIPT_TAIL_BYTES = 1024 * 1024;
const ROW_KINDS = new Set(["correction", "complaint"]);

export interface ReflectInput {
  env: Record<string, string | undefined>;
  cwd: string;
  nowMs: number;
  sessionId: string;
  transcriptPath: string | null;
  /** The capture classifier's verdict kind on a prompt and the reply before it (the main bundle's). */
  verdictKind: (prompt: string, reply: string | null) => string;
  say: (line: string) => void;
}

export type ReflectOutcome =
  | { ran: false }
  | { ran: true; sorted: boolean; exchange_id: string | null; cause: string | null; note: string | null };

interface CaptureRow {
  id: string;
  ts: string;
  kind: string;
  complaint: string;
}

/** The exchange id the transcript reader gives a turn (runtime/transcripts/ids.ts exchangeId, with the hook's SHA-256). */
export function claudeCodeExchangeId(session: string, key: string): string {
  return `ex-${sha256Hex(`claude-code\u0000${session}\u0000${key}`).slice(0, 16)}`;
}

/** Runs the reflection for one Stop; never throws (a fault is one line through `say`). */
export function reflectAfterStop(input: ReflectInput): ReflectOutcome {
  try {
    return reflect(input);
  } catch (err) {
    input.say(`reflection fault (${err instanceof Error ? err.message : String(err)}); the nightly audit sorts this correction`);
    return { ran: false };
  }
}

function reflect(input: ReflectInput): ReflectOutcome {
  const paths = resolvePaths(input.env, input.cwd);
  const row = sessionCapture(paths.ledgerDir, input.sessionId, input.nowMs);
  if (row === null) return { ran: false };
  const dir = join(paths.ledgerDir, LADDER_DIR);
  const at = new Date(input.nowMs).toISOString();
  const done = (sorted: boolean, exchangeId: string | null, cause: string | null, note: string | null, counts: Record<string, number>): ReflectOutcome => {
    appendLines(join(dir, RECEIPTS_FILE), [{ v: 1, loop: "reflection", at, night: at.slice(0, 10), ok: true, counts, note }]);
    return { ran: true, sorted, exchange_id: exchangeId, cause, note };
  };
  const turn = input.transcriptPath !== null && existsSync(input.transcriptPath) ? lastTypedTurn(input.transcriptPath) : null;
  if (turn === null) return done(false, null, null, `${row.id}: no typed prompt in the transcript; left for the audit`, { sorted: 0, left_for_audit: 1 });
  const promptMs = Date.parse(turn.ts ?? "");
  if (!matches(row, turn.text, promptMs)) return { ran: false }; // the capture was of an earlier prompt: nothing to sort now
  if (turn.uuid === null) return done(false, null, null, `${row.id}: the prompt's record has no uuid; left for the audit`, { sorted: 0, left_for_audit: 1 });
  const exchangeId = claudeCodeExchangeId(turn.session ?? "?", turn.uuid);
  if (sortedIds(join(dir, SORTED_FILE)).has(exchangeId)) return done(false, exchangeId, null, `${row.id}: already sorted; the first cause stands`, { sorted: 0, duplicates: 1 });
  const weights = loadCauseWeights();
  if (weights === null) return done(false, exchangeId, null, `${row.id}: no cause model in this build (datasets/weights/ladder-causes.json); left for the audit`, { sorted: 0, left_for_audit: 1 });
  const model = compileCauseModel(weights);
  const kind = input.verdictKind(turn.text, turn.reply);
  const p = model.probabilities(turn.text, turn.reply, kind);
  const cause = model.classes[p.indexOf(Math.max(...p))]!;
  const probs = Object.fromEntries(model.classes.map((c, k) => [c, Math.round(p[k]! * 1e4) / 1e4]));
  appendLines(join(dir, SORTED_FILE), [{ v: 1, exchange_id: exchangeId, cause, by: "reflection", erratum_id: row.id, session_id: input.sessionId, p: probs, at }]);
  return done(true, exchangeId, cause, null, { sorted: 1 });
}

/** The newest hook row of the session that could need sorting, or null (the cheap look every Stop pays). */
export function sessionCapture(ledgerDir: string, sessionId: string, nowMs: number): CaptureRow | null {
  const needle = Buffer.from(`"session_id":${JSON.stringify(sessionId)}`);
  const months = [...new Set([nowMs, nowMs - 86_400_000].map((t) => new Date(t).toISOString().slice(0, 7)))];
  for (const month of months) {
    const file = join(ledgerDir, monthFileName(month));
    if (!existsSync(file)) continue;
    const buf = readTailBytes(file, LEDGER_TAIL_BYTES);
    if (buf.indexOf(needle) < 0) continue;
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

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();
const MARKER = /\[REDACTED:[^\]]*\]/;
/** What store/capture-row.ts clipComplaint appends to a complaint it cut. */
const CLIPPED = / \[…\d+ more characters not kept\]$/;

/**
 * The row is this prompt's capture: close in time, and the same words. A row with a
 * redacted secret or a clipped tail matches when its pieces begin the prompt and appear in
 * it in order; any other row must equal the prompt (spaces aside), so a short earlier
 * capture ("no") never passes for a later prompt that contains it.
 */
function matches(row: CaptureRow, promptText: string, promptMs: number): boolean {
  const rowMs = Date.parse(row.ts);
  if (!Number.isFinite(promptMs) || !Number.isFinite(rowMs) || Math.abs(rowMs - promptMs) > CAPTURE_WINDOW_MS) return false;
  const text = norm(promptText);
  const body = row.complaint.replace(CLIPPED, "");
  if (body === row.complaint && !MARKER.test(body)) return norm(body) === text;
  const parts = body.split(MARKER).map(norm);
  if (!text.startsWith(parts[0]!)) return false;
  let at = parts[0]!.length;
  for (const part of parts.slice(1)) {
    const k = text.indexOf(part, at);
    if (k < 0) return false;
    at = k + part.length;
  }
  return parts.some((p) => p !== "");
}

interface LastTurn {
  text: string;
  uuid: string | null;
  session: string | null;
  ts: string | null;
  reply: string | null;
}

/**
 * The transcript's last typed prompt and the reply before it, as the auditor's transcript
 * reader sees them (runtime/ladder/transcript-turns.ts): sidechains skipped, the reply the
 * last assistant record with text before the prompt.
 */
export function lastTypedTurn(transcriptPath: string): LastTurn | null {
  const buf = readTailBytes(transcriptPath, TRANSCRIPT_TAIL_BYTES);
  let turn: LastTurn | null = null;
  for (let end = buf.length; end > 0; ) {
    const start = buf.lastIndexOf(10, end - 1) + 1;
    const line = buf.subarray(start, end);
    end = start - 1;
    if (line.length === 0 || line[0] !== 123 /* { */) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line.toString("utf8"));
    } catch {
      continue;
    }
    const rec = classifyRecord(raw);
    if (rec === null || rec.isSidechain) continue;
    if (turn === null) {
      const v = typedPromptVerdict(rec);
      if (v?.typed) turn = { text: v.text, uuid: rec.uuid, session: rec.sessionId, ts: rec.timestamp, reply: null };
      continue;
    }
    const part = assistantPart(rec);
    // An earlier prompt left unanswered does not reset the reply (the transcript reader keeps it too).
    if (part !== null && part.texts.length > 0) return { ...turn, reply: part.texts.join("\n") };
  }
  return turn;
}

function sortedIds(file: string): Set<string> {
  const out = new Set<string>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line) as { exchange_id?: unknown };
      if (typeof v.exchange_id === "string") out.add(v.exchange_id);
    } catch {
      // a torn line: the ladder's JSONL reader sets it apart; it holds no sort
    }
  }
  return out;
}

function appendLines(file: string, rows: readonly unknown[]): void {
  appendWhole(file, Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(""), "utf8"));
}
