import { scrubForJudge } from "../../engine/index.js";
import type { Exchange } from "../../../schemas/exchange.js";

/**
 * What a judge is shown of an exchange: the projection that every v4 ask builds its input
 * from. It keeps the exchange id (answers are keyed by it; it is a hash, not an identity),
 * the corpus, the turn, the texts and the tool calls, and drops what could identify the
 * owner or the ledger: the session id (a constant "-"), the working folder, timestamps, the
 * source reference, whether the ledger holds an erratum (`captured`) and whether it is
 * synthetic. Every text is scrubbed of home paths, the session id, erratum and exchange ids
 * and UUIDs (`scrubForJudge`).
 *
 * Example: `{session_id: "5b1e…", cwd: "/home/ana/app", prompt: "see /home/ana/app/x.ts", …}`
 * → `{session_id: "-", cwd: null, prompt: "see ~/app/x.ts", …}`.
 */
export function judgeProjection(ex: Exchange, opts: { home?: string | undefined } = {}): Exchange {
  const ctx = { ...(opts.home ? { home: opts.home } : {}), sessionId: ex.session_id };
  const s = (t: string): string => scrubForJudge(t, ctx);
  const sn = (t: string | null): string | null => (t === null ? null : s(t));
  return {
    schema: "exchange/1",
    id: ex.id,
    corpus: ex.corpus,
    session_id: "-",
    turn: ex.turn,
    prompt: s(ex.prompt),
    prompt_ts: null,
    reply_end: sn(ex.reply_end),
    reply_ts: null,
    previous_ask: sn(ex.previous_ask),
    tool_calls: ex.tool_calls.map((t) => ({ name: s(t.name), summary: s(t.summary) })),
    cwd: null,
    version: ex.version,
    model: ex.model,
    captured: false,
    synthetic: false,
    source_ref: null,
  };
}
