import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";

/** What an importer returns: exchanges and labels in the shared shapes, plus counts for people. */
export interface ImportResult {
  /** The corpus name written into every exchange ("ab-redial", "dbdc3", ...). */
  corpus: string;
  exchanges: Exchange[];
  labels: Label[];
  /** Counts that describe the import (dialogues, rater rows, items, skipped values, ...). */
  stats: Record<string, number>;
  /** Notes on repaired or skipped input (with row numbers), for stderr. */
  notes: string[];
}

/** An exchange of a labelled dialogue corpus: no timestamps, tools, cwd or model. */
export function corpusExchange(fields: {
  id: string;
  corpus: string;
  session_id: string;
  turn: number;
  prompt: string;
  reply_end: string | null;
  previous_ask: string | null;
  source_ref: string;
  synthetic?: boolean;
}): Exchange {
  return {
    schema: "exchange/1",
    id: fields.id,
    corpus: fields.corpus,
    session_id: fields.session_id,
    turn: fields.turn,
    prompt: fields.prompt,
    prompt_ts: null,
    reply_end: fields.reply_end,
    reply_ts: null,
    previous_ask: fields.previous_ask,
    tool_calls: [],
    cwd: null,
    version: null,
    model: null,
    captured: false,
    synthetic: fields.synthetic ?? false,
    source_ref: fields.source_ref,
  };
}

export function label(exchange_id: string, labeler: string, question: string, value: boolean | number | string, origin: string): Label {
  return { schema: "label/1", exchange_id, labeler, question, value, origin };
}

/** Satisfaction is unhappy at 2 or below on a 1-5 scale (the USS paper's and ANCHORS' convention). */
export const UNHAPPY_MAX_RATING = 2;
