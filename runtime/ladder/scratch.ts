/**
 * Where the ladder folder is, and a scratch copy of it for a dry run: the command runs on the
 * copy and reports what it would do; the real folder is not touched. (Steps that edit files
 * outside the folder, approve and undo, have their own check-only mode instead.)
 *
 * Example: `await onLadder(env, cwd, true, (dir) => runAudit({ladderDir: dir, ...}))` audits a copy.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ladderDir } from "../ladder-formats/index.js";

export { ladderDir };

export async function onLadder<T>(env: Record<string, string | undefined>, cwd: string, dryRun: boolean, fn: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = ladderDir(env, cwd);
  if (!dryRun) return fn(dir);
  const scratch = mkdtempSync(join(tmpdir(), "errata-ladder-dry-"));
  try {
    const copy = join(scratch, "ladder");
    if (existsSync(dir)) cpSync(dir, copy, { recursive: true });
    return await fn(copy);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
