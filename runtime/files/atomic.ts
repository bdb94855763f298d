import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes a whole file atomically: a temporary file beside it, then a rename over it, so a
 * reader sees the old text or the new, never a mix (a crash leaves at most the temporary).
 *
 * Example: `writeFileAtomic("/tmp/s/state.json", "{}\n")`.
 */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
