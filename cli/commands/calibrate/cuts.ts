import type { Command } from "commander";
import { cutsForItems, yesNoQuestions } from "../../../calibration/index.js";
import { bankHash } from "../../../questions/index.js";
import { CutsCandidateSchema, type CutsCandidate, type QuestionCutsRecord } from "../../../schemas/calibration.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { loadInputs, splitFrom, splitQuestion, withInputOptions, type CommonOptions } from "../../shared/research-inputs.js";
import { candidatePath, numberOption, stamp, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate cuts`: per-question cuts from blind labels (the kappa cut and the
 * precision cut, fitted on the fit split), written as a candidate under `<v4>/candidates/`,
 * never the promoted configuration.
 */
export function register(group: Command, ctx: CommandContext): void {
  withInputOptions(group.command("cuts").description("per-question cuts from blind labels (kappa cut and precision cut), as a candidate"))
    .option("--precision <x>", "target precision for the precision cut (default 0.9)")
    .option("--rule <rule>", "which cut fills the registry: kappa or precision (default kappa)")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --out answers.jsonl &&",
          "errata calibrate cuts --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --precision 0.9",
        ],
      ]),
    )
    .action((opts: CommonOptions & { precision?: string; rule?: string }) => {
      const rule = opts.rule ?? "kappa";
      if (rule !== "kappa" && rule !== "precision") throw badInput("bad --rule", "kappa or precision", JSON.stringify(rule));
      const precisionTarget = numberOption("precision", opts.precision, 0.9, [0.01, 1]);
      const inputs = loadInputs(ctx.io.cwd, opts);
      const split = splitFrom(opts, inputs.sessionOf !== undefined);
      const questions: QuestionCutsRecord[] = [];
      const cuts: Record<string, number> = {};
      for (const q of yesNoQuestions(inputs.labels)) {
        const { fit, excluded } = splitQuestion(q, inputs, split);
        const r = cutsForItems(fit, precisionTarget);
        const rec: QuestionCutsRecord = {
          question: q,
          n: fit.length,
          positives: r?.positives ?? 0,
          excluded,
          kappa_cut: r?.kappaCut ?? null,
          precision_target: precisionTarget,
          precision_cut: r?.precisionCut ?? null,
          notes: r ? r.notes : ["no labelled, scored items in the fit split"],
        };
        questions.push(rec);
        const chosen = rule === "kappa" ? rec.kappa_cut : rec.precision_cut;
        if (chosen) cuts[q] = chosen.cut;
      }
      if (questions.length === 0) throw badInput("no yes/no labels", "label/1 rows with boolean values", "none in --labels");
      const candidate: CutsCandidate = CutsCandidateSchema.parse({
        schema: "calibration-cuts/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        rule,
        cuts,
        questions,
        inputs: { ...inputs.files, split: split ? `${inputs.splitOf ? "the gold file's split" : `sessions, holdout share ${split.holdoutShare}, salt ${split.salt}`}; cuts fitted on the fit part` : "none: all items" },
      });
      const file = candidatePath(ctx, opts.out, `cuts-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(candidate, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, candidate });
      println(ctx.io, `question                      n    kappa cut (κ, P, R)            precision ≥ ${precisionTarget} cut (P, R)`);
      for (const q of questions) {
        const k = q.kappa_cut;
        const p = q.precision_cut;
        const f = (x: number | null | undefined) => (x === null || x === undefined ? "  - " : x.toFixed(2));
        println(
          ctx.io,
          `${q.question.padEnd(28)} ${String(q.n).padStart(4)}   ${k ? `${k.cut.toFixed(3)} (${f(k.kappa)}, ${f(k.precision)}, ${f(k.recall)})` : "none".padEnd(24)}   ${p ? `${p.cut.toFixed(3)} (${f(p.precision)}, ${f(p.recall)})` : "none"}`,
        );
      }
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });
}
