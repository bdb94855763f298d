import { createHash } from "node:crypto";
import type { Erratum } from "../../../schemas/erratum.js";
import type { Exchange } from "../../../schemas/exchange.js";

/**
 * An erratum seen as an exchange, so the engine's judges can read it: the complaint is the
 * prompt, `context.response_preview` the reply's end, `context.requested` the ask before it,
 * `context.doing` ("Name: summary" lines) the last three tool calls. What a judge sees
 * carries no erratum id, session id, cwd or reporter: the exchange id is a one-way hash of
 * the erratum id and the session is the constant "errata".
 *
 * Example: an erratum `{complaint: "no, that's wrong", context: {requested: "fix the test",
 * response_preview: "All tests pass.", doing: "Bash: npm test"}}` -> `{prompt: "no, that's wrong",
 * reply_end: "All tests pass.", previous_ask: "fix the test", tool_calls: [{name: "Bash",
 * summary: "npm test"}], session_id: "errata", corpus: "errata", ...}`.
 */
export function erratumExchangeId(erratumId: string): string {
  return `ex-${createHash("sha256").update(`errata|${erratumId}`).digest("hex").slice(0, 16)}`;
}

export function erratumToExchange(e: Erratum): Exchange {
  const tools = (e.context.doing ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .slice(-3)
    .map((l) => {
      const i = l.indexOf(":");
      return i > 0 ? { name: l.slice(0, i).trim(), summary: l.slice(i + 1).trim() } : { name: l, summary: "" };
    });
  return {
    schema: "exchange/1",
    id: erratumExchangeId(e.id),
    corpus: "errata",
    session_id: "errata",
    turn: 0,
    prompt: e.complaint,
    prompt_ts: e.ts,
    reply_end: e.context.response_preview,
    reply_ts: null,
    previous_ask: e.context.requested,
    tool_calls: tools,
    cwd: null,
    version: e.context.version,
    model: e.context.model,
    captured: true,
    synthetic: false,
    source_ref: null,
  };
}
