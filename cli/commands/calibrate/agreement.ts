import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { agreementReport } from "../../../eval/index.js";
import { LabelSchema, type Label } from "../../../schemas/label.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { folderFor, readDraw, sheetLabels } from "../../shared/calibration-loop.js";
import { intOption, readJsonl, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate agreement`: agreement between the labellers of a drawn question (eval/'s
 * figures), and the loop's labels.jsonl from their filled sheets, for `calibrate fit`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("agreement")
    .description("agreement between the labellers (eval/ figures) and the labels file for fit")
    .option("--dir <dir>", "the loop's folder (with draw.jsonl)")
    .option("--sheets <files...>", "filled sheets, one per labeller (labeller = file name); default every *.csv in the folder but sheet-N.csv")
    .option("--labels <file>", "label/1 JSONL instead of sheets")
    .option("--seed <n>", "bootstrap seed (default 1)")
    .option("--resamples <n>", "session-block bootstrap resamples (default 2000)")
    .option("--dry-run", "report, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          `echo '{"schema":"calib-item/1","item_id":"a1","session_id":"s1","question":"detect.unhappy","p_yes":0.8,"shown":{"prompt":"no, not that file"}}' > items.jsonl &&`,
          "errata calibrate draw --items items.jsonl --question detect.unhappy --dir loop &&",
          `printf 'item_id,answer\\na1,yes\\n' | tee loop/ana.csv loop/ben.csv > loop/cai.csv &&`,
          "errata calibrate agreement --dir loop --sheets loop/ana.csv loop/ben.csv loop/cai.csv",
        ],
      ]),
    )
    .action((opts: { dir?: string; sheets?: string[]; labels?: string; seed?: string; resamples?: string; dryRun?: boolean; json?: boolean }) => {
      const folder = folderFor(ctx, opts.dir, undefined);
      const draw = readDraw(folder);
      const question = draw[0]!.question;
      const known = new Set(draw.map((r) => r.item_id));
      let labels: Label[];
      if (opts.labels) labels = readJsonl(resolve(ctx.io.cwd, opts.labels), LabelSchema).filter((l) => l.question === question && known.has(l.exchange_id));
      else {
        const sheets = opts.sheets?.map((s) => resolve(ctx.io.cwd, s)) ?? readdirSync(folder).filter((f) => f.endsWith(".csv") && !/^sheet-\d+\.csv$/.test(f)).sort().map((f) => join(folder, f));
        if (sheets.length < 2) throw badInput("too few filled sheets", "two or more (three for a 2-of-3 majority)", `${sheets.length}`);
        labels = sheets.flatMap((f) => sheetLabels(f, question, known));
      }
      if (labels.length === 0) throw badInput("no yes/no labels", "answers yes or no for the drawn items", "none");
      const [report] = agreementReport(labels, {
        questions: [question],
        sessionOf: new Map(draw.map((r) => [r.item_id, r.session_id])),
        resamples: intOption("resamples", opts.resamples, 2000, 1),
        seed: intOption("seed", opts.seed, 1, 0),
      });
      const file = join(folder, "labels.jsonl");
      if (!opts.dryRun && !opts.labels) writeAtomic(file, labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
      if (opts.json) return printJson(ctx.io, { question, labels: labels.length, file: opts.dryRun || opts.labels ? null : file, agreement: report });
      const r = report!;
      const f = (x: { value: number | null; lower: number | null; upper: number | null }) => (x.value === null ? "n/a" : `${x.value.toFixed(3)} [${x.lower?.toFixed(3) ?? "?"}, ${x.upper?.toFixed(3) ?? "?"}]`);
      println(ctx.io, `${question}: ${r.items} items, labellers ${r.labelers.join(", ")}`);
      println(ctx.io, `Fleiss kappa (fixed raters) ${f(r.fleissFixed)}; Krippendorff alpha (nominal) ${f(r.alpha.nominal)}; raw pairwise ${r.raw.pairwise?.toFixed(3) ?? "n/a"}`);
      for (const c of r.cohen) println(ctx.io, `Cohen kappa ${c.a}–${c.b}: ${f(c)}`);
      println(ctx.io, `2-of-3 majority: ${r.majority.majority} items, ${r.majority.tie} ties, ${r.majority.insufficient} insufficient`);
      if (r.bootstrap) println(ctx.io, `intervals: session-block bootstrap, ${r.bootstrap.resamples} resamples, seed ${r.bootstrap.seed}`);
      if (!opts.dryRun && !opts.labels) println(ctx.io, `written: ${file}`);
    });
}
