import type { Command } from "commander";
import { BINNING, calibrateQuestion, LOG_LOSS_EPS, yesNoQuestions } from "../../../calibration/index.js";
import { bankHash } from "../../../questions/index.js";
import { ProbabilitiesCandidateSchema, type ProbabilitiesCandidate } from "../../../schemas/calibration.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { loadInputs, splitFrom, splitQuestion, withInputOptions, type CommonOptions } from "../../shared/research-inputs.js";
import { candidatePath, stamp, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate probabilities`: Platt and isotonic calibration per question, fitted on
 * the fit split and scored on the holdout, as a candidate.
 */
export function register(group: Command, ctx: CommandContext): void {
  withInputOptions(group.command("probabilities").description("Platt and isotonic calibration per question, scored on the holdout, as a candidate"))
    .option("--platt-input <kind>", "what Platt reads: logit (default) or probability (sklearn's predict_proba path)")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --out answers.jsonl &&",
          "errata calibrate probabilities --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --out probabilities.json",
        ],
      ]),
    )
    .action((opts: CommonOptions & { plattInput?: string }) => {
      const plattInput = opts.plattInput ?? "logit";
      if (plattInput !== "logit" && plattInput !== "probability") throw badInput("bad --platt-input", "logit or probability", JSON.stringify(plattInput));
      const inputs = loadInputs(ctx.io.cwd, opts);
      const split = splitFrom(opts, inputs.sessionOf !== undefined);
      const questions: ProbabilitiesCandidate["questions"] = [];
      for (const q of yesNoQuestions(inputs.labels)) {
        const { fit, holdout, excluded } = splitQuestion(q, inputs, split);
        if (fit.length === 0) {
          questions.push({ question: q, n_fit: 0, n_eval: 0, chosen: { method: "none" }, platt: null, isotonic: null, metrics: null, evaluated_on: "fit", notes: ["no labelled, scored items in the fit split"] });
          continue;
        }
        const r = calibrateQuestion(fit, split ? holdout : null, plattInput);
        const notes = [...r.notes];
        if (excluded.no_majority + excluded.unscored > 0) notes.push(`left out: ${excluded.no_majority} without a majority, ${excluded.unscored} unscored`);
        questions.push({ question: q, n_fit: r.n_fit, n_eval: r.n_eval, chosen: r.chosen, platt: r.platt, isotonic: r.isotonic, metrics: r.metrics, evaluated_on: r.evaluated_on, notes });
      }
      if (questions.length === 0) throw badInput("no yes/no labels", "label/1 rows with boolean values", "none in --labels");
      const candidate: ProbabilitiesCandidate = ProbabilitiesCandidateSchema.parse({
        schema: "calibration-probabilities/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        platt_input: plattInput,
        questions,
        inputs: { ...inputs.files, split: split ? (inputs.splitOf ? "the gold file's split" : `sessions, holdout share ${split.holdoutShare}, salt ${split.salt}`) : "none: in-sample" },
      });
      const file = candidatePath(ctx, opts.out, `probabilities-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(candidate, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, ece_binning: `10 ${BINNING}`, candidate });
      println(ctx.io, "question                     fit  eval  chosen     ECE raw→platt→iso        Brier raw→platt→iso      log loss raw→platt→iso");
      const t = (m: { ece: number; brier: number; log_loss: number } | null | undefined, k: "ece" | "brier" | "log_loss") => (m ? m[k].toFixed(3) : "  -  ");
      for (const q of questions) {
        const m = q.metrics;
        println(
          ctx.io,
          `${q.question.padEnd(28)} ${String(q.n_fit).padStart(4)} ${String(q.n_eval).padStart(5)}  ${q.chosen.method.padEnd(9)}  ` +
            (["ece", "brier", "log_loss"] as const).map((k) => `${t(m?.raw, k)}→${t(m?.platt, k)}→${t(m?.isotonic, k)}`).join("  ") +
            (q.evaluated_on === "fit" ? "  (in-sample)" : ""),
        );
      }
      println(ctx.io, `ECE: 10 ${BINNING}; log loss: p clipped to [${LOG_LOSS_EPS.toExponential(3)}, 1 - the same]`);
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });
}
