/**
 * `errata label`: audit labels (`audit/labels-v3.jsonl`) and fix proposals
 * (`audit/proposals-v3.jsonl`) for enriched entries not yet labelled, with a run receipt.
 *
 * Example: `errata label --json` -> `{"ok": true, "stages": [{"name": "label", "counts": {"labelled": 4, ...}}]}`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { runManualStage, wireFor } from "../shared/daily.js";
import { runLabel } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("label")
    .description("Write audit labels and fix proposals for enriched entries (stored apart from the ledger)")
    .option("--json", "print one {ok, failed, stages} JSON value")
    .option("--dry-run", "compute the labels, write nothing")
    .addHelpText("after", examples(["errata add bug: it pushed to main without asking && errata enrich && errata label --json"]))
    .action(async (opts: { json?: boolean; dryRun?: boolean }) => {
      const { ctx: stage, deps } = wireFor(ctx, opts.dryRun === true);
      await runManualStage(ctx, stage, { name: "label", run: async () => runLabel(stage, await deps.classJudge()) }, opts.json === true);
    });
}
