import { join, resolve } from "node:path";
import type { Command } from "commander";
import { assembleQuestion, calibrateQuestion, cutsForItems } from "../../../calibration/index.js";
import { QuestionCandidateSchema } from "../../../schemas/calibration.js";
import { LabelSchema } from "../../../schemas/label.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { folderFor, readDraw } from "../../shared/calibration-loop.js";
import { candidatePath, numberOption, readJsonl, stamp, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate fit`: the last step of the calibration loop: cuts (kappa and precision,
 * side by side) and Platt/isotonic for the drawn question, weighted by 1 / inclusion
 * probability, as a candidate.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("fit")
    .description("cuts (kappa and precision, side by side) and Platt/isotonic for one drawn question, as a candidate")
    .option("--dir <dir>", "the loop's folder (with draw.jsonl and labels.jsonl)")
    .option("--labels <file>", "label/1 JSONL (default the folder's labels.jsonl)")
    .option("--precision <x>", "target precision (default 0.9)")
    .option("--out <file>", "candidate file (default <v4>/candidates/<question>-<stamp>.json)")
    .option("--dry-run", "compute and print, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          `echo '{"schema":"calib-item/1","item_id":"a1","session_id":"s1","question":"detect.unhappy","p_yes":0.8,"shown":{"prompt":"no, not that file"}}' > items.jsonl &&`,
          "errata calibrate draw --items items.jsonl --question detect.unhappy --dir loop &&",
          `printf 'item_id,answer\\na1,yes\\n' | tee loop/ana.csv loop/ben.csv > loop/cai.csv &&`,
          "errata calibrate agreement --dir loop && errata calibrate fit --dir loop --precision 0.9",
        ],
      ]),
    )
    .action((opts: { dir?: string; labels?: string; precision?: string; out?: string; dryRun?: boolean; json?: boolean }) => {
      const folder = folderFor(ctx, opts.dir, undefined);
      const draw = readDraw(folder);
      const question = draw[0]!.question;
      const labelsFile = opts.labels ? resolve(ctx.io.cwd, opts.labels) : join(folder, "labels.jsonl");
      const labels = readJsonl(labelsFile, LabelSchema);
      const precisionTarget = numberOption("precision", opts.precision, 0.9, [0.01, 1]);
      const answers = draw.map((r) => ({ exchange_id: r.item_id, question_id: question, status: "scored" as const, p_yes: r.p_yes }));
      const { items, excluded } = assembleQuestion(question, answers, labels, {
        sessionOf: new Map(draw.map((r) => [r.item_id, r.session_id])),
        weightOf: new Map(draw.map((r) => [r.item_id, 1 / r.inclusion_probability])),
      });
      if (items.length === 0) throw badInput(`no majority labels for ${question}`, "drawn items with a 2-of-3 majority", `${excluded.no_majority} without a majority`);
      const cuts = cutsForItems(items, precisionTarget)!;
      const cal = calibrateQuestion(items, null);
      const candidate = QuestionCandidateSchema.parse({
        schema: "calibration-question/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        question,
        cuts: {
          question,
          n: items.length,
          positives: cuts.positives,
          excluded,
          kappa_cut: cuts.kappaCut,
          precision_target: precisionTarget,
          precision_cut: cuts.precisionCut,
          notes: [...cuts.notes, "weights: 1 / inclusion probability of the draw (Hajek)"],
        },
        platt: cal.platt,
        isotonic: cal.isotonic,
        metrics: cal.metrics?.raw ?? null,
        inputs: { draw: join(folder, "draw.jsonl"), labels: labelsFile },
      });
      const file = candidatePath(ctx, opts.out, `${question}-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(candidate, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, candidate });
      const k = cuts.kappaCut;
      const p = cuts.precisionCut;
      println(ctx.io, `${question}: ${items.length} items with a majority (${excluded.no_majority} without), weighted by 1/π`);
      println(ctx.io, `kappa cut:     ${k ? `${k.cut.toFixed(3)}  kappa ${k.kappa?.toFixed(3)}  precision ${k.precision?.toFixed(3)}  recall ${k.recall?.toFixed(3)}` : "none"}`);
      println(ctx.io, `precision cut: ${p ? `${p.cut.toFixed(3)}  precision ${p.precision?.toFixed(3)}  recall ${p.recall?.toFixed(3)}  (target ${precisionTarget})` : `none reaches ${precisionTarget}`}`);
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });
}
