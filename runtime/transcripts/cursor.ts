import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
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

export const EXCHANGES_CURSOR_SCHEMA = "exchanges-cursor/2";

/**
 * Loads the cursor file; a missing file is an empty cursor, a corrupt one bad input (exit 2).
 * A cursor of the first layout (`exchanges-cursor/1`, which kept the last prompt's text) is
 * read as empty: the next sweep reads every transcript again, appends only exchanges not yet
 * present, and its save replaces the old file and the text in it.
 */
export function loadCursor(path: string): CursorFile {
  const empty = (): CursorFile => ({ schema: EXCHANGES_CURSOR_SCHEMA, files: {} });
  if (isFirstLayout(path)) return empty();
  return loadCursorFile(path, ExchangesCursorSchema, empty);
}

function isFirstLayout(path: string): boolean {
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as { schema?: unknown } | null;
    return v !== null && typeof v === "object" && v.schema === "exchanges-cursor/1";
  } catch {
    return false; // missing or not JSON: loadCursorFile says which
  }
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
