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
 * A bad transcript never stops the audit: a turn or tool call without a timestamp that parses
 * is skipped (the shadow gate and the incident dates need one), lines that are not JSON are
 * skipped by the reader, and a file that cannot be read at all gives no turns; each file so
 * damaged gets one warning naming it and what was skipped (`problems`).
 *
 * Example: (await transcriptTurns("s.jsonl")).turns[0] -> {origin: "typed", text: "fix the test",
 * tools_before: [], tools_after: [{name: "Bash", input: {command: "npm test"}}], ...}.
 */
import { assistantPart, emptyStats, exchangeId, readTranscript, typedPromptVerdict } from "../transcripts/index.js";
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
  /** What was skipped in this file, one line naming it (null: nothing). */
  problem: string | null;
}

const validTs = (ts: string | null): ts is string => ts !== null && !Number.isNaN(Date.parse(ts));

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function transcriptTurns(path: string): Promise<TranscriptTurns> {
  const turns: OwnerTurn[] = [];
  const calls: RecordedToolCall[] = [];
  let lastReply: string | null = null;
  let since: ToolUseLite[] = [];
  let noTs = 0;
  const stats = emptyStats(0, 1);
  try {
    for await (const { rec } of readTranscript(path, { stats })) {
      if (rec.isSidechain) continue;
      const part = assistantPart(rec);
      if (part !== null) {
        if (part.texts.length > 0) lastReply = part.texts.join("\n");
        for (const t of part.toolUses) {
          const input = isObj(t.input) ? t.input : {};
          since.push({ name: t.name, input });
          if (!validTs(rec.timestamp)) {
            noTs++;
            continue;
          }
          calls.push({ session_id: rec.sessionId ?? "?", tool_use_id: t.id, ts: rec.timestamp, tool_name: t.name, tool_input: input, cwd: rec.cwd, turn: turns.length - 1 });
        }
        continue;
      }
      const verdict = typedPromptVerdict(rec);
      if (verdict === null || !verdict.typed) continue;
      if (!validTs(rec.timestamp)) {
        noTs++;
        continue;
      }
    const prev = turns[turns.length - 1];
    if (prev) turns[turns.length - 1] = { ...prev, tools_after: since };
    const session = rec.sessionId ?? "?";
      turns.push({
        exchange_id: exchangeId("claude-code", session, rec.uuid ?? `line:${turns.length}`),
        session_id: session,
        ts: rec.timestamp,
        origin: "typed",
        text: verdict.text,
        reply_before: lastReply,
        tools_before: since,
        tools_after: [],
        cwd: rec.cwd,
      });
      since = [];
    }
  } catch (err) {
    // A damaged file (unreadable, a folder, a vanished path) gives what was read before the fault.
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { turns, calls, problem: `transcript ${path}: unreadable (${code}); skipped after ${turns.length} turns` };
  }
  const last = turns[turns.length - 1];
  if (last) turns[turns.length - 1] = { ...last, tools_after: since };
  const parts = [...(noTs > 0 ? [`${noTs} turn(s) or tool call(s) without a timestamp`] : []), ...(stats.broken > 0 ? [`${stats.broken} line(s) not JSON (line ${stats.brokenLineNos.slice(0, 3).join(", ")})`] : [])];
  return { turns, calls, problem: parts.length === 0 ? null : `transcript ${path}: skipped ${parts.join(" and ")}` };
}

/** The PreToolUse payload Claude Code sends for a recorded call (the fields the check runner reads). */
export function preToolUsePayload(c: RecordedToolCall): Record<string, unknown> {
  return { session_id: c.session_id, hook_event_name: "PreToolUse", cwd: c.cwd, tool_name: c.tool_name, tool_input: c.tool_input, tool_use_id: c.tool_use_id };
}
