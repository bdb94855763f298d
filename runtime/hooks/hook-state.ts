/**
 * What the Stop hook keeps for the next capture: which reply a session's last turn ended with
 * (its hash, time and model), in `<stateDir>/hook/last-reply-<16 hex of FNV-1a(session)>.json`,
 * written atomically (temp file + rename, mode 0600; a failed write leaves no temp file).
 *
 * The reply's text is not kept when the session has a transcript: the capture that follows
 * reads it from there (the transcript holds the same reply by then) and redacts it as it
 * redacts everything it writes. So a Stop hook in Claude Code, which runs after every reply,
 * scans no text and runs no part of the redactor (docs/privacy.md "Cost"), and nothing the
 * reply holds is copied before it was redacted. Only with no transcript (a host that gives
 * none) is the text kept, when the redactor's pre-filter proves it holds nothing any rule
 * could take (privacy/prefilter.ts: a cleared text is one the redactor returns unchanged), and
 * marked `reply_cleared` so that the capture does not scan it again; a reply it cannot clear
 * is withheld there too.
 *
 * The hash is of the reply as delivered (its last MAX_KEPT_REPLY_CHARS), so a capture that reads
 * the transcript computes the same one, and fills `response_hash` from this file when it cannot
 * read the text. The file name needs no cryptographic hash: the file records its session, and a
 * file of another session is treated as absent. Files untouched for 7 days are removed when a
 * new one is written. zod-free (hook path); a file that does not parse is treated as absent.
 *
 * Example file: `{"schema":"hook-last-reply/1","session_id":"0b7c…","ts":"2026-11-30T12:00:00.000Z",
 * "reply":null,"model":"claude-sonnet-4-5","reply_sha256":"sha256:9f2c…","reply_withheld":true}`;
 * with no transcript, `"reply":"Done: the tests pass.", …, "reply_cleared":true`. A file of an
 * earlier version may hold a reply without the mark; the capture redacts it as any text.
 */
import { sha256Tagged } from "../../core/sha256.js";
import { readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
// The module itself, not runtime/files' index (which loads zod and the lock): the hook path.
import { writeFileAtomic } from "../files/atomic.js";
// The pre-filter alone, not the redactor, and only for a session without a transcript.
import { allCleared } from "../privacy/redact.js";
import { lastReplyFileName, LAST_REPLY_SCHEMA, MAX_KEPT_REPLY_CHARS } from "./last-reply-key.js";

export { LAST_REPLY_SCHEMA, MAX_KEPT_REPLY_CHARS };
const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;

export interface LastReply {
  schema: typeof LAST_REPLY_SCHEMA;
  session_id: string;
  ts: string;
  /** The reply as delivered, or null when its text was not kept (the transcript has it, or it may hold a secret). */
  reply: string | null;
  model: string | null;
  /** `sha256:<hex>` of the reply as delivered (absent in files written before it was kept). */
  reply_sha256?: string;
  /** True when the reply's text was not kept. */
  reply_withheld?: true;
  /** True when the reply was kept because the pre-filter cleared it (files of earlier versions lack it). */
  reply_cleared?: true;
}

export function hookStateDir(stateDir: string): string {
  return join(stateDir, "hook");
}

function fileFor(stateDir: string, sessionId: string): string {
  return join(hookStateDir(stateDir), lastReplyFileName(sessionId));
}

/**
 * Records the reply: its hash, time and model; its text only when there is no transcript the
 * capture could read it from and the pre-filter clears it.
 */
export function saveLastReply(
  stateDir: string,
  entry: Omit<LastReply, "schema" | "reply_sha256" | "reply_withheld" | "reply_cleared" | "reply"> & { reply: string },
  nowMs: number,
  /** The transcript the capture can read the reply from, or null: then the text is kept when the pre-filter clears it. */
  transcriptPath: string | null,
): string {
  const dir = hookStateDir(stateDir);
  const file = fileFor(stateDir, entry.session_id);
  const reply = entry.reply.length > MAX_KEPT_REPLY_CHARS ? entry.reply.slice(-MAX_KEPT_REPLY_CHARS) : entry.reply;
  // allCleared: the pre-filter, and the owner's own values (known-store.ts), which are in no
  // pre-filter condition: a password of words from the environment, the store or the project's
  // .env was kept in clear here when the pre-filter alone decided (issue 34's walk as a user).
  const kept = transcriptPath === null && allCleared([reply]);
  const record: LastReply = { schema: LAST_REPLY_SCHEMA, ...entry, reply: kept ? reply : null, reply_sha256: sha256Tagged(reply) };
  if (kept) record.reply_cleared = true;
  else record.reply_withheld = true;
  // Temp file + rename; a failed write (a full disk) removes its temp file.
  writeFileAtomic(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  prune(dir, nowMs, file);
  return file;
}

export function loadLastReply(stateDir: string, sessionId: string): LastReply | null {
  try {
    const v = JSON.parse(readFileSync(fileFor(stateDir, sessionId), "utf8")) as Partial<LastReply>;
    const withheld = v.reply_withheld === true && v.reply === null;
    if (v.schema !== LAST_REPLY_SCHEMA || v.session_id !== sessionId || (typeof v.reply !== "string" && !withheld) || typeof v.ts !== "string") return null;
    const kept: LastReply = { schema: LAST_REPLY_SCHEMA, session_id: sessionId, ts: v.ts, reply: withheld ? null : (v.reply as string), model: typeof v.model === "string" ? v.model : null };
    if (withheld) kept.reply_withheld = true;
    else if (v.reply_cleared === true) kept.reply_cleared = true;
    if (typeof v.reply_sha256 === "string" && /^sha256:[0-9a-f]{64}$/.test(v.reply_sha256)) kept.reply_sha256 = v.reply_sha256;
    return kept;
  } catch {
    return null;
  }
}

function prune(dir: string, nowMs: number, keep: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith("last-reply-")) continue;
    const file = join(dir, name);
    if (file === keep) continue;
    try {
      if (nowMs - statSync(file).mtimeMs > PRUNE_AFTER_MS) unlinkSync(file);
    } catch {
      // another hook pruned it first
    }
  }
}
