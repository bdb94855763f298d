import { z } from "zod";
import { ToolCallSchema } from "./exchange.js";

/**
 * The resumable sweeps' cursor files in the state folder, each checked with its schema when
 * loaded (runtime/files/cursor.ts): `exchanges-cursor.json` (`errata exchanges`) and
 * `mine-cursor.json` (`errata mine`).
 */

/** Conversation state carried across reads of a growing transcript. */
export const ExchangesCarrySchema = z.object({
  turns: z.record(z.string(), z.number().int().nonnegative()),
  lastAsk: z.string().nullable(),
  replyEnd: z.string().nullable(),
  replyTs: z.string().nullable(),
  model: z.string().nullable(),
  tools: z.array(ToolCallSchema),
  recentUuids: z.array(z.string()),
});

/**
 * Where `errata exchanges` stopped in one transcript. Example: `{ino: 41, size: 5120,
 * mtimeMs: 1764460800000, offset: 5120, nextLineNo: 31, tailHash: "9c1e…", carry: {…}}`.
 */
export const ExchangesFileCursorSchema = z.object({
  ino: z.number(),
  /** Size and mtime when last read to the end; a match means "unchanged, skip". */
  size: z.number(),
  mtimeMs: z.number(),
  /** Where the next read resumes (end of the last complete line consumed). */
  offset: z.number().int().nonnegative(),
  nextLineNo: z.number().int().positive(),
  /** SHA-1 of the bytes before `offset` (runtime/transcripts/cursor.ts, TAIL_CHECK_BYTES). */
  tailHash: z.string(),
  carry: ExchangesCarrySchema,
});
export type ExchangesFileCursor = z.infer<typeof ExchangesFileCursorSchema>;

export const ExchangesCursorSchema = z.object({
  schema: z.literal("exchanges-cursor/1"),
  /** Keyed by the transcript's path. */
  files: z.record(z.string(), ExchangesFileCursorSchema),
});
export type ExchangesCursor = z.infer<typeof ExchangesCursorSchema>;

/** `errata mine`: each transcript's size and mtime when it was last swept to its end. */
export const MineCursorSchema = z.object({
  schema: z.literal("mine-cursor/1"),
  /** Keyed by the transcript's path relative to the sweep's root. */
  files: z.record(z.string(), z.object({ size: z.number(), mtimeMs: z.number() })),
});
export type MineCursor = z.infer<typeof MineCursorSchema>;
