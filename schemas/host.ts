import { z } from "zod";

/**
 * Files a host (the assistant setup Errata watches) writes and Errata only reads and joins.
 * They live in the host folder (ERRATA_HOST_DIR, or `host_dir` in the daily config).
 *
 * `receipts.jsonl`: one line per check run over a delivered output. A receipt passed when
 * every check it ran passed. Several receipts for one output: the newest wins.
 *
 * Example:
 * `{"schema":"receipt/1","id":"rc-0192","ts":"2026-11-29T10:02:11Z","output_id":"out-77a1",
 *   "skill":"release-notes","passed":true,"checks":[{"name":"links-resolve","passed":true}]}`
 */
export const ReceiptCheckSchema = z.object({
  name: z.string().min(1),
  passed: z.boolean(),
});

export const HostReceiptSchema = z.object({
  schema: z.literal("receipt/1"),
  id: z.string().min(1),
  ts: z.string().min(1),
  output_id: z.string().min(1),
  /** The skill that produced the output, when the receipt knows it (the output line wins). */
  skill: z.string().min(1).nullable().optional(),
  passed: z.boolean(),
  checks: z.array(ReceiptCheckSchema).default([]),
  /** The run that produced the output, when the host has runs. */
  run_id: z.string().nullable().optional(),
});
export type HostReceipt = z.infer<typeof HostReceiptSchema>;

/**
 * `outputs.jsonl`: one line per output the host delivered to the owner (a file written, a
 * report, a message a skill produced). A complaint's `context.output_ids` name these ids.
 * `turn` is the index of the typed prompt the output answered, when the host knows it.
 *
 * Example:
 * `{"schema":"output/1","id":"out-77a1","ts":"2026-11-29T10:02:09Z","session_id":"0b7c…",
 *   "turn":4,"skill":"release-notes","model":"claude-sonnet-4-5","run_id":"run-88"}`
 */
export const HostOutputSchema = z.object({
  schema: z.literal("output/1"),
  id: z.string().min(1),
  ts: z.string().min(1),
  session_id: z.string().min(1).nullable(),
  turn: z.number().int().nonnegative().nullable().optional(),
  /** The skill (or tool, or workflow) that produced it; null when the host does not say. */
  skill: z.string().min(1).nullable(),
  model: z.string().min(1).nullable().optional(),
  run_id: z.string().min(1).nullable().optional(),
});
export type HostOutput = z.infer<typeof HostOutputSchema>;
