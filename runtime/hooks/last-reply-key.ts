/**
 * Where the Stop hook's last-reply record of a session lives, and the record of a reply whose
 * text the transcript holds: shared by the Stop hook (hook-state.ts) and the mod
 * (runtime/mod/core.ts), which writes the same file through the client's `$.fs` at a turn's end.
 * Pure: no file system, so the mod's bundle (which may import nothing of Node) can hold it.
 *
 * Example: `lastReplyFileName("s1")` -> "last-reply-<16 hex>.json".
 */
import { FNV1A32_OFFSET, FNV1A32_PRIME } from "../../core/fnv1a.js";

export const LAST_REPLY_SCHEMA = "hook-last-reply/1";
/** A reply longer than this is kept by its end (the preview and the hash use what is kept). */
export const MAX_KEPT_REPLY_CHARS = 256 * 1024;

/**
 * 16 hex: two 32-bit lanes over the UTF-16 code units. Lane a is plain FNV-1a (core/fnv1a);
 * lane b starts from another offset and mixes lane a in at every step, so the pair is not
 * two copies of one hash. Stored file names depend on it: it must not change.
 */
export function sessionKey(sessionId: string): string {
  let a = FNV1A32_OFFSET;
  let b = 0x050c5d1f;
  for (let i = 0; i < sessionId.length; i++) {
    const c = sessionId.charCodeAt(i);
    a = Math.imul(a ^ c, FNV1A32_PRIME);
    b = Math.imul(b ^ c, FNV1A32_PRIME) ^ (a >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** The record's file name inside `<stateDir>/hook/`. */
export const lastReplyFileName = (sessionId: string): string => `last-reply-${sessionKey(sessionId)}.json`;

/**
 * The record of a reply the session's transcript holds: its hash (when one is given), time and
 * model, never its text (the capture reads the text from the transcript and redacts it there).
 */
export function withheldReplyRecord(sessionId: string, ts: string, model: string | null, replySha256: string | null): string {
  const record: Record<string, unknown> = { schema: LAST_REPLY_SCHEMA, session_id: sessionId, ts, reply: null, model };
  if (replySha256 !== null) record["reply_sha256"] = replySha256;
  record["reply_withheld"] = true;
  return `${JSON.stringify(record)}\n`;
}
