/**
 * `errata enrich`: one enrichment batch now (newest first, bounded), with a run receipt.
 *
 * Example: `errata enrich --limit 20` -> `enrich   ok    eligible=31 batch=20 enriched=20 malformed=0 ...`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { runManualStage, wireFor } from "../shared/daily.js";
import { badInput } from "../../core/errors.js";
import { parseNumber } from "../shared/ledger.js";
import { runEnrich } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("enrich")
    .description("Enrich a bounded batch of unenriched entries, newest first")
    .option("--limit <n>", "at most n entries (never more than the configured batch)")
    .option("--json", "print one {ok, failed, stages} JSON value")
    .option("--dry-run", "compute the enrichments, write nothing")
    .addHelpText("after", examples(["errata add bug: it pushed to main without asking && errata enrich --limit 20 --json"]))
    .action(async (opts: { limit?: string; json?: boolean; dryRun?: boolean }) => {
      const limit = parseNumber("limit", opts.limit, { integer: true });
      if (limit !== undefined && limit < 1) throw badInput("bad --limit", "a whole number >= 1", String(limit));
      const { ctx: stage, deps } = wireFor(ctx, opts.dryRun === true);
      await runManualStage(ctx, stage, { name: "enrich", run: async () => runEnrich(stage, { embedded: await deps.embedded(), prose: deps.prose, ...(limit !== undefined ? { limit } : {}) }) }, opts.json === true);
    });
}
