import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes a whole file atomically: a temporary file beside it, then a rename over it, so a
 * reader sees the old text or the new, never a mix (a crash leaves at most the temporary).
 *
 * Example: `writeFileAtomic("/tmp/s/state.json", "{}\n")`.
 */
export function writeFileAtomic(path: string, text: string, opts: { mode?: number } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, opts.mode === undefined ? undefined : { mode: opts.mode });
    renameSync(tmp, path);
  } catch (err) {
    // A failed write (a full disk, a folder in the way) leaves no temporary file behind.
    rmSync(tmp, { force: true });
    throw err;
  }
}
