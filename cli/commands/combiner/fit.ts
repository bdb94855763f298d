import type { Command } from "commander";
import { fitClassHead, fitDetectHead } from "../../../combiner/index.js";
import { bankHash } from "../../../questions/index.js";
import { CombinerSchema, type CombinerRecord } from "../../../schemas/combiner.js";
import { DETECT_UNHAPPY } from "../../../schemas/label.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { CLASS_FEATURES, DETECT_FEATURES, rowsFor, type CombinerOptions, type GoldRow } from "../../shared/combiner.js";
import { withInputOptions } from "../../shared/research-inputs.js";
import { candidatePath, intOption, stamp, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata combiner fit`: fits the learned detect and class heads over the engine's
 * probabilities on the fit split (L2 by session-grouped cross-validation), as a candidate.
 */
export function register(group: Command, ctx: CommandContext): void {
  withInputOptions(group.command("fit").description("fit both heads on the fit split (L2 by session-grouped cross-validation), as a candidate"))
    .option("--target <question>", `yes/no question whose majority is the gold verdict (default ${DETECT_UNHAPPY})`)
    .option("--class-question <question>", "label question holding the gold v3 class (default class)")
    .option("--seed <n>", "seed of the cross-validation folds (default 1)")
    .option("--folds <n>", "cross-validation folds (default 5)")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --out answers.jsonl &&",
          "errata combiner fit --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --seed 1 --out combiner.json",
        ],
      ]),
    )
    .action((opts: CombinerOptions) => {
      const seed = intOption("seed", opts.seed, 1, 0);
      const folds = intOption("folds", opts.folds, 5, 2);
      const rows = rowsFor(ctx, opts).filter((r) => r.side === "fit");
      const notes: string[] = [];
      const detectItems = rows.filter((r): r is GoldRow & { y: 0 | 1 } => r.y !== null);
      let detect: CombinerRecord["detect"] = null;
      try {
        detect = { target: opts.target ?? DETECT_UNHAPPY, ...fitDetectHead(detectItems, { questions: DETECT_FEATURES, seed, folds }) };
      } catch (err) {
        notes.push(`detect head not fitted: ${(err as Error).message}`);
      }
      const classItems = rows.filter((r): r is GoldRow & { cls: string } => r.cls !== null);
      let cls: CombinerRecord["class"] = null;
      try {
        cls = { target: opts.classQuestion ?? "class", ...fitClassHead(classItems, { questions: CLASS_FEATURES, seed, folds }) };
      } catch (err) {
        notes.push(`class head not fitted: ${(err as Error).message}`);
      }
      if (!detect && !cls) throw badInput("nothing to fit", "labelled fit-split exchanges with gold verdicts and classes", notes.join("; "));
      const record: CombinerRecord = CombinerSchema.parse({
        schema: "combiner/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        seed,
        folds,
        detect,
        class: cls,
        inputs: { answers: opts.answers ?? "", labels: opts.labels ?? "", ...(opts.gold ? { gold: opts.gold } : {}), ...(opts.exchanges ? { exchanges: opts.exchanges } : {}) },
        notes,
      });
      const file = candidatePath(ctx, opts.out, `combiner-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, combiner: record });
      if (detect) println(ctx.io, `detect head: ${detect.n} exchanges (${detect.positives} failures), L2 ${detect.l2} by ${folds}-fold session CV, cut ${detect.cut.toFixed(3)}, out-of-fold kappa ${detect.outOfFold?.kappa?.toFixed(3) ?? "n/a"}`);
      if (cls) println(ctx.io, `class head: ${cls.n} failures over ${cls.classes.length} classes, L2 ${cls.l2}`);
      for (const n of notes) println(ctx.io, n);
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });
}
