import { resolve } from "node:path";
import type { Command } from "commander";
import { bankHash } from "../../../questions/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { judgedExchanges, mostBrokenSection } from "../../../runtime/jobs/index.js";
import { buildReport, composeAll, dominantJudge, readAnswers, readExchanges, readPlan, renderReport, v4Files } from "../../../runtime/jobs/index.js";
import type { CommandContext } from "../../shared/command.js";
import { printJson, println } from "../../shared/io.js";
import { chooseCuts, readCutsFile } from "../../shared/cuts-file.js";
import { exchangeFiles, type PassFlags } from "../../shared/v4-pass.js";
import { examples } from "../../shared/help.js";

/**
 * `errata v4 report`: recomposes the stored answers under `--cuts` without asking again:
 * failures reported and unreported, top classes, per-session rates, and for synthetic
 * exchanges the planted failures found and missed.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("report")
    .description("Compose stored answers (no judge asked): failures reported and unreported, top classes, per-session rates, synthetic planted failures found and missed")
    .option("--exchanges <files...>", "exchange files to read (default <v4Dir>/exchanges.jsonl)")
    .option("--labels <files...>", "label files naming planted failures of synthetic exchanges (default: labels.jsonl beside each exchanges file, when present)")
    .option("--cuts <file>", "cuts file (question id -> cut); default: the promoted configuration's cuts, else those recorded with the judge's weights, else 0.5")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy synthetic && errata v4 detect --exchanges datasets/synthetic/exchanges.jsonl &&",
          `echo '{"detect.unhappy": 0.3}' > cuts.json &&`,
          "errata v4 report --exchanges datasets/synthetic/exchanges.jsonl --cuts cuts.json",
        ],
      ]),
    )
    .action(async (flags: PassFlags & { labels?: string[] }) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      if (flags.cuts !== undefined) readCutsFile(flags.cuts, ctx.io.cwd); // bad input before reading anything else
      const ex = readExchanges(files);
      const answers = readAnswers(v4Files(paths.v4Dir).answers);
      const judge = dominantJudge(answers.rows);
      const chosen = chooseCuts(flags.cuts, ctx.io, judge);
      const cuts = chosen.cuts;
      const composed = judge ? composeAll(ex.rows, answers.rows, judge, cuts) : composeAll(ex.rows, [], { lane: "-", model: "-" }, cuts);
      const plan = readPlan(ex.rows, files, flags.labels?.map((f) => resolve(ctx.io.cwd, f)));
      const report = buildReport(composed, { judge, bankHash, cuts, cutsOrigin: chosen.origin, answers: answers.rows, planted: plan.planted, planCovered: plan.covered });
      if (judge !== null) report.most_broken_rules = mostBrokenSection(paths.v4Dir, ex.rows, judgedExchanges(answers.rows, judge), judge);
      if (flags.json) printJson(ctx.io, report);
      else for (const line of renderReport(report)) println(ctx.io, line);
    });
}
