/**
 * What the Stop hook keeps for the next capture: the last assistant reply of a session, in
 * `<stateDir>/hook/last-reply-<16 hex of sha256(session)>.json`, written atomically (temp
 * file + rename). Files untouched for 7 days are removed when a new one is written.
 * zod-free (hook path); a file that does not parse is treated as absent.
 *
 * Example file: `{"schema":"hook-last-reply/1","session_id":"0b7c…","ts":"2026-11-30T12:00:00.000Z",
 * "reply":"Done: the tests pass.","model":"claude-sonnet-4-5"}`
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const LAST_REPLY_SCHEMA = "hook-last-reply/1";
/** A reply longer than this is kept by its end (the preview and the hash use what is kept). */
export const MAX_KEPT_REPLY_CHARS = 256 * 1024;
const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;

export interface LastReply {
  schema: typeof LAST_REPLY_SCHEMA;
  session_id: string;
  ts: string;
  reply: string;
  model: string | null;
}

export function hookStateDir(stateDir: string): string {
  return join(stateDir, "hook");
}

function fileFor(stateDir: string, sessionId: string): string {
  const h = createHash("sha256").update(sessionId).digest("hex").slice(0, 16);
  return join(hookStateDir(stateDir), `last-reply-${h}.json`);
}

export function saveLastReply(stateDir: string, entry: Omit<LastReply, "schema">, nowMs: number): string {
  const dir = hookStateDir(stateDir);
  mkdirSync(dir, { recursive: true });
  const file = fileFor(stateDir, entry.session_id);
  const reply = entry.reply.length > MAX_KEPT_REPLY_CHARS ? entry.reply.slice(-MAX_KEPT_REPLY_CHARS) : entry.reply;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ schema: LAST_REPLY_SCHEMA, ...entry, reply })}\n`);
  renameSync(tmp, file);
  prune(dir, nowMs, file);
  return file;
}

export function loadLastReply(stateDir: string, sessionId: string): LastReply | null {
  try {
    const v = JSON.parse(readFileSync(fileFor(stateDir, sessionId), "utf8")) as Partial<LastReply>;
    if (v.schema !== LAST_REPLY_SCHEMA || v.session_id !== sessionId || typeof v.reply !== "string" || typeof v.ts !== "string") return null;
    return { schema: LAST_REPLY_SCHEMA, session_id: sessionId, ts: v.ts, reply: v.reply, model: typeof v.model === "string" ? v.model : null };
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
