import { readFileSync } from "node:fs";
import type { z } from "zod";
import { describeFound, ErrataError } from "../../core/errors.js";
import { writeFileAtomic } from "./atomic.js";

/**
 * Cursor files: one JSON object in the state folder that says where a resumable sweep
 * stopped (schemas/cursor.ts holds their schemas). Loading checks the file with its schema:
 * a missing file is the empty cursor (start from the beginning); a file that is not JSON or
 * does not fit is bad input (exit 2) naming the file, what was expected and what was found,
 * never guessed at. Saving is atomic (temporary file, then rename), so a crash leaves the
 * old cursor or the new.
 *
 * Example: `loadCursorFile("/tmp/s/mine-cursor.json", MineCursorSchema, () => ({schema:
 * "mine-cursor/1", files: {}}))` -> `{schema: "mine-cursor/1", files: {}}` when the file is
 * missing; a file holding `[]` throws `cursor file … is invalid (expected a mine-cursor/1
 * object; found (cursor): Invalid input: expected object, received array)`.
 */
export function loadCursorFile<S extends z.ZodType>(path: string, schema: S, empty: () => z.output<S>): z.output<S> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return empty();
    throw new ErrataError("IO", `cannot read cursor file ${path}: ${(err as Error).message}`, { cause: err });
  }
  const name = String((empty() as { schema?: unknown }).schema ?? "cursor");
  const what = `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name} object`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ErrataError("BAD_INPUT", `cursor file ${path} is not JSON`, { expected: what, found: describeFound(text) });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(cursor)";
    throw new ErrataError("BAD_INPUT", `cursor file ${path} is invalid`, { expected: what, found: `${at}: ${issue?.message ?? "another shape"}` });
  }
  return parsed.data as z.output<S>;
}

/** Writes a cursor file atomically, as one line of JSON. */
export function saveCursorFile(path: string, cursor: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(cursor)}\n`);
}
