import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { loadCursorFile, saveCursorFile } from "../files/index.js";
import { ExchangesCursorSchema, type ExchangesCursor, type ExchangesFileCursor } from "../../schemas/cursor.js";

/** Bytes before a cursor's offset whose hash proves the file was only appended to. */
export const TAIL_CHECK_BYTES = 256;

/** The cursor's schemas live in schemas/cursor.ts; these are the names the sweep uses. */
export type FileCursor = ExchangesFileCursor;
export type CursorFile = ExchangesCursor;

export function cursorPath(stateDir: string): string {
  return join(stateDir, "exchanges-cursor.json");
}

/** Loads the cursor file; a missing file is an empty cursor, a corrupt one bad input (exit 2). */
export function loadCursor(path: string): CursorFile {
  return loadCursorFile(path, ExchangesCursorSchema, () => ({ schema: "exchanges-cursor/1" as const, files: {} }));
}

/** Writes the cursor file atomically (temporary file, then rename). */
export function saveCursor(path: string, cursor: CursorFile): void {
  saveCursorFile(path, cursor);
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
