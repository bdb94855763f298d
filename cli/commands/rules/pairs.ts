import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { writeFileAtomic } from "../../../runtime/files/index.js";
import { coveragePairs } from "../../../runtime/jobs/index.js";
import { readExchanges } from "../../../runtime/judgments/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { count, printJson, println, warn } from "../../shared/io.js";
import { COVER_SETUP } from "../../shared/rules-examples.js";
import { engineFor, exchangeFiles } from "../../shared/v4-pass.js";

/**
 * `errata rules pairs --out FILE`: the (failure, candidate rule) pairs of the latest coverage as
 * calib-item/1 rows, so `errata calibrate draw|brief|agreement|fit --question
 * rules.rule_covers` can calibrate the cut on blind labels (until then coverage runs on the
 * uncalibrated default and says so).
 *
 * Example: `errata rules pairs --out pairs.jsonl` -> `wrote 92 rules.rule_covers pairs to pairs.jsonl`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("pairs")
    .description("Write the coverage's (failure, rule) pairs as calib-item/1 rows for the calibration loop")
    .requiredOption("--out <file>", "where to write the rows (JSONL; replaced)")
    .option("--exchanges <files...>", "exchange files the v4 pass read (default <v4Dir>/exchanges.jsonl)")
    .option("--lane <name>", "whose coverage (default: the config's lane, else embedded)")
    .option("--dry-run", "count the pairs; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([[...COVER_SETUP, "errata rules cover --exchanges datasets/synthetic/exchanges.jsonl && errata rules pairs --exchanges datasets/synthetic/exchanges.jsonl --out pairs.jsonl"]], {
        after: "Then: errata calibrate draw --items pairs.jsonl --question rules.rule_covers (see errata calibrate --help).",
      }),
    )
    .action(async (flags: { out: string; exchanges?: string[]; lane?: string; dryRun?: boolean; json?: boolean }) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
      const engine = await engineFor(ctx, flags.lane);
      const ex = readExchanges(files, { warn: (l) => warn(ctx.io, l) });
      const rows = coveragePairs(paths.v4Dir, ex.rows, { lane: engine.lane, model: engine.model }, (l) => warn(ctx.io, l));
      const out = resolve(ctx.io.cwd, flags.out);
      if (!flags.dryRun) writeFileAtomic(out, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
      if (flags.json) return printJson(ctx.io, { ok: true, pairs: rows.length, file: out, written: !flags.dryRun, would_write: flags.dryRun ? [out] : [] });
      if (rows.length === 0) println(ctx.io, "no coverage pairs for this judge: run errata rules cover first");
      println(ctx.io, flags.dryRun ? `dry run: would write ${count(rows.length, "rules.rule_covers pair")} to ${out}` : `wrote ${count(rows.length, "rules.rule_covers pair")} to ${out}`);
    });
}
