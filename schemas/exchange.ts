import { z } from "zod";

/** One tool call the assistant made before the prompt: its name and a short summary of its input. */
export const ToolCallSchema = z.object({
  name: z.string(),
  summary: z.string(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * An exchange: one typed prompt with the end of the reply before it, the ask before that,
 * the last three tool calls, and whether the ledger already holds an erratum for that turn.
 * Labelled corpora (AB-ReDial, DBDC3, ...) are converted to the same shape, with
 * dialogue = session.
 *
 * Example: `{schema: "exchange/1", id: "ex-3f2a…", corpus: "ab-redial", session_id: "F1#1",
 * turn: 2, prompt: "No, I said comedies.", reply_end: "How about Saw?", …}`
 */
export const ExchangeSchema = z.object({
  schema: z.literal("exchange/1"),
  /** Stable id: "ex-" + 16 hex of a hash of corpus, session and the prompt's own id or position. */
  id: z.string().regex(/^ex-[0-9a-f]{16}$/),
  /** Where it came from: "claude-code", "ab-redial", "dbdc3", "conture", "ukp", "uss-sgd", "uss-mwoz", "synthetic". */
  corpus: z.string().min(1),
  session_id: z.string().min(1),
  /** 0-based index of this typed prompt within its session. */
  turn: z.number().int().nonnegative(),
  /** The typed text, system reminders and IDE tags stripped. */
  prompt: z.string(),
  prompt_ts: z.string().nullable(),
  /** The end of the assistant's reply before the prompt (null for the first prompt). */
  reply_end: z.string().nullable(),
  reply_ts: z.string().nullable(),
  /** The typed prompt before this one (the ask the reply answered). */
  previous_ask: z.string().nullable(),
  tool_calls: z.array(ToolCallSchema).max(3),
  cwd: z.string().nullable(),
  version: z.string().nullable(),
  model: z.string().nullable(),
  /** The ledger already holds an erratum for this turn. */
  captured: z.boolean(),
  /** True for generated sessions; planted failures are always reported as synthetic. */
  synthetic: z.boolean(),
  /** Where to find the prompt in its source (file and line, or row), for people reading reports. */
  source_ref: z.string().nullable(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;
