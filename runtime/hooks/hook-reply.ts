/**
 * The reply a prompt answers, for the hook: the Stop hook's kept copy when it is fresh (and
 * was not withheld as possibly holding a secret), else the transcript's last reply; plus what the transcript's end says about the turn (the ask,
 * the tool calls, the model, the version). Loaded by the hook only when a rule needs the
 * reply or a row will be written.
 *
 * Example: kept reply "Done." (kept after the previous prompt) -> `{reply: "Done.", tail}`.
 */
import { existsSync } from "node:fs";
import { resolvePaths } from "../paths.js";
import { isoTime } from "../store/ids.js";
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
  // The Stop hook's copy is the reply as the host delivered it; it is stale when it was
  // kept before the previous prompt (that turn was interrupted and never stopped).
  const fresh = saved !== null && (tail.previousPromptTs === null || Date.parse(saved.ts) >= Date.parse(tail.previousPromptTs));
  // A withheld copy (the Stop hook's pre-filter could not clear it) is read from the transcript.
  const reply = fresh && saved.reply !== null ? saved.reply : (tail.reply ?? saved?.reply ?? null);
  const fromKept = saved !== null && saved.reply !== null && reply === saved.reply;
  const replyHash = fromKept ? (saved.reply_sha256 ?? null) : null;
  // The Stop hook kept it as it is because the pre-filter cleared it: the capture need not scan it again.
  if (fromKept && saved.reply_cleared === true) rememberCleared(saved.reply!);
  return { reply, replyHash, tail, keptModel: saved?.model ?? null };
}

/** The Stop hook: keep the last reply (given, or the transcript's) for the next capture. */
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
  saveLastReply(resolvePaths(env, cwd).stateDir, { session_id: sessionId, ts: isoTime(nowMs), reply, model: tail.model }, nowMs);
}
