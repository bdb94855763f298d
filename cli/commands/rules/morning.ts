import type { Command } from "commander";
import { morningReport, onLadder } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";

/**
 * `errata rules morning`: one short report of the open questions: proposals waiting, nights
 * with no audit receipt (an alarm), each proposal's review (the reviewer lane's argument against
 * it, or that it was skipped offline or failed). Writes the morning loop's receipt.
 *
 * Example: `errata rules morning` -> "Errata rules, morning of 2026-12-02\n1 proposal waiting for your yes or no: ...".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("morning")
    .description("One short report of the ladder's open questions for the owner (and the morning receipt)")
    .option("--dry-run", "print the report, write no receipt")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules morning"]))
    .action(async (flags: { dryRun?: boolean; json?: boolean }) => {
      const text = await onLadder(ctx.io.env, ctx.io.cwd, flags.dryRun === true, (dir) => morningReport(dir, new Date(ctx.io.now()).toISOString()));
      if (flags.json) return printJson(ctx.io, { ok: true, report: text.split("\n") });
      println(ctx.io, text);
    });
}
