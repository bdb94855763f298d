import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { renderRulesReport, rulesReport, runRulesRecheck } from "../../../runtime/jobs/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println, warn } from "../../shared/io.js";
import { RECOMMEND_SETUP } from "../../shared/rules-examples.js";
import { engineFor, exchangeFiles } from "../../shared/v4-pass.js";
import { printRecommendations, upgradesFileOf, wholeNumber } from "../../shared/rules-writer.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/** The newest `recommendations-<date>.jsonl` of the v4 folder, or null. */
function latestList(v4Dir: string): string | null {
  if (!existsSync(v4Dir)) return null;
  const lists = readdirSync(v4Dir).filter((f) => /^recommendations-\d{4}-\d{2}-\d{2}\.jsonl$/.test(f)).sort();
  const last = lists[lists.length - 1];
  return last === undefined ? null : join(v4Dir, last);
}

/**
 * `errata rules recheck [--list FILE]`: every current check again on a stored list (default:
 * the newest recommendations file), the day's lists rewritten with the new verdicts; and
 * `errata rules report`: the clusters, the day's recommendations and each filed cluster's
 * rate before and after its upgrade was applied.
 *
 * Example: `errata rules recheck` -> `rules recheck (embedded/…): 3 kept, 0 dropped, …`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("recheck")
    .description("Run every current check again on a stored list of recommendations")
    .option("--list <file>", "a recommendations-<date>.jsonl (default: the newest in the v4 folder)")
    .option("--exchanges <files...>", "exchange files the v4 pass read (default <v4Dir>/exchanges.jsonl)")
    .option("--lane <name>", "the judge lane that answers the checks (default: the config's lane, else embedded)")
    .option("--dry-run", "recheck and print; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([[...RECOMMEND_SETUP, "errata rules recommend --exchanges datasets/synthetic/exchanges.jsonl && errata rules recheck --exchanges datasets/synthetic/exchanges.jsonl"]]))
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules recheck", async (flags: { list?: string; exchanges?: string[]; lane?: string; dryRun?: boolean; json?: boolean }) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
      const list = flags.list !== undefined ? resolve(ctx.io.cwd, flags.list) : latestList(paths.v4Dir);
      if (list === null || !existsSync(list)) throw badInput("no recommendations to recheck", "a recommendations-<date>.jsonl written by `errata rules recommend`", describeFound(list ?? join(paths.v4Dir, "recommendations-*.jsonl")));
      const engine = await engineFor(ctx, flags.lane);
      const nowMs = ctx.io.now();
      const report = await runRulesRecheck({ v4Dir: paths.v4Dir, engine, exchangeFiles: files, upgradesFile: upgradesFileOf(paths), today: new Date(nowMs).toISOString().slice(0, 10), nowMs, dryRun: flags.dryRun === true, list, warn: (l) => warn(ctx.io, l) });
      if (flags.json) return printJson(ctx.io, { ok: true, list, judge: report.judge, survivors: report.survivors, dropped: report.dropped, files: report.files, dry_run: flags.dryRun === true, would_write: flags.dryRun === true ? [report.files.survivors, report.files.dropped] : [] });
      printRecommendations(ctx, `rules recheck (${report.judge.lane}/${report.judge.model})${flags.dryRun ? " [dry run]" : ""}`, report);
    }));
}

/** `errata rules report` (its own file, report.ts, registers it; the code lives beside recheck's). */
export function registerReport(group: Command, ctx: CommandContext): void {
  group
    .command("report")
    .description("The clusters, today's recommendations and each filed cluster's rate before and after its upgrade, with intervals")
    .option("--days <n>", "days before and after the upgrade was applied (default 14)")
    .option("--exchanges <files...>", "exchange files the v4 pass read (default <v4Dir>/exchanges.jsonl)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([[...RECOMMEND_SETUP, "errata rules recommend --exchanges datasets/synthetic/exchanges.jsonl && errata rules report --exchanges datasets/synthetic/exchanges.jsonl"]]))
    .action((flags: { days?: string; exchanges?: string[]; json?: boolean }) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      const today = new Date(ctx.io.now()).toISOString().slice(0, 10);
      const r = rulesReport({ v4Dir: paths.v4Dir, exchangeFiles: files, upgradesFile: upgradesFileOf(paths), today, days: wholeNumber("--days", flags.days, 14, 1), warn: (l) => warn(ctx.io, l) });
      if (flags.json) return printJson(ctx.io, { ok: true, ...r });
      for (const l of renderRulesReport(r)) println(ctx.io, l);
    });
}
