/**
 * `errata weekly`: the weekly job. For now the report over seven days (the rules pass joins
 * it later), with its own run receipt.
 *
 * Example: `errata weekly --json` -> `{"ok": true, "failed": [], "stages": [{"name": "report", ...}]}`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { finishLoop, liveStagePrinter, wireFor } from "../shared/daily.js";
import { runWeekly } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("weekly")
    .description("Run the weekly job: the report over seven days")
    .option("--json", "print one {ok, failed, stages} JSON value")
    .option("--dry-run", "compute everything, write nothing")
    .addHelpText("after", examples(["errata weekly --json"]))
    .action(async (opts: { json?: boolean; dryRun?: boolean }) => {
      const { ctx: stage } = wireFor(ctx, opts.dryRun === true);
      const onStage = liveStagePrinter(ctx, opts.json === true);
      const result = await runWeekly(stage, onStage ? { onStage } : {});
      finishLoop(ctx, result, opts.json === true, onStage !== undefined);
    });
}
