import { readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Command } from "commander";
import Papa from "papaparse";
import { z } from "zod";
import {
  calibrateQuestion,
  cutsForItems,
  drawForCalibration,
  mulberry32,
  renderCalibBrief,
  renderCalibSheet,
  shuffled,
  assembleQuestion,
  type BriefQuestion,
} from "../../calibration/index.js";
import { agreementReport } from "../../eval/agreement-report.js";
import { questionById } from "../../questions/index.js";
import { CalibDrawRowSchema, CalibItemSchema, QuestionCandidateSchema, type CalibDrawRow } from "../../schemas/calibration.js";
import { LabelSchema, type Label } from "../../schemas/label.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { CommandContext } from "../command.js";
import { badInput } from "../../core/errors.js";
import { printJson, println } from "../io.js";
import { candidatePath, fileExists, intOption, numberOption, readJson, readJsonl, readText, stamp, writeAtomic } from "./research-io.js";

/**
 * `errata calibrate draw|brief|agreement|fit`: the calibration loop for ANY yes/no question
 * (a bank question, or the rules pass's rule_covers and same_root_cause), on plain files in
 * one folder: draw.jsonl → brief.md + sheet-N.csv → labels.jsonl → a candidate.
 */
const QuestionFileSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  guidance: z.string().min(1),
  positive: z.array(z.record(z.string(), z.unknown())).optional(),
  negative: z.array(z.record(z.string(), z.unknown())).optional(),
});

function folderFor(ctx: CommandContext, dir: string | undefined, question: string | undefined): string {
  if (dir) return resolve(ctx.io.cwd, dir);
  if (!question) throw badInput("missing --dir", "--dir DIR (or --question ID for the default folder)", "neither");
  return join(resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir, "calibration", question);
}

function readDraw(folder: string): CalibDrawRow[] {
  const file = join(folder, "draw.jsonl");
  if (!fileExists(file)) throw badInput(`no draw in ${folder}`, "draw.jsonl written by `errata calibrate draw`", "no such file");
  const rows = readJsonl(file, CalibDrawRowSchema);
  if (rows.length === 0) throw badInput(`${file} is empty`, "drawn items", "none");
  return rows;
}

/** yes/no cell → boolean, empty → null; anything else is bad input. */
export function parseAnswerCell(cell: string, where: string): boolean | null {
  const v = cell.trim().toLowerCase();
  if (v === "") return null;
  if (["yes", "y", "true", "1"].includes(v)) return true;
  if (["no", "n", "false", "0"].includes(v)) return false;
  throw badInput(`bad answer at ${where}`, "yes, no or empty", JSON.stringify(cell));
}

function sheetLabels(file: string, question: string, known: Set<string>): Label[] {
  const parsed = Papa.parse<Record<string, string>>(readText(file), { header: true, skipEmptyLines: true });
  const labeler = basename(file).replace(/\.csv$/i, "");
  const out: Label[] = [];
  parsed.data.forEach((row, i) => {
    const id = row["item_id"];
    if (id === undefined || !("answer" in row)) throw badInput(`${file} is not a calibration sheet`, "columns item_id and answer", Object.keys(row).join(", "));
    if (!known.has(id)) throw badInput(`${file} row ${i + 2} names an item not in the draw`, "an item_id of draw.jsonl", JSON.stringify(id));
    const value = parseAnswerCell(row["answer"] ?? "", `${file} row ${i + 2}`);
    if (value !== null) out.push({ schema: "label/1", exchange_id: id, labeler, question, value, origin: `sheet:${basename(file)}` });
  });
  return out;
}

export function registerGeneric(group: Command, ctx: CommandContext): void {
  group
    .command("draw")
    .description("draw items to label for one yes/no question, stratified by the judge's P(yes), session-capped, seeded")
    .requiredOption("--items <file>", "calib-item/1 JSONL (item_id, session_id, question, p_yes, shown)")
    .requiredOption("--question <id>", "the question to calibrate")
    .option("--n <n>", "items to draw (default 100)")
    .option("--bands <n>", "equal-width P(yes) bands (default 5)")
    .option("--per-session <n>", "at most this many items from one session (default 2)")
    .option("--seed <n>", "seed (default 1)")
    .option("--replicates <n>", "re-draws for inclusion probabilities (default 200)")
    .option("--dir <dir>", "folder for the loop's files (default <v4>/calibration/<question>)")
    .option("--dry-run", "draw and print, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ errata calibrate draw --items pairs.jsonl --question rules.rule_covers --n 120 --seed 4")
    .action((opts: { items: string; question: string; n?: string; bands?: string; perSession?: string; seed?: string; replicates?: string; dir?: string; dryRun?: boolean; json?: boolean }) => {
      const all = readJsonl(resolve(ctx.io.cwd, opts.items), CalibItemSchema).filter((i) => i.question === opts.question);
      const scored = all.filter((i): i is typeof i & { p_yes: number } => i.p_yes !== null);
      if (scored.length === 0) throw badInput(`no scored items for ${opts.question}`, "calib-item/1 rows with that question and a p_yes", `${all.length} rows, none scored`);
      const seed = intOption("seed", opts.seed, 1, 0);
      const drawn = drawForCalibration(scored, {
        n: intOption("n", opts.n, 100, 1),
        bands: intOption("bands", opts.bands, 5, 1),
        perSession: intOption("per-session", opts.perSession, 2, 1),
        replicates: intOption("replicates", opts.replicates, 200, 1),
        seed,
      });
      const rows: CalibDrawRow[] = drawn.map((d) => ({
        schema: "calib-draw/1",
        item_id: d.item.item_id,
        session_id: d.item.session_id,
        question: d.item.question,
        p_yes: d.item.p_yes,
        band: d.band,
        inclusion_probability: d.inclusion_probability,
        shown: d.item.shown,
        seed,
      }));
      const folder = folderFor(ctx, opts.dir, opts.question);
      if (!opts.dryRun) writeAtomic(join(folder, "draw.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
      const perBand = new Map<number, number>();
      for (const r of rows) perBand.set(r.band, (perBand.get(r.band) ?? 0) + 1);
      const summary = { question: opts.question, drawn: rows.length, of: scored.length, unscored: all.length - scored.length, sessions: new Set(rows.map((r) => r.session_id)).size, per_band: Object.fromEntries([...perBand].sort((a, b) => a[0] - b[0])), seed, file: opts.dryRun ? null : join(folder, "draw.jsonl") };
      if (opts.json) return printJson(ctx.io, summary);
      println(ctx.io, `drew ${summary.drawn} of ${summary.of} scored items (${summary.unscored} unscored left out) from ${summary.sessions} sessions; per band ${JSON.stringify(summary.per_band)}; seed ${seed}`);
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `written: ${summary.file}`);
    });

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
    .addHelpText("after", "\nExample:\n  $ errata calibrate brief --dir v4/calibration/rules.rule_covers --question-file rule_covers.json")
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
    .addHelpText("after", "\nExample:\n  $ errata calibrate agreement --dir v4/calibration/rules.rule_covers --sheets ana.csv ben.csv cai.csv")
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

  group
    .command("fit")
    .description("cuts (kappa and precision, side by side) and Platt/isotonic for one drawn question, as a candidate")
    .option("--dir <dir>", "the loop's folder (with draw.jsonl and labels.jsonl)")
    .option("--labels <file>", "label/1 JSONL (default the folder's labels.jsonl)")
    .option("--precision <x>", "target precision (default 0.9)")
    .option("--out <file>", "candidate file (default <v4>/candidates/<question>-<stamp>.json)")
    .option("--dry-run", "compute and print, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ errata calibrate fit --dir v4/calibration/rules.rule_covers --precision 0.9")
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
