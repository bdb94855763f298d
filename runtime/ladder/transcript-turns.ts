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
 * The owner saying no to a tool call in the permission dialog is a turn of its own (a signal
 * the ladder counts, signals.ts): the client marks the call's tool_result line
 * `permissionDecision.source: "user_reject"` (2.1.328; a hook's or a rule's deny says
 * `"hook"` or another source, and is not the owner's), its content the owner's words when
 * `holdsPersonsWords`; older transcripts say only the client's fixed rejection text, "The user
 * doesn't want to proceed with this tool use", at the start of an error result (read too: a
 * tool's own output never starts an error result with it). The turn's `rejected` names the
 * calls refused, its `text` the owner's words (empty when none were given).
 *
 * Example: (await transcriptTurns("s.jsonl")).turns[0] -> {origin: "typed", text: "fix the test",
 * tools_before: [], tools_after: [{name: "Bash", input: {command: "npm test"}}], ...}.
 */
import { assistantPart, emptyStats, exchangeId, readTranscript, typedPromptVerdict, type TranscriptRecord } from "../transcripts/index.js";
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

/** The client's own words when the owner refuses a call in the dialog (older transcripts carry only these). */
export const REJECT_TEXT = "The user doesn't want to proceed with this tool use";
const SAID = /the user said:\s*([\s\S]*)$/i;

/**
 * The owner's refusals in one transcript line: each refused call's id and the owner's words
 * (null when none). None for a line that is not the owner's no (a hook's or a rule's deny, a
 * tool's error).
 */
export function ownerRejections(raw: Record<string, unknown>): Array<{ toolUseId: string; words: string | null }> {
  const message = raw["message"];
  const content = isObj(message) ? message["content"] : undefined;
  if (!Array.isArray(content)) return [];
  const decision = raw["permissionDecision"];
  const byOwner = isObj(decision) && decision["source"] === "user_reject";
  const out: Array<{ toolUseId: string; words: string | null }> = [];
  for (const c of content) {
    if (!isObj(c) || c["type"] !== "tool_result" || typeof c["tool_use_id"] !== "string" || c["is_error"] !== true) continue;
    const text = typeof c["content"] === "string" ? c["content"] : Array.isArray(c["content"]) ? c["content"].map((b) => (isObj(b) && typeof b["text"] === "string" ? b["text"] : "")).join("\n") : "";
    const fixed = text.startsWith(REJECT_TEXT);
    if (!byOwner && !fixed) continue;
    const words = fixed ? (SAID.exec(text)?.[1]?.trim() ?? null) : raw["holdsPersonsWords"] === true ? text.trim() : null;
    out.push({ toolUseId: c["tool_use_id"], words: words === "" ? null : words });
  }
  return out;
}

export async function transcriptTurns(path: string): Promise<TranscriptTurns> {
  const turns: OwnerTurn[] = [];
  const calls: RecordedToolCall[] = [];
  let lastReply: string | null = null;
  let since: ToolUseLite[] = [];
  /** The calls of the current reply by id: a refusal names one. */
  const byId = new Map<string, ToolUseLite>();
  let noTs = 0;
  const stats = emptyStats(0, 1);
  /** A turn of the owner's (a typed prompt, or a refusal in the dialog): the turn before gets the calls since. */
  const ownerTurn = (rec: Pick<TranscriptRecord, "sessionId" | "uuid" | "cwd">, ts: string, text: string, extra: Pick<OwnerTurn, "rejected">): void => {
    const prev = turns[turns.length - 1];
    if (prev) turns[turns.length - 1] = { ...prev, tools_after: since };
    const session = rec.sessionId ?? "?";
    turns.push({
      exchange_id: exchangeId("claude-code", session, rec.uuid ?? `line:${turns.length}`),
      session_id: session,
      ts,
      origin: "typed",
      text,
      reply_before: lastReply,
      tools_before: since,
      tools_after: [],
      cwd: rec.cwd,
      ...extra,
    });
    since = [];
  };
  try {
    for await (const { rec } of readTranscript(path, { stats })) {
      if (rec.isSidechain) continue;
      const part = assistantPart(rec);
      if (part !== null) {
        if (part.texts.length > 0) lastReply = part.texts.join("\n");
        for (const t of part.toolUses) {
          const input = isObj(t.input) ? t.input : {};
          const lite = { name: t.name, input };
          since.push(lite);
          if (t.id) byId.set(t.id, lite);
          if (!validTs(rec.timestamp)) {
            noTs++;
            continue;
          }
          calls.push({ session_id: rec.sessionId ?? "?", tool_use_id: t.id, ts: rec.timestamp, tool_name: t.name, tool_input: input, cwd: rec.cwd, turn: turns.length - 1 });
        }
        continue;
      }
      const refused = rec.kind === "user" && isObj(rec.raw) ? ownerRejections(rec.raw) : [];
      if (refused.length > 0 && validTs(rec.timestamp)) {
        // The owner's no in the dialog: a turn of the owner's, its words (if any) the text.
        const calls = refused.map((r) => byId.get(r.toolUseId)).filter((c): c is ToolUseLite => c !== undefined);
        ownerTurn(rec, rec.timestamp, refused.map((r) => r.words).filter((w): w is string => w !== null).join("\n"), { rejected: calls });
        continue;
      }
      const verdict = typedPromptVerdict(rec);
      if (verdict === null || !verdict.typed) continue;
      if (!validTs(rec.timestamp)) {
        noTs++;
        continue;
      }
      ownerTurn(rec, rec.timestamp, verdict.text, {});
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
