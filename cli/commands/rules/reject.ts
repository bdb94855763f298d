import type { Command } from "commander";
import { isCodedError } from "../../../core/errors.js";
import { onLadder, reject } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/**
 * `errata rules reject <id> --why <text>`: the owner's no, with the reason kept beside the proposal.
 *
 * Example: `errata rules reject pr-3f2a1c9e0b --why "npm is fine in the docs folder"` -> "rejected pr-3f2a1c9e0b".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("reject")
    .description("Say no to a proposal, with the reason")
    .argument("<id>", "a pending proposal's id")
    .requiredOption("--why <text>", "why not (kept with the proposal)")
    .option("--dry-run", "check it, record nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(['errata rules reject pr-0000000000 --why "not this one"  # exit 2']))
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules reject", async (id: string, flags: { why: string; dryRun?: boolean; json?: boolean }) => {
      try {
        await onLadder(ctx.io.env, ctx.io.cwd, flags.dryRun === true, (dir) => reject(dir, id, flags.why, new Date(ctx.io.now()).toISOString()));
        if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, id, status: "rejected" });
        println(ctx.io, `${flags.dryRun ? "would reject" : "rejected"} ${id}`);
      } catch (err) {
        // With --json a failure is one JSON value on stdout too (and the usual stderr line and exit code).
        if (flags.json && isCodedError(err)) printJson(ctx.io, { ok: false, code: err.code, error: err.message });
        throw err;
      }
    }));
}
