/**
 * `errata eval predictions`: writes the `prediction/1` rows `errata eval score` reads, for the
 * detectors regex (the capture classifier), v3 (what the regex caught, named by the argmax of
 * the 14 `class.*` answers) and v4 (the stored answers composed under `--cuts`); the logic is
 * `runtime/jobs/v4/predictions.ts`. Nothing is asked: v3 and v4 read `<v4Dir>/answers.jsonl`
 * (`errata v4 detect|diagnose|v3 [--regex-caught]`), and a missing or unscored answer gives a
 * null prediction, never "no".
 *
 * Example: `errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex`
 * -> `wrote 597 predictions to /…/v4/predictions.jsonl: regex flagged 25 of 597 (0 skipped as not typed)`
 */
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { resolvePaths } from "../../../runtime/paths.js";
import { buildPredictions, parseDetectors, PREDICTION_DETECTORS } from "../../../runtime/jobs/index.js";
import { openJudgments, v4Files } from "../../../runtime/judgments/index.js";
import { PredictionSchema } from "../../../schemas/prediction.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { cutsRequest } from "../../shared/cuts-file.js";
import { writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

interface Flags {
  exchanges?: string[];
  cuts?: string;
  detectors: string;
  lane?: string;
  model?: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("predictions")
    .description("Write prediction/1 rows for the regex, v3 and v4 detectors (what `eval score` reads); asks nothing")
    .option("--exchanges <files...>", "exchange files (default <v4Dir>/exchanges.jsonl)")
    .option("--cuts <file>", "cuts file v4 composes under (question id -> cut); default: the promoted configuration's cuts, else those recorded with the judge's weights, else 0.5")
    .option("--detectors <list>", `comma-separated, in output order: ${PREDICTION_DETECTORS.join(", ")}`, PREDICTION_DETECTORS.join(","))
    .option("--lane <lane>", "compose only this engine lane's answers (default: the lane most stored answers came from)")
    .option("--model <model>", "compose only this model's answers (default: the model most stored answers came from)")
    .option("--out <file>", "where to write (default <v4Dir>/predictions.jsonl; replaced whole)")
    .option("--dry-run", "count what would be written, write nothing")
    .option("--json", "print one JSON value: {out, written, rows, judge, counts}")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl &&",
          "errata v4 v3 --regex-caught --exchanges datasets/ab-redial/exchanges.jsonl &&",
          `echo '{"detect.unhappy": 0.3}' > cuts.json &&`,
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --cuts cuts.json --detectors regex,v3,v4 --out predictions.jsonl",
        ],
      ]),
    )
    .action((flags: Flags) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const detectors = parseDetectors(flags.detectors);
      if (detectors === null) throw badInput("bad --detectors", `a comma-separated list of ${PREDICTION_DETECTORS.join(", ")}, each at most once`, describeFound(flags.detectors));
      const cuts = cutsRequest(flags.cuts, ctx.io); // bad input before anything is read
      const files = flags.exchanges && flags.exchanges.length > 0 ? flags.exchanges.map((f) => resolve(ctx.io.cwd, f)) : [v4Files(paths.v4Dir).exchanges];
      const out = resolve(ctx.io.cwd, flags.out ?? join(paths.v4Dir, "predictions.jsonl"));
      if (files.includes(out)) throw badInput("--out would overwrite an input", "an output file that is not one of --exchanges", describeFound(out));
      const needsAnswers = detectors.some((d) => d !== "regex");
      const j = openJudgments({ v4Dir: paths.v4Dir, exchangeFiles: files, filter: { lane: flags.lane, model: flags.model }, cuts, noAnswers: !needsAnswers });
      if (j.exchanges.length === 0) throw badInput("no exchanges to predict", "at least one exchange/1 row", `${files.join(", ")}: ${j.skipped} unreadable lines, no exchanges`);
      const judge = j.judge;
      if (needsAnswers && judge === null) {
        const why = j.answers.length === 0 ? `no stored answers in ${v4Files(paths.v4Dir).answers}` : "no stored answer from that --lane/--model";
        ctx.io.stderr.write(`errata: ${why}: every v4 prediction is unscored and v3 names no class (run errata v4 detect first)\n`);
      }
      const chosen = j.cuts;
      const result = buildPredictions({ judgments: j, detectors });
      const rows = result.rows.map((r) => PredictionSchema.parse(r));
      const written = flags.dryRun !== true;
      if (written) writeAtomic(out, rows.length > 0 ? `${rows.map((r) => JSON.stringify(r)).join("\n")}\n` : "");
      const summary = { out, written, rows: rows.length, detectors, judge, cuts_origin: chosen.origin, exchanges: j.exchanges.length, skipped_lines: j.skipped, counts: result.counts };
      if (flags.json) {
        printJson(ctx.io, summary);
        return;
      }
      const c = result.counts;
      const parts: string[] = [];
      if (c.regex) parts.push(`regex flagged ${c.regex.flagged} of ${c.exchanges} (${c.regex.skip} skipped as not typed)`);
      if (c.v3) parts.push(`v3 caught ${c.v3.detected}, ${c.v3.classNamed} with a class`);
      if (c.v4) parts.push(`v4 detected ${c.v4.detected} (${c.v4.classNamed} with a class), ${c.v4.unscored} unscored`);
      println(ctx.io, `${written ? "wrote" : "would write"} ${rows.length} predictions to ${out}${judge ? ` (answers of ${judge.lane}/${judge.model})` : ""}: ${parts.join("; ")}`);
      println(ctx.io, `cuts: ${chosen.origin}`);
      if (summary.skipped_lines > 0) println(ctx.io, `skipped ${summary.skipped_lines} unreadable lines`);
    });
}
