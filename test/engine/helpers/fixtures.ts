import { createHash } from "node:crypto";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";
import { questionById } from "../../../questions/index.js";

/** A valid exchange; `key` makes the id unique. */
export function makeExchange(key: string, over: Partial<Exchange> = {}): Exchange {
  const id = `ex-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
  return {
    schema: "exchange/1",
    id,
    corpus: "test",
    session_id: `s-${key}`,
    turn: 1,
    prompt: `please look at item ${key}`,
    prompt_ts: null,
    reply_end: "Done. I updated the file.",
    reply_ts: null,
    previous_ask: "update the file",
    tool_calls: [],
    cwd: null,
    version: null,
    model: null,
    captured: false,
    synthetic: true,
    source_ref: null,
    ...over,
  };
}

export const unhappy: Question = questionById.get("detect.unhappy") as Question;
export const correction: Question = questionById.get("detect.correction") as Question;
