// Synthetic rows for the eval commands' tests: an exchange id from a number, and one
// `exchange/1` line with every field the schema requires (the test states only what differs).
export const exId = (i: number): string => `ex-${i.toString(16).padStart(16, "0")}`;

/** One exchange/1 row as a JSON line: item `i` of a synthetic corpus, `fields` overriding. */
export function exchangeLine(i: number, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ schema: "exchange/1", id: exId(i), corpus: "synthetic", session_id: `s${i}`, turn: 0, prompt: `p${i}`, prompt_ts: null, reply_end: null, reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null, ...fields });
}
