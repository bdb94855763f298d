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
