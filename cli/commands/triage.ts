/**
 * `errata triage`: groups enriched entries by system and class into
 * `reports/triage-YYYY-MM-DD.md` and files one upgrade per cluster with two or more entries
 * or any entry at how_upset 3 (deduplicated by claim hash: a re-run files nothing twice).
 * `--mark-reports` adds the `references: historical` front matter to older reports.
 *
 * Example: `errata triage --json` -> `{"ok": true, "stages": [{"name": "triage", "counts": {"filed": 2, ...}}]}`.
 */
import type { Command } from "commander";
import { readdirSync } from "node:fs";
import type { CommandContext } from "../shared/command.js";
import { runManualStage, wireFor } from "../shared/daily.js";
import { count, printJson, println } from "../shared/io.js";
import { parseNumber, parseSince } from "../shared/ledger.js";
import { badInput } from "../../core/errors.js";
import { DAY_MS } from "../../runtime/jobs/index.js";
import { markReports, runTriage } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

interface TriageCliOptions {
  since?: string;
  markReports?: boolean;
  includeBackfill?: boolean;
  json?: boolean;
  dryRun?: boolean;
  minConfidence?: string;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("triage")
    .description("Triage enriched entries into a report and file upgrades for clusters")
    .option("--include-backfill", "also triage backfilled entries")
    .option("--since <date>", "entries the daily run already triaged count from this date (default: 7 days ago)")
    .option("--min-confidence <p>", "entries below this enrichment confidence never file or join an upgrade (default: triage.min_confidence in daily.json, else 0.5)")
    .option("--mark-reports", "only add `references: historical` front matter to older reports")
    .option("--json", "print one JSON value")
    .option("--dry-run", "compute, write nothing")
    .addHelpText(
      "after",
      examples([
        "errata add bug: it pushed to main without asking && errata enrich && errata triage --since 2026-11-01",
        "errata triage --mark-reports --dry-run",
        "errata triage --min-confidence 0.7 --dry-run --json",
      ]),
    )
    .action(async (opts: TriageCliOptions) => {
      const { ctx: stage } = wireFor(ctx, opts.dryRun === true);
      if (opts.markReports) {
        const changed = markReports(stage.files.reportsDir, stage.dryRun, (d) => readdirSync(d));
        if (opts.json) printJson(ctx.io, { marked: changed.length, files: changed, dry_run: stage.dryRun });
        else {
          for (const f of changed) println(ctx.io, `${stage.dryRun ? "would mark" : "marked"} ${f}`);
          println(ctx.io, `${count(changed.length, "report")} ${stage.dryRun ? "would be " : ""}marked`);
        }
        return;
      }
      const minConfidence = parseNumber("min-confidence", opts.minConfidence);
      if (minConfidence !== undefined && !(minConfidence >= 0 && minConfidence <= 1)) throw badInput("bad --min-confidence", "a number from 0 to 1", String(minConfidence));
      const since = parseSince(opts.since);
      const triagedSinceMs = since !== undefined ? Date.parse(since) : ctx.io.now() - 7 * DAY_MS;
      await runManualStage(ctx, stage, { name: "triage", run: async () => runTriage(stage, { file: true, includeBackfill: opts.includeBackfill === true, triagedSinceMs, ...(minConfidence !== undefined ? { minConfidence } : {}) }) }, opts.json === true);
    });
}
