import { existsSync } from "node:fs";
import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { repoDatasetsDir } from "../../../runtime/engine/index.js";
import { loadRuleNoulWeights, runRulesCluster } from "../../../runtime/jobs/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { cutsRequest } from "../../shared/cuts-file.js";
import { examples } from "../../shared/help.js";
import { COVER_SETUP } from "../../shared/rules-examples.js";
import { count, printJson, println, warn } from "../../shared/io.js";
import { engineFor, exchangeFiles } from "../../shared/v4-pass.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/**
 * `errata rules cluster`: clusters of covered failures (one per rule) and of uncovered ones
 * (class x component, merged by rules.same_root_cause), written to `<v4 dir>/clusters.json`.
 *
 * Example: `errata rules cluster` -> `rules cluster: 12 clusters (5 rule, 7 gap) of 23 failures; wrote …/clusters.json`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("cluster")
    .description("Cluster the covered failures by rule and the uncovered ones by class x component and root cause")
    .option("--exchanges <files...>", "exchange files the v4 pass read (default <v4Dir>/exchanges.jsonl)")
    .option("--cuts <file>", "cuts file: the failures compose under it and its rules.same_root_cause cut decides (default: the one chooser's cuts; none for the question: the uncalibrated 0.5)")
    .option("--lane <name>", "engine lane from the engine config (default: the config's lane, else embedded)")
    .option("--dry-run", "cluster and report; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          ...COVER_SETUP,
          "errata rules cover --exchanges datasets/synthetic/exchanges.jsonl && errata rules cluster --exchanges datasets/synthetic/exchanges.jsonl --dry-run",
        ],
      ]),
    )
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules cluster", async (flags: { exchanges?: string[]; cuts?: string; lane?: string; dryRun?: boolean; json?: boolean }) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
      const cuts = cutsRequest(flags.cuts, ctx.io);
      const engine = await engineFor(ctx, flags.lane);
      const report = await runRulesCluster({
        v4Dir: paths.v4Dir,
        engine,
        weights: engine.lane === "embedded" ? loadRuleNoulWeights(repoDatasetsDir()) : null,
        exchangeFiles: files,
        cuts,
        dryRun: flags.dryRun === true,
        now: () => new Date(ctx.io.now()).toISOString(),
        warn: (l) => warn(ctx.io, l),
      });
      const rule = report.clusters.filter((c) => c.kind === "rule").length;
      const members = report.clusters.reduce((n, c) => n + c.exchange_ids.length, 0);
      if (flags.json) {
        return printJson(ctx.io, { ok: true, file: report.file, written: report.written, dry_run: flags.dryRun === true, would_write: flags.dryRun === true ? [report.file] : [], cut: report.cut.value, cut_origin: report.cut.origin, clusters: report.clusters });
      }
      println(ctx.io, `rules cluster: ${count(report.clusters.length, "cluster")} (${rule} rule, ${report.clusters.length - rule} gap) of ${count(members, "failure")}; same_root_cause cut ${report.cut.value} (${report.cut.origin})`);
      for (const c of report.clusters.slice(0, 20)) println(ctx.io, `  ${c.id}  ${count(c.exchange_ids.length, "failure")} in ${count(c.sessions, "session")}${c.mean_severity !== null ? `, mean severity ${c.mean_severity}` : ""}`);
      println(ctx.io, report.written ? `wrote ${report.file}` : `dry run: would write ${report.file}`);
    }));
}
