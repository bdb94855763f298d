import { resolve } from "node:path";
import type { Command } from "commander";
import { brierScore, chooseCuts, expectedCalibrationError, logLoss } from "../../../calibration/index.js";
import { classDistribution, detectProbability } from "../../../combiner/index.js";
import { DETECT_UNHAPPY } from "../../../schemas/label.js";
import type { CommandContext } from "../../shared/command.js";
import { printJson, println } from "../../shared/io.js";
import { loadCombiner, rowsFor, type CombinerOptions, type GoldRow } from "../../shared/combiner.js";
import { withInputOptions } from "../../shared/research-inputs.js";
import { writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata combiner eval`: scores a fitted combiner on the holdout (all items when there is
 * none); `--predictions` writes its prediction/1 lines for `eval score`.
 */
export function register(group: Command, ctx: CommandContext): void {
  withInputOptions(group.command("eval").description("score a fitted combiner on the holdout; optionally write its predictions for eval score"))
    .requiredOption("--model <file>", "a combiner/1 file")
    .option("--target <question>", `gold verdict question (default ${DETECT_UNHAPPY})`)
    .option("--class-question <question>", "gold class question (default class)")
    .option("--predictions <file>", "write prediction/1 lines (detector \"combiner\") for every labelled exchange")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --out answers.jsonl &&",
          "errata combiner fit --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --out combiner.json &&",
          "errata combiner eval --model combiner.json --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl",
        ],
      ]),
    )
    .action((opts: CombinerOptions & { model: string; predictions?: string }) => {
      const model = loadCombiner(resolve(ctx.io.cwd, opts.model));
      const rows = rowsFor(ctx, opts);
      const holdout = rows.filter((r) => r.side === "holdout");
      const scope = holdout.length > 0 ? holdout : rows;
      const result: Record<string, unknown> = { evaluated_on: holdout.length > 0 ? "holdout" : "all (no holdout)", items: scope.length };
      if (model.detect) {
        const d = scope.filter((r): r is GoldRow & { y: 0 | 1 } => r.y !== null);
        const p = d.map((r) => detectProbability(model.detect!, r.table));
        const y = d.map((r) => r.y);
        const w = d.map((r) => r.weight);
        if (d.length > 0) {
          const at = chooseCuts(p, y, { precisionTarget: 1, weights: w }).curve.filter((c) => c.cut >= model.detect!.cut).pop() ?? null;
          result["detect"] = { n: d.length, cut: model.detect.cut, at_cut: at, log_loss: logLoss(p, y, w), brier: brierScore(p, y, w), ece: expectedCalibrationError(p, y, w) };
        }
      }
      if (model.class) {
        const c = scope.filter((r): r is GoldRow & { cls: string } => r.cls !== null);
        let right = 0;
        let total = 0;
        for (const r of c) {
          total += r.weight;
          if (classDistribution(model.class, r.table)[0]!.cls === r.cls) right += r.weight;
        }
        result["class"] = { n: c.length, accuracy_given_gold_failure: total > 0 ? right / total : null };
      }
      if (opts.predictions && !opts.dryRun) {
        const lines = rows.map((r) => {
          const pf = model.detect ? detectProbability(model.detect, r.table) : null;
          const detected = pf === null ? null : pf >= model.detect!.cut;
          const cls = detected && model.class ? classDistribution(model.class, r.table)[0]!.cls : null;
          return JSON.stringify({ schema: "prediction/1", exchange_id: r.id, detector: "combiner", detected, class: cls, p_failure: pf });
        });
        writeAtomic(resolve(ctx.io.cwd, opts.predictions), lines.join("\n") + "\n");
        result["predictions"] = resolve(ctx.io.cwd, opts.predictions);
      }
      if (opts.json) return printJson(ctx.io, result);
      const det = result["detect"] as { n: number; at_cut: { precision: number | null; recall: number | null; kappa: number | null } | null; log_loss: number; ece: number } | undefined;
      println(ctx.io, `evaluated on ${String(result["evaluated_on"])}: ${scope.length} labelled exchanges`);
      if (det) println(ctx.io, `detect: precision ${det.at_cut?.precision?.toFixed(3) ?? "n/a"}, recall ${det.at_cut?.recall?.toFixed(3) ?? "n/a"}, kappa ${det.at_cut?.kappa?.toFixed(3) ?? "n/a"}, log loss ${det.log_loss.toFixed(3)}, ECE ${det.ece.toFixed(3)} (n ${det.n})`);
      const c = result["class"] as { n: number; accuracy_given_gold_failure: number | null } | undefined;
      if (c) println(ctx.io, `class: accuracy given a gold failure ${c.accuracy_given_gold_failure?.toFixed(3) ?? "n/a"} (n ${c.n})`);
    });
}
