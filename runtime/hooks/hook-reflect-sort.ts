/**
 * The reflection's sort (the second part of `errata hook stop`'s reflection, hook-reflect.ts):
 * loaded only when the gate found a capture of this session that no reflection has handled.
 * It checks the capture is the transcript's last typed prompt, names the exchange as the
 * nightly auditor does (the typed prompt's record uuid), sorts the correction with the
 * shipped cause model (ladder-formats/cause-model.ts; no model call, no fitting) and writes the ladder's
 * `sorted.jsonl` line (a second line for one exchange is never written: the first cause
 * stands) and a `reflection` receipt naming the erratum, which the gate reads to skip it next
 * time. zod-free: it runs in the hook, as its own bundle part.
 *
 * Which capture: the session's newest hook row (a correction or a low rating) counts when its
 * time is within CAPTURE_WINDOW_MS of the transcript's last typed prompt and its complaint is
 * that prompt's words (secrets replaced by markers in the row). Anything else (a row of an
 * earlier prompt, no transcript, a record without uuid) is left to the auditor, and the
 * receipt says so.
 *
 * Example: after "No, that's wrong, we use pnpm here" was captured (er-…) and answered ->
 * ladder/sorted.jsonl `{"v":1,"exchange_id":"ex-3f…","cause":"rule_gap","by":"reflection",…}`
 * and ladder/receipts.jsonl `{"v":1,"loop":"reflection",…,"counts":{"sorted":1},"note":"er-…: sorted (rule_gap)"}`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../core/sha256.js";
import { appendWhole } from "../files/append.js";
import { assistantPart, classifyRecord } from "../transcripts/records.js";
import { typedPromptVerdict } from "../transcripts/typed.js";
import { compileCauseModel, loadCauseWeights } from "../ladder-formats/cause-model.js";
import { LADDER_DIR, RECEIPTS_FILE, SORTED_FILE } from "../ladder-formats/files.js";
import { readTailBytes } from "./transcript-tail.js";

/** How far the capture row's time may be from the transcript's record of the prompt. */
export const CAPTURE_WINDOW_MS = 10 * 60 * 1000;
/** How much of the transcript's end is searched for the prompt and the reply before it. */
export const TRANSCRIPT_TAIL_BYTES = 1024 * 1024;

export interface SortInput {
  ledgerDir: string;
  nowMs: number;
  sessionId: string;
  transcriptPath: string | null;
  /** The capture classifier's verdict kind on a prompt and the reply before it (the main bundle's). */
  verdictKind: (prompt: string, reply: string | null) => string;
  /** How long to wait for the transcript to hold the capture's prompt (TRANSCRIPT_WAIT_MS unless given). */
  transcriptWaitMs?: number;
}

export type ReflectOutcome =
  | { ran: false }
  | { ran: true; sorted: boolean; exchange_id: string | null; cause: string | null; note: string };

/** A hook row of the errata ledger, as the gate found it. */
export interface CaptureRow {
  id: string;
  ts: string;
  kind: string;
  complaint: string;
}

/** The exchange id the transcript reader gives a turn (runtime/transcripts/ids.ts exchangeId, with the hook's SHA-256). */
export function claudeCodeExchangeId(session: string, key: string): string {
  return `ex-${sha256Hex(`claude-code\u0000${session}\u0000${key}`).slice(0, 16)}`;
}

/**
 * How long a Stop waits for the transcript to hold the captured prompt. The client writes its
 * transcript asynchronously: on a loaded machine the real client (2.1.328) ran the Stop hook
 * while the transcript's last typed prompt was still the one before the correction, and the
 * reflection left the correction to the audit (the e2e mod file lost its sorted line in about
 * one run of three). It waits only while the transcript's last typed prompt is older than the
 * capture and is not it (or there is none): the session's newest hook row is then a capture no
 * reflection has handled whose prompt the client has not written yet. The transcript is looked
 * at again after TRANSCRIPT_POLL_MS, then after twice as long each time (50, 100, 200 ms, …), and
 * once more at the wait's end: a prompt the client writes late is written within moments, and
 * a prompt that never comes (a capture whose Stop the client ran with another transcript) cost
 * 60 looks at a fixed 50 ms, about 10 M instructions, where the doubling takes 7
 * (docs/privacy.md "Cost"). The wait's end is the same 3 s: a prompt written before it is sorted.
 */
export const TRANSCRIPT_WAIT_MS = 3000;
const TRANSCRIPT_POLL_MS = 50;

/** Sorts the gate's row if it is the last prompt's capture; every run ends in one receipt naming the erratum. */
export async function sortCapture(input: SortInput, row: CaptureRow): Promise<ReflectOutcome> {
  const dir = join(input.ledgerDir, LADDER_DIR);
  const at = new Date(input.nowMs).toISOString();
  const done = (sorted: boolean, exchangeId: string | null, cause: string | null, why: string, counts: Record<string, number>): ReflectOutcome => {
    const note = `${row.id}: ${why}`;
    appendLines(join(dir, RECEIPTS_FILE), [{ v: 1, loop: "reflection", at, night: at.slice(0, 10), ok: true, counts, note }]);
    return { ran: true, sorted, exchange_id: exchangeId, cause, note };
  };
  // Read again only when the file changed (its inode, size or modification time): a poll of an
  // unchanged transcript costs one stat, not a tail read and parse (docs/privacy.md "Cost": the
  // 3 s wait for a prompt that never comes cost about 75 M instructions).
  let seen: string | null = null;
  let last: LastTurn | null = null;
  const read = (): LastTurn | null => {
    const st = input.transcriptPath === null ? undefined : statSync(input.transcriptPath, { throwIfNoEntry: false });
    if (st === undefined) return (seen = null);
    const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (key !== seen) [seen, last] = [key, lastTypedTurn(input.transcriptPath!)];
    return last;
  };
  // Not there yet: no typed prompt, or the last one is older than the capture and is not it (a
  // newer prompt that is not the capture means the capture's Stop never ran: no wait then).
  const pending = (t: LastTurn | null): boolean => t === null || (!matches(row, t.text, Date.parse(t.ts ?? "")) && !(Date.parse(t.ts ?? "") >= Date.parse(row.ts)));
  let turn = read();
  const waitMs = input.transcriptWaitMs ?? TRANSCRIPT_WAIT_MS;
  for (let t0 = Date.now(), pause = TRANSCRIPT_POLL_MS; input.transcriptPath !== null && pending(turn) && Date.now() - t0 < waitMs; turn = read(), pause *= 2) {
    await new Promise((r) => setTimeout(r, Math.max(1, Math.min(pause, waitMs - (Date.now() - t0)))));
  }
  if (turn === null) return done(false, null, null, "no typed prompt in the transcript; left for the audit", { sorted: 0, left_for_audit: 1 });
  if (!matches(row, turn.text, Date.parse(turn.ts ?? ""))) return done(false, null, null, "not the capture of the transcript's last prompt; left for the audit", { sorted: 0, left_for_audit: 1 });
  if (turn.uuid === null) return done(false, null, null, "the prompt's record has no uuid; left for the audit", { sorted: 0, left_for_audit: 1 });
  const exchangeId = claudeCodeExchangeId(turn.session ?? "?", turn.uuid);
  if (sortedIds(join(dir, SORTED_FILE)).has(exchangeId)) return done(false, exchangeId, null, "already sorted; the first cause stands", { sorted: 0, duplicates: 1 });
  const weights = loadCauseWeights();
  if (weights === null) return done(false, exchangeId, null, "no cause model in this build (datasets/weights/ladder-causes.json); left for the audit", { sorted: 0, left_for_audit: 1 });
  const model = compileCauseModel(weights);
  // No cue read off the prompt or the reply (the capture verdict alone is none): the model's
  // answer is its constant default vector, whose top class is beyond_model and which says
  // nothing of this correction. It is left for the audit as undecided (CauseModel.sort), never
  // stored as a cause: the first cause stands, so a stored beyond_model would close it.
  if (!model.features(turn.text, turn.reply, "none").some((x) => x !== 0)) return done(false, exchangeId, null, "undecided (no cue of the cause model fires); left for the audit", { sorted: 0, undecided: 1 });
  const kind = input.verdictKind(turn.text, turn.reply);
  const p = model.probabilities(turn.text, turn.reply, kind);
  const cause = model.classes[p.indexOf(Math.max(...p))]!;
  const probs = Object.fromEntries(model.classes.map((c, k) => [c, Math.round(p[k]! * 1e4) / 1e4]));
  appendLines(join(dir, SORTED_FILE), [{ v: 1, exchange_id: exchangeId, cause, by: "reflection", erratum_id: row.id, session_id: input.sessionId, p: probs, at }]);
  return done(true, exchangeId, cause, `sorted (${cause})`, { sorted: 1 });
}

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();
const MARKER = /\[REDACTED:[^\]]*\]/;
/** What capture-row.ts clipComplaint appends to a complaint it cut. */
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
