/**
 * A Claude Code transcript read for the ladder: the owner's typed turns with the full tool
 * calls around them (the exchange builder keeps only summaries; undo detection and the
 * replay of PreToolUse payloads need the inputs), and every tool call as the PreToolUse
 * payload Claude Code would have sent for it.
 *
 * Only lines the transcript module calls typed become turns: tool results (a fetched web
 * page, a command's output), meta lines, sidechains (another agent) and command echoes never
 * do. Lines are taken in file order (rewound branches are not separated here: the nightly
 * auditor reads whole sessions, and a rewind's abandoned turn still shows what the owner
 * said).
 *
 * Example: (await transcriptTurns("s.jsonl")).turns[0] -> {origin: "typed", text: "fix the test",
 * tools_before: [], tools_after: [{name: "Bash", input: {command: "npm test"}}], ...}.
 */
import { assistantPart, exchangeId, readTranscript, typedPromptVerdict } from "../transcripts/index.js";
import type { OwnerTurn, ToolUseLite } from "./signals.js";

export interface RecordedToolCall {
  session_id: string;
  tool_use_id: string | null;
  ts: string | null;
  tool_name: string;
  tool_input: Record<string, unknown>;
  cwd: string | null;
  /** Index of the typed turn this call answered (-1 before the first). */
  turn: number;
}

export interface TranscriptTurns {
  turns: OwnerTurn[];
  calls: RecordedToolCall[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function transcriptTurns(path: string): Promise<TranscriptTurns> {
  const turns: OwnerTurn[] = [];
  const calls: RecordedToolCall[] = [];
  let lastReply: string | null = null;
  let since: ToolUseLite[] = [];
  for await (const { rec } of readTranscript(path)) {
    if (rec.isSidechain) continue;
    const part = assistantPart(rec);
    if (part !== null) {
      if (part.texts.length > 0) lastReply = part.texts.join("\n");
      for (const t of part.toolUses) {
        const input = isObj(t.input) ? t.input : {};
        since.push({ name: t.name, input });
        calls.push({ session_id: rec.sessionId ?? "?", tool_use_id: t.id, ts: rec.timestamp, tool_name: t.name, tool_input: input, cwd: rec.cwd, turn: turns.length - 1 });
      }
      continue;
    }
    const verdict = typedPromptVerdict(rec);
    if (verdict === null || !verdict.typed) continue;
    const prev = turns[turns.length - 1];
    if (prev) turns[turns.length - 1] = { ...prev, tools_after: since };
    const session = rec.sessionId ?? "?";
    turns.push({
      exchange_id: exchangeId("claude-code", session, rec.uuid ?? `line:${turns.length}`),
      session_id: session,
      ts: rec.timestamp ?? "",
      origin: "typed",
      text: verdict.text,
      reply_before: lastReply,
      tools_before: since,
      tools_after: [],
    });
    since = [];
  }
  const last = turns[turns.length - 1];
  if (last) turns[turns.length - 1] = { ...last, tools_after: since };
  return { turns, calls };
}

/** The PreToolUse payload Claude Code sends for a recorded call (the fields the check runner reads). */
export function preToolUsePayload(c: RecordedToolCall): Record<string, unknown> {
  return { session_id: c.session_id, hook_event_name: "PreToolUse", cwd: c.cwd, tool_name: c.tool_name, tool_input: c.tool_input, tool_use_id: c.tool_use_id };
}
