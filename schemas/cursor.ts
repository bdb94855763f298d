import { z } from "zod";
/**
 * The resumable sweeps' cursor files in the state folder, each checked with its schema when
 * loaded (runtime/files/cursor.ts): `exchanges-cursor.json` (`errata exchanges`) and
 * `mine-cursor.json` (`errata mine`).
 */

/**
 * Where a carried piece of text lies in its transcript: the line's bytes `[offset, end)` and
 * their SHA-1. The cursor keeps offsets and hashes only, never text (a prompt can hold a
 * secret); a resumed read takes the text from the line again, and a line that no longer
 * hashes the same makes the file be read whole.
 */
export const LineRefSchema = z.object({
  offset: z.number().int().nonnegative(),
  end: z.number().int().positive(),
  sha1: z.string().regex(/^[0-9a-f]{40}$/),
});
export type LineRef = z.infer<typeof LineRefSchema>;

/** Conversation state carried across reads of a growing transcript. */
export const ExchangesCarrySchema = z.object({
  turns: z.record(z.string(), z.number().int().nonnegative()),
  /** The last typed prompt's line (the next exchange's previous ask). */
  lastAskAt: LineRefSchema.nullable(),
  /** The assistant line whose text ends the reply so far. */
  replyEndAt: LineRefSchema.nullable(),
  replyTs: z.string().nullable(),
  model: z.string().nullable(),
  /** The last tool calls (at most 3): each its assistant line and its index among that line's tool uses. */
  toolsAt: z.array(LineRefSchema.extend({ index: z.number().int().nonnegative() })).max(3),
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

/** `exchanges-cursor/1` kept the carried text itself; such a file is read as empty (transcripts/cursor.ts). */
export const ExchangesCursorSchema = z.object({
  schema: z.literal("exchanges-cursor/2"),
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

/**
 * Where `errata sync` stopped pulling from one source: the last sequence number it wrote.
 * Example: `{"schema":"sync-cursor/1","source":"http://127.0.0.1:8787","after":240}`.
 */
export const SyncCursorSchema = z.strictObject({
  schema: z.literal("sync-cursor/1"),
  source: z.string().min(1),
  after: z.number().int().nonnegative(),
});
