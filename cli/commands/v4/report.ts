import { resolve } from "node:path";
import type { Command } from "commander";
import { resolvePaths } from "../../../runtime/paths.js";
import { judgmentsReport, openJudgments, renderReport } from "../../../runtime/judgments/index.js";
import type { CommandContext } from "../../shared/command.js";
import { printJson, println } from "../../shared/io.js";
import { cutsRequest } from "../../shared/cuts-file.js";
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
    .option("--cuts <file>", "cuts file (question id -> cut); default: the promoted configuration's cuts, else the judge's calibrated cuts (errata calibrate use), else those recorded with its weights, else 0.5")
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
      const cuts = cutsRequest(flags.cuts, ctx.io); // bad input before reading anything else
      const j = openJudgments({ v4Dir: paths.v4Dir, exchangeFiles: exchangeFiles(flags, ctx, paths.v4Dir), cuts });
      const report = judgmentsReport(j, { labelFiles: flags.labels?.map((f) => resolve(ctx.io.cwd, f)) });
      if (flags.json) printJson(ctx.io, report);
      else for (const line of renderReport(report)) println(ctx.io, line);
    });
}
