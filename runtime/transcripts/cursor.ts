import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { ToolCallSchema } from "../../schemas/exchange.js";
import { ErrataError } from "../../core/errors.js";

/** Bytes before a cursor's offset whose hash proves the file was only appended to. */
export const TAIL_CHECK_BYTES = 256;

const CarrySchema = z.object({
  turns: z.record(z.string(), z.number().int().nonnegative()),
  lastAsk: z.string().nullable(),
  replyEnd: z.string().nullable(),
  replyTs: z.string().nullable(),
  model: z.string().nullable(),
  tools: z.array(ToolCallSchema),
  recentUuids: z.array(z.string()),
});

export const FileCursorSchema = z.object({
  ino: z.number(),
  /** Size and mtime when last read to the end; a match means "unchanged, skip". */
  size: z.number(),
  mtimeMs: z.number(),
  /** Where the next read resumes (end of the last complete line consumed). */
  offset: z.number().int().nonnegative(),
  nextLineNo: z.number().int().positive(),
  /** SHA-1 of the TAIL_CHECK_BYTES bytes before `offset`. */
  tailHash: z.string(),
  carry: CarrySchema,
});
export type FileCursor = z.infer<typeof FileCursorSchema>;

export const CursorFileSchema = z.object({
  schema: z.literal("exchanges-cursor/1"),
  files: z.record(z.string(), FileCursorSchema),
});
export type CursorFile = z.infer<typeof CursorFileSchema>;

export function cursorPath(stateDir: string): string {
  return join(stateDir, "exchanges-cursor.json");
}

/** Loads the cursor file; a missing file is an empty cursor, a corrupt one an error (exit 2). */
export function loadCursor(path: string): CursorFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { schema: "exchanges-cursor/1", files: {} };
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ErrataError("BAD_INPUT", `cursor file ${path} is not JSON`, { expected: "an exchanges-cursor/1 object", found: "unparseable text" });
  }
  const parsed = CursorFileSchema.safeParse(value);
  if (!parsed.success) {
    throw new ErrataError("BAD_INPUT", `cursor file ${path} is invalid`, {
      expected: "an exchanges-cursor/1 object",
      found: parsed.error.issues[0]?.message ?? "other shape",
    });
  }
  return parsed.data;
}

/** Writes the cursor file atomically (temporary file, then rename). */
export function saveCursor(path: string, cursor: CursorFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(cursor)}\n`);
  renameSync(tmp, path);
}

/** SHA-1 of the bytes just before `offset` (empty string for offset 0). */
export function tailHash(path: string, offset: number): string {
  if (offset === 0) return "";
  const len = Math.min(TAIL_CHECK_BYTES, offset);
  const buf = Buffer.alloc(len);
  const fd = openSync(path, "r");
  try {
    const n = readSync(fd, buf, 0, len, offset - len);
    return createHash("sha1").update(buf.subarray(0, n)).digest("hex");
  } finally {
    closeSync(fd);
  }
}
