/**
 * `errata stats`: counts over the whole ledger (live and archived months), by system,
 * kind, status, source and month, plus how many await enrichment and the ratings given.
 *
 * Example: `errata stats` -> `errata: 24 (unenriched 20) ... by kind: complaint 12, bug 6, ...`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { printJson, println } from "../shared/io.js";
import { ledgerFor, reportProblems } from "../shared/ledger.js";
import { ledgerStats, type LedgerStats } from "../../runtime/store/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("stats")
    .description("Count errata by system, kind, status, source and month")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata stats", "ERRATA_DIR=./scratch errata stats --json"]))
    .action(async (opts: { json?: boolean }) => {
      const { errata, problems } = ledgerFor(ctx).readAll();
      reportProblems(ctx, problems);
      const stats = ledgerStats(errata.map((f) => f.erratum), problems);
      if (opts.json) {
        printJson(ctx.io, stats);
        return;
      }
      for (const line of formatStats(stats)) println(ctx.io, line);
    });
}

function formatStats(s: LedgerStats): string[] {
  const fmt = (m: Record<string, number>): string =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "-";
  return [
    `errata: ${s.total} (unenriched ${s.unenriched}; product feedback ${s.product_feedback})`,
    `by system: ${fmt(s.by_system)}`,
    `by kind:   ${fmt(s.by_kind)}`,
    `by status: ${fmt(s.by_status)}`,
    `by source: ${fmt(s.by_source)}`,
    `by month:  ${Object.entries(s.by_month).map(([k, v]) => `${k} ${v}`).join(", ") || "-"}`,
    `ratings:   ${s.ratings.count === 0 ? "none" : `${s.ratings.count}, mean ${s.ratings.mean?.toFixed(2)}, lowest ${s.ratings.min}`}`,
    `frustration (0-3, where computed): ${fmt(s.by_frustration)}`,
    `problems:  ${s.problems.errors} errors, ${s.problems.warnings} warnings${s.problems.errors + s.problems.warnings > 0 ? " (run errata validate)" : ""}`,
  ];
}
