import { join, resolve } from "node:path";
import type { Command } from "commander";
import { mulberry32, renderCalibBrief, renderCalibSheet, shuffled, type BriefQuestion } from "../../../calibration/index.js";
import { questionById } from "../../../questions/index.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { folderFor, QuestionFileSchema, readDraw } from "../../shared/calibration-loop.js";
import { intOption, readJson, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate brief`: the blind labellers' brief (brief.md) and one shuffled sheet per
 * labeller (sheet-N.csv) for a drawn question.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("brief")
    .description("the blind labellers' brief and one shuffled sheet per labeller for a drawn question")
    .option("--dir <dir>", "the loop's folder (with draw.jsonl)")
    .option("--question <id>", "a bank question id (its text, guidance and examples), or the folder's default")
    .option("--question-file <file>", "JSON {id, text, guidance, positive?, negative?} for a question outside the bank")
    .option("--labellers <n>", "sheets to write (default 3)")
    .option("--seed <n>", "seed of the sheets' item order (default 1)")
    .option("--dry-run", "print the brief, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          `echo '{"schema":"calib-item/1","item_id":"a1","session_id":"s1","question":"detect.unhappy","p_yes":0.8,"shown":{"prompt":"no, not that file"}}' > items.jsonl &&`,
          "errata calibrate draw --items items.jsonl --question detect.unhappy --dir loop &&",
          "errata calibrate brief --dir loop --labellers 3",
        ],
      ]),
    )
    .action((opts: { dir?: string; question?: string; questionFile?: string; labellers?: string; seed?: string; dryRun?: boolean; json?: boolean }) => {
      const folder = folderFor(ctx, opts.dir, opts.question);
      const draw = readDraw(folder);
      let question: BriefQuestion;
      if (opts.questionFile) question = readJson(resolve(ctx.io.cwd, opts.questionFile), QuestionFileSchema) as BriefQuestion;
      else {
        const id = opts.question ?? draw[0]!.question;
        const q = questionById.get(id);
        if (!q) throw badInput(`${id} is not a bank question`, "a bank question id, or --question-file for another question", JSON.stringify(id));
        question = q;
      }
      const labellers = intOption("labellers", opts.labellers, 3, 1);
      const seed = intOption("seed", opts.seed, 1, 0);
      const items = shuffled(draw, mulberry32(seed)).map((r) => ({ item_id: r.item_id, shown: r.shown }));
      const brief = renderCalibBrief(question, items);
      const files = [join(folder, "brief.md"), ...Array.from({ length: labellers }, (_, k) => join(folder, `sheet-${k + 1}.csv`))];
      if (!opts.dryRun) {
        writeAtomic(files[0]!, brief);
        for (let k = 0; k < labellers; k++) {
          const order = shuffled(draw, mulberry32(seed + k + 1)).map((r) => ({ item_id: r.item_id, shown: r.shown }));
          writeAtomic(files[k + 1]!, renderCalibSheet(order));
        }
      }
      if (opts.json) return printJson(ctx.io, { question: question.id, items: items.length, files: opts.dryRun ? [] : files });
      if (opts.dryRun) ctx.io.stdout.write(brief);
      else println(ctx.io, `written: ${files.join(", ")}\nGive each labeller the brief and one sheet; rename each filled sheet after its labeller (e.g. ana.csv).`);
    });
}
