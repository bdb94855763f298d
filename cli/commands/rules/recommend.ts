import { existsSync } from "node:fs";
import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { renderFiledRates, rulesReport, runRulesRecommend } from "../../../runtime/jobs/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println, warn } from "../../shared/io.js";
import { RECOMMEND_SETUP } from "../../shared/rules-examples.js";
import { engineFor, exchangeFiles } from "../../shared/v4-pass.js";
import { printRecommendations, upgradesFileOf, wholeNumber, writerFor } from "../../shared/rules-writer.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

interface Flags {
  top?: string;
  days?: string;
  file?: boolean;
  offline?: boolean;
  exchanges?: string[];
  lane?: string;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `errata rules recommend` and `errata rules act`: a recommendation for each top cluster of
 * each fix type (written by the engine's generative lane, or offline by code), checked, the
 * survivors and the drops written to the v4 folder; only `--file` files the survivors in the
 * upgrades queue. `act` is the same in one step and prints the rules report after it.
 *
 * Example: `errata rules recommend --top 2` offline -> `rules recommend (offline): 3 kept, 0
 * dropped, …` each with `change: none. offline (…): code knows the target and the falsifier …`.
 */
/** `rules recommend` and `rules act` (act.ts) share one definition. */
export function addRecommendCommand(group: Command, ctx: CommandContext, name: "recommend" | "act"): void {
  const cmd = group
    .command(name)
    .description(
      name === "recommend"
        ? "Write a checked recommendation for the top clusters of each fix type (enforce_rule, add_rule); --file files the survivors"
        : "Recommend, check and (with --file) file in one step, then print the rules report with each filed cluster's rate before and after",
    )
    .option("--top <n>", "clusters per fix type (default 3)")
    .option("--days <n>", "the falsifier's window: days before and after (default 14)")
    .option("--file", "file the survivors in the upgrades queue (source errata, five or more exchange ids, once per claim)")
    .option("--offline", "do not use the generative lane even when one is configured")
    .option("--exchanges <files...>", "exchange files the v4 pass read (default <v4Dir>/exchanges.jsonl)")
    .option("--lane <name>", "the judge lane that answers the checks (default: the config's lane, else embedded)")
    .option("--dry-run", "plan only: write nothing, file nothing, ask no model")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([[...RECOMMEND_SETUP, `errata rules ${name} --exchanges datasets/synthetic/exchanges.jsonl --top 2`]]));
  cmd.option(...WAIT_OPTION)
    .action(lockedAction(ctx, `errata rules ${name}`, async (flags: Flags) => {
    const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
    const files = exchangeFiles(flags, ctx, paths.v4Dir);
    for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
    const top = wholeNumber("--top", flags.top, 3, 1);
    const days = wholeNumber("--days", flags.days, 14, 1);
    const engine = await engineFor(ctx, flags.lane);
    const writer = writerFor(ctx, paths, flags.offline === true);
    const nowMs = ctx.io.now();
    const today = new Date(nowMs).toISOString().slice(0, 10);
    const w = (l: string): void => warn(ctx.io, l);
    const upgradesFile = upgradesFileOf(paths);
    const report = await runRulesRecommend({ v4Dir: paths.v4Dir, engine, writer, exchangeFiles: files, upgradesFile, top, days, today, nowMs, dryRun: flags.dryRun === true, file: flags.file === true, warn: w });
    const rates = name === "act" ? rulesReport({ v4Dir: paths.v4Dir, exchangeFiles: files, upgradesFile, today, days, warn: w }) : null;
    const writerName = writer.lane === null ? "offline" : `${writer.lane.model}${writer.lane.serviceTier ? `, ${writer.lane.serviceTier}` : ""}`;
    if (flags.json) {
      return printJson(ctx.io, {
        ok: true,
        writer: writer.lane === null ? { lane: "offline", why: writer.offlineWhy } : { lane: "openai", model: writer.lane.model, service_tier: writer.lane.serviceTier },
        judge: { lane: engine.lane, model: engine.model },
        planned: report.planned,
        survivors: report.survivors,
        dropped: report.dropped,
        skipped: report.skipped,
        filing: report.filing,
        files: report.files,
        dry_run: flags.dryRun === true,
        would_write: flags.dryRun === true ? [report.files.survivors, report.files.dropped] : [],
        ...(rates ? { filed: rates.filed, unbucketed: rates.unbucketed } : {}),
      });
    }
    if (flags.dryRun && writer.lane !== null) {
      println(ctx.io, `rules ${name} (${writerName}) [dry run]: would write for ${report.planned.length} clusters: ${report.planned.map((p) => `${p.fix} #${p.rank} ${p.cluster_id}`).join(", ") || "none"}`);
      return;
    }
    printRecommendations(ctx, `rules ${name} (${writerName})${flags.dryRun ? " [dry run]" : ""}`, report);
    if (rates) for (const l of renderFiledRates(rates)) println(ctx.io, l);
  }));
}

export function register(group: Command, ctx: CommandContext): void {
  addRecommendCommand(group, ctx, "recommend");
}
