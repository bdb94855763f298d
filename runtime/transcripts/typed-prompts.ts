import type { ToolCall } from "../../schemas/exchange.js";
import { scanTranscript, type ScanStats } from "./scan.js";

/** A typed prompt on the live branch of a transcript, with the context around it. */
export interface TypedPrompt {
  sessionId: string;
  /** The prompt line's uuid (null for very old lines without one). */
  uuid: string | null;
  /** The typed text, system reminders and IDE tags stripped. */
  text: string;
  ts: string | null;
  lineNo: number;
  /** "queued": typed while the assistant was busy. */
  source: "user" | "queued";
  cwd: string | null;
  version: string | null;
  model: string | null;
  /** The end of the assistant's reply before the prompt, and its time. */
  replyEnd: string | null;
  replyTs: string | null;
  previousAsk: string | null;
  toolCalls: ToolCall[];
  /** The next typed prompt's time in the same session, if any. */
  nextTs: string | null;
  /** True when the transcript line carries the generator's `errataSynthetic: true` mark. */
  synthetic: boolean;
}

/**
 * The typed prompts of one transcript, oldest first, for sweeps that are not exchanges
 * (e.g. `errata mine`). Same filter and live-branch rule as `errata exchanges`.
 *
 * Example: `(await typedPrompts("spotter/tool_heavy.jsonl")).prompts.map(p => p.lineNo)` → `[4, 26]`.
 */
export async function typedPrompts(path: string, opts: { start?: number; firstLineNo?: number } = {}): Promise<{ prompts: TypedPrompt[]; stats: ScanStats }> {
  const r = await scanTranscript(path, opts);
  const prompts = r.exchanges.map((ex, i): TypedPrompt => {
    const meta = r.prompts[i];
    return {
      sessionId: ex.session_id,
      uuid: meta?.uuid ?? null,
      text: ex.prompt,
      ts: ex.prompt_ts,
      lineNo: meta?.lineNo ?? 0,
      source: meta?.source ?? "user",
      cwd: ex.cwd,
      version: ex.version,
      model: ex.model,
      replyEnd: ex.reply_end,
      replyTs: ex.reply_ts,
      previousAsk: ex.previous_ask,
      toolCalls: ex.tool_calls,
      nextTs: r.nextPromptTs[i] ?? null,
      synthetic: ex.synthetic,
    };
  });
  return { prompts, stats: r.stats };
}
