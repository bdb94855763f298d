/**
 * The reply a prompt answers, for the hook: the transcript's last reply, with the Stop hook's
 * record of it (hook-state.ts: its hash, time and model; its text only for a session without a
 * transcript) for when the transcript gives none; plus what the transcript's end says about
 * the turn (the ask, the tool calls, the model, the version). A kept text is used when fresh.
 * Loaded by the hook only when a rule needs the reply or a row will be written.
 *
 * Example: transcript ending in the reply "Done." -> `{reply: "Done.", replyHash: null, tail}`
 * (the capture hashes it); no transcript, a fresh kept "Done." -> `{reply: "Done.", replyHash: "sha256:…"}`.
 */
import { existsSync } from "node:fs";
import { resolvePaths } from "../paths.js";
import { isoTime } from "../store/ids.js";
import { knowProjectValues } from "../privacy/known-store.js";
import { rememberCleared } from "../privacy/redact.js";
import { loadLastReply, saveLastReply } from "./hook-state.js";
import { emptyTail, readTranscriptTail, type TranscriptTail } from "./transcript-tail.js";

export interface ReplyContext {
  reply: string | null;
  /** `sha256:<hex>` of `reply` when the Stop hook kept it (else the capture computes it). */
  replyHash: string | null;
  tail: TranscriptTail;
  keptModel: string | null;
}

export function tailOf(transcriptPath: string | null, prompt: string | null, say: (l: string) => void): TranscriptTail {
  if (transcriptPath === null || !existsSync(transcriptPath)) return emptyTail();
  try {
    return readTranscriptTail(transcriptPath, prompt);
  } catch (err) {
    say(`transcript unreadable (${err instanceof Error ? err.message : String(err)}); capturing without it`);
    return emptyTail();
  }
}

export function replyContext(
  env: Record<string, string | undefined>,
  cwd: string,
  sessionId: string | null,
  transcriptPath: string | null,
  prompt: string,
  say: (l: string) => void,
): ReplyContext {
  const tail = tailOf(transcriptPath, prompt, say);
  const saved = sessionId === null ? null : loadLastReply(resolvePaths(env, cwd).stateDir, sessionId);
  // The Stop hook's record is of the reply as the host delivered it; it is stale when it was
  // made before the previous prompt (that turn was interrupted and never stopped).
  const fresh = saved !== null && (tail.previousPromptTs === null || Date.parse(saved.ts) >= Date.parse(tail.previousPromptTs));
  // A kept text (a session without a transcript, or an earlier version's file), else the transcript's.
  const reply = fresh && saved.reply !== null ? saved.reply : (tail.reply ?? saved?.reply ?? null);
  const fromKept = saved !== null && saved.reply !== null && reply === saved.reply;
  // No text to hash (the transcript could not be read): the record's hash still names the reply.
  const replyHash = fromKept || (reply === null && fresh) ? (saved.reply_sha256 ?? null) : null;
  // The Stop hook kept it as it is because the pre-filter cleared it: the capture need not scan it again.
  if (fromKept && saved.reply_cleared === true) rememberCleared(saved.reply!);
  return { reply, replyHash, tail, keptModel: saved?.model ?? null };
}

/**
 * The Stop hook: record the last reply (given, or the transcript's) for the next capture: its
 * hash, and its text only when there is no transcript to read it from later.
 */
export function keepLastReply(
  env: Record<string, string | undefined>,
  cwd: string,
  nowMs: number,
  sessionId: string,
  given: string | null,
  transcriptPath: string | null,
  say: (l: string) => void,
): void {
  const tail = given === null ? tailOf(transcriptPath, null, say) : emptyTail();
  const reply = given ?? tail.reply;
  if (reply === null) return;
  const readable = transcriptPath !== null && existsSync(transcriptPath) ? transcriptPath : null;
  // With no transcript the text itself may be kept (when nothing in it is a secret): the
  // project's .env values count as secrets there too. With one, only the hash is kept.
  if (readable === null) knowProjectValues(cwd);
  saveLastReply(resolvePaths(env, cwd).stateDir, { session_id: sessionId, ts: isoTime(nowMs), reply, model: tail.model }, nowMs, readable);
}
