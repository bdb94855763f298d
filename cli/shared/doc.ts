import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { CommandContext } from "./command.js";
import { printJson, println } from "./io.js";

/**
 * Writes a generated Markdown page (`eval brief`, `v4 taxonomy`) to `--out` (or stdout),
 * honouring --dry-run and --json.
 *
 * Example: `writeDoc(ctx, page, {out: "brief.md"})` -> `wrote /…/brief.md (21034 bytes)`.
 */
export function writeDoc(ctx: CommandContext, page: string, flags: { out?: string; dryRun?: boolean; json?: boolean }): void {
  const out = flags.out === undefined ? null : resolve(ctx.io.cwd, flags.out);
  if (out !== null && !flags.dryRun) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, page);
  }
  if (flags.json) printJson(ctx.io, { out, bytes: Buffer.byteLength(page), written: out !== null && !flags.dryRun });
  else if (out === null || flags.dryRun) ctx.io.stdout.write(page);
  else println(ctx.io, `wrote ${out} (${Buffer.byteLength(page)} bytes)`);
}
