import { existsSync } from "node:fs";
import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { repoDatasetsDir } from "../../../runtime/engine/index.js";
import { loadRuleNoulWeights, runRulesCover } from "../../../runtime/jobs/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { cutsRequest } from "../../shared/cuts-file.js";
import { examples } from "../../shared/help.js";
import { COVER_SETUP } from "../../shared/rules-examples.js";
import { count, printJson, println, progress, warn } from "../../shared/io.js";
import { engineFor, exchangeFiles } from "../../shared/v4-pass.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

interface Flags {
  exchanges?: string[];
  cuts?: string;
  limit?: string;
  lane?: string;
  all?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * `errata rules cover`: for each diagnosed failure in the v4 folder, its four candidate rules
 * and the judge's `rules.rule_covers` answers; code decides enforce_rule or add_rule. Rows
 * are appended to `<v4 dir>/coverage.jsonl`; a re-run covers only what is new.
 *
 * Example: `errata rules cover` -> `rules cover (embedded/…): 23 diagnosed failures, covered 23 now: 9 enforce_rule, 14 add_rule, 0 without an answer; cut 0.5 (uncalibrated default 0.5)`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("cover")
    .description("Match the diagnosed failures of the v4 folder to the rules that cover them (enforce_rule or add_rule)")
    .option("--exchanges <files...>", "exchange files the v4 pass read (default <v4Dir>/exchanges.jsonl)")
    .option("--cuts <file>", "cuts file: the failures compose under it and its rules.rule_covers cut decides (default: the cuts every report uses, from the one chooser; no rules.rule_covers cut there: the uncalibrated 0.5, said so)")
    .option("--limit <n>", "cover at most N failures")
    .option("--lane <name>", "engine lane from the engine config (default: the config's lane, else embedded)")
    .option("--all", "cover again the failures this judge already covered")
    .option("--dry-run", "plan only: ask nothing, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          ...COVER_SETUP,
          "errata rules cover --exchanges datasets/synthetic/exchanges.jsonl",
        ],
      ]),
    )
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules cover", async (flags: Flags) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
      let limit: number | undefined;
      if (flags.limit !== undefined) {
        limit = Number(flags.limit);
        if (!Number.isInteger(limit) || limit < 0) throw badInput("bad --limit", "a whole number >= 0", describeFound(flags.limit));
      }
      const cuts = cutsRequest(flags.cuts, ctx.io);
      const engine = await engineFor(ctx, flags.lane);
      let bar: ReturnType<typeof progress> | null = null;
      let shown = 0;
      const report = await runRulesCover({
        v4Dir: paths.v4Dir,
        engine,
        weights: engine.lane === "embedded" ? loadRuleNoulWeights(repoDatasetsDir()) : null,
        exchangeFiles: files,
        cuts,
        ...(limit !== undefined ? { limit } : {}),
        all: flags.all === true,
        dryRun: flags.dryRun === true,
        now: () => new Date(ctx.io.now()).toISOString(),
        warn: (l) => warn(ctx.io, l),
        onProgress: (done, total) => {
          bar ??= progress(ctx.io, "rules cover", total);
          bar.tick(done - shown);
          shown = done;
        },
      });
      if (shown > 0) (bar as ReturnType<typeof progress> | null)?.done();
      const r = report.records;
      const tally = {
        enforce_rule: r.filter((x) => x.fix === "enforce_rule").length,
        add_rule: r.filter((x) => x.fix === "add_rule").length,
        unanswered: r.filter((x) => x.fix === null).length,
        before_rule: r.filter((x) => x.before_rule).length,
        synthetic: r.filter((x) => x.synthetic).length,
      };
      if (flags.json) {
        return printJson(ctx.io, {
          ok: true,
          file: report.file,
          judge: report.judge,
          cut: report.cut.value,
          cut_origin: report.cut.origin,
          cuts_origin: report.cutsOrigin,
          failures: report.failures,
          already_covered: report.alreadyCovered,
          planned: report.planned,
          covered: r.length,
          ...tally,
          dry_run: flags.dryRun === true,
          would_write: flags.dryRun === true && report.planned > 0 ? [report.file] : [],
        });
      }
      const head = `rules cover (${report.judge.lane}/${report.judge.model})${flags.dryRun ? " [dry run]" : ""}`;
      if (flags.dryRun) {
        println(ctx.io, `${head}: ${count(report.failures, "diagnosed failure")}, ${report.alreadyCovered} already covered; would cover ${report.planned}`);
        return;
      }
      println(ctx.io, `${head}: ${count(report.failures, "diagnosed failure")}, ${report.alreadyCovered} already covered, covered ${r.length} now: ${tally.enforce_rule} enforce_rule, ${tally.add_rule} add_rule, ${tally.unanswered} without an answer; ${tally.before_rule} dated before their rule (broke none)`);
      println(ctx.io, `  failures under cuts: ${report.cutsOrigin}`);
      println(ctx.io, `  rule_covers cut ${report.cut.value} (${report.cut.origin})${tally.synthetic > 0 ? `; ${tally.synthetic} of them synthetic` : ""}`);
      if (report.failures === 0) println(ctx.io, "  no diagnosed failure in the v4 folder: run errata v4 detect and errata v4 diagnose first");
      if (r.length > 0) println(ctx.io, `  appended to ${report.file}`);
    }));
}
