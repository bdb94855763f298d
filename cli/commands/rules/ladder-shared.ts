/**
 * What the ladder's subcommands share: where the ladder folder is (`<ERRATA_DIR>/ladder`), the
 * time of the run, and a scratch copy for --dry-run (the command runs on a copy and reports
 * what it would do; the real folder is not touched).
 *
 * Example: `withLadder(ctx, true, (dir) => approve(dir, id, at))` runs on a copy of the folder.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";

export function ladderDirOf(ctx: CommandContext): string {
  return join(resolvePaths(ctx.io.env, ctx.io.cwd).ledgerDir, "ladder");
}

export const nowIso = (ctx: CommandContext): string => new Date(ctx.io.now()).toISOString();

/** Runs `fn` on the ladder folder, or with `dryRun` on a scratch copy removed afterwards. */
export async function withLadder<T>(ctx: CommandContext, dryRun: boolean, fn: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = ladderDirOf(ctx);
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
