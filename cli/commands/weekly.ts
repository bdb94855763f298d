/**
 * `errata weekly`: the weekly job. For now the report over seven days (the rules pass joins
 * it later), with its own run receipt.
 *
 * Example: `errata weekly --json` -> `{"ok": true, "failed": [], "stages": [{"name": "report", ...}]}`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { dailyPaths, finishLoop, liveStagePrinter, wireFor } from "../shared/daily.js";
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";
import { runWeekly } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("weekly")
    .description("Run the weekly job: the report over seven days")
    .option("--json", "print one {ok, failed, stages} JSON value")
    .option("--dry-run", "compute everything, write nothing")
    .option("--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)")
    .addHelpText("after", examples(["errata weekly --json", "errata weekly --wait 60"]))
    .action(async (opts: { json?: boolean; dryRun?: boolean; wait?: string }) => {
      const waitMs = waitMsFromFlag(opts.wait);
      const body = async (): Promise<void> => {
        const { ctx: stage } = wireFor(ctx, opts.dryRun === true);
        const onStage = liveStagePrinter(ctx, opts.json === true);
        const result = await runWeekly(stage, onStage ? { onStage } : {});
        finishLoop(ctx, result, opts.json === true, onStage !== undefined);
      };
      if (opts.dryRun === true) await body();
      else await withRunLock(dailyPaths(ctx).stateDir, { job: "errata weekly", waitMs }, body);
    });
}
