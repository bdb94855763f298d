import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { classTierPromptHash } from "../../classtier/index.js";
import { checkBars, DEFAULT_BARS } from "../../eval/index.js";
import { scoreDetectors } from "../../eval/index.js";
import { bankHash } from "../../questions/index.js";
import { CutsCandidateSchema } from "../../schemas/calibration.js";
import { ClassTierLevelSchema } from "../../schemas/classtier.js";
import { EvalBarsSchema, type EvalBars } from "../../schemas/eval-bars.js";
import { GoldItemSchema } from "../../schemas/gold.js";
import { DETECT_UNHAPPY, LabelSchema } from "../../schemas/label.js";
import { PredictionSchema } from "../../schemas/prediction.js";
import { PromotedSchema, type Promoted } from "../../schemas/promoted.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { CommandContext } from "../shared/command.js";
import { badInput, ErrataError } from "../../core/errors.js";
import { EvalInputError } from "../../eval/index.js";
import { printJson, println } from "../shared/io.js";
import { loadCombiner } from "../shared/combiner.js";
import { fileExists, intOption, readJson, readJsonl, writeAtomic } from "../shared/research-files.js";
import { examples } from "../shared/help.js";

/**
 * `errata promote`: runs the `eval score --check` logic (eval/'s scoreDetectors and
 * checkBars) on the gold holdout and, only when every bar passes, writes the promoted
 * configuration to `<ledger>/promoted.json` (temp file + rename). Otherwise exit 1, naming
 * the bars that failed, and nothing is written.
 */
interface Flags {
  predictions: string[];
  gold?: string;
  labels?: string[];
  bars?: string;
  cuts?: string;
  combiner?: string;
  classtierLevel?: string;
  detectQuestion?: string;
  classQuestion?: string;
  resamples?: string;
  seed?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Bars as `eval score --check` finds them: --bars, else eval-bars.json here or in <ledger>/eval, else the defaults. */
function loadBars(ctx: CommandContext, file: string | undefined, evalDir: string): { source: string; bars: EvalBars } {
  const candidates = file ? [resolve(ctx.io.cwd, file)] : [resolve(ctx.io.cwd, "eval-bars.json"), join(evalDir, "eval-bars.json")];
  for (const path of candidates) if (file || existsSync(path)) return { source: path, bars: readJson(path, EvalBarsSchema) };
  return { source: "defaults", bars: DEFAULT_BARS };
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("promote")
    .description("run eval score --check on the holdout and, only when it passes, write <ledger>/promoted.json")
    .requiredOption("--predictions <files...>", "prediction/1 files of the detectors the bars name (e.g. regex, v3, v4)")
    .option("--gold <file>", "gold-item/1 JSONL (default <ledger>/eval/gold.jsonl)")
    .option("--labels <files...>", "label/1 JSONL (default <ledger>/eval/labels.jsonl)")
    .option("--bars <file>", "eval-bars/1 config (default as eval score --check finds it)")
    .option("--cuts <file>", "a calibration-cuts/1 candidate whose cuts ship")
    .option("--combiner <file>", "a combiner/1 file whose heads ship")
    .option("--classtier-level <file>", "a classtier-level/1 record (default <v4>/classtier-level.json when present)")
    .option("--detect-question <id>", `gold verdict question (default ${DETECT_UNHAPPY})`)
    .option("--class-question <id>", "gold class question (default class)")
    .option("--resamples <n>", "bootstrap resamples, at least 2000 (default 2000)")
    .option("--seed <n>", "bootstrap seed (default 1)")
    .option("--dry-run", "check and show the configuration, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples(
        [
          [
            "errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl &&",
            "errata v4 v3 --regex-caught --exchanges datasets/ab-redial/exchanges.jsonl &&",
            "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --out predictions.jsonl &&",
            "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
            "errata promote --predictions predictions.jsonl --labels datasets/ab-redial/labels.jsonl  # exit 1: a bar fails, nothing written",
          ],
        ],
        { before: "Exit 1 when a bar fails (the failed bars are named; nothing is written)." },
      ),
    )
    .action((flags: Flags) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const evalDir = join(paths.ledgerDir, "eval");
      const goldFile = flags.gold ? resolve(ctx.io.cwd, flags.gold) : join(evalDir, "gold.jsonl");
      const labelFiles = (flags.labels && flags.labels.length > 0 ? flags.labels : [join(evalDir, "labels.jsonl")]).map((f) => resolve(ctx.io.cwd, f));
      const gold = readJsonl(goldFile, GoldItemSchema);
      const labels = labelFiles.flatMap((f) => readJsonl(f, LabelSchema));
      const predictions = flags.predictions.flatMap((f) => readJsonl(resolve(ctx.io.cwd, f), PredictionSchema));
      const bars = loadBars(ctx, flags.bars, evalDir);
      // Everything that will ship is read and checked before scoring, so bad input writes nothing.
      const cuts = flags.cuts ? readJson(resolve(ctx.io.cwd, flags.cuts), CutsCandidateSchema) : null;
      if (cuts && cuts.bank_hash !== null && cuts.bank_hash !== bankHash) throw badInput(`${flags.cuts} was calibrated under another bank`, `bank ${bankHash}`, `bank ${cuts.bank_hash}`);
      const combiner = flags.combiner ? loadCombiner(resolve(ctx.io.cwd, flags.combiner)) : null;
      const levelFile = flags.classtierLevel ? resolve(ctx.io.cwd, flags.classtierLevel) : join(paths.v4Dir, "classtier-level.json");
      const level = flags.classtierLevel || fileExists(levelFile) ? readJson(levelFile, ClassTierLevelSchema) : null;
      const resamples = intOption("resamples", flags.resamples, 2000, 2000);
      const seed = intOption("seed", flags.seed, 1, 0);
      let report;
      let results;
      try {
        report = scoreDetectors(
          gold.map((g) => ({ id: g.exchange_id, session: g.session_id, weight: g.weight, split: g.split })),
          labels,
          predictions,
          { split: "holdout", detectQuestion: flags.detectQuestion ?? DETECT_UNHAPPY, classQuestion: flags.classQuestion ?? "class", resamples, seed, ppi: null },
        );
        results = checkBars(bars.bars.bars, report.figures, report.detectors.map((d) => d.name));
      } catch (err) {
        if (err instanceof EvalInputError) throw new ErrataError("BAD_INPUT", `cannot score the holdout: ${err.message}`);
        throw err;
      }
      const failed = results.filter((r) => !r.pass);
      if (failed.length > 0) {
        ctx.exitCode = 1;
        const out = { promoted: false, failed: failed.map((b) => ({ id: b.id, description: b.description, figure: b.figure, lower: b.lower, threshold: b.threshold, rule: b.rule, reason: b.reason })), bars: results };
        if (flags.json) return printJson(ctx.io, out);
        println(ctx.io, `not promoted: ${failed.length} of ${results.length} bars failed on the holdout`);
        for (const b of failed) {
          const judged = b.rule === "lower" ? b.lower : b.figure;
          println(ctx.io, `  FAIL ${b.id} ${b.description}: ${b.name} ${judged === null ? "undefined" : judged.toFixed(3)} (${b.rule}${b.rule === "lower" ? " bound" : ""} must ${b.threshold === 0 ? "be above 0" : `reach ${b.threshold}`})${b.reason ? `: ${b.reason}` : ""}`);
        }
        return;
      }
      const classLevel: Promoted["class_level"] = level ? level.level : combiner?.class ? "class_head" : "composer";
      const promoted: Promoted = PromotedSchema.parse({
        schema: "promoted/1",
        promoted_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        cuts: cuts?.cuts ?? {},
        heads: { detect: combiner?.detect ?? null, class: combiner?.class ?? null },
        class_level: classLevel,
        second_look: level?.second_look ?? false,
        prompt_hashes: { ...(level ? { classtier: level.prompt_hash } : { classtier: classTierPromptHash }) },
        check: {
          pass: true,
          split: "holdout",
          bars_source: bars.source,
          bars: results,
          detectors: report.detectors.map((d) => ({ name: d.name, scored: d.scored, figures: Object.fromEntries(Object.entries(d.figures).map(([k, f]) => [k, { point: f.point, lower: f.lower, upper: f.upper, emptyReplicates: f.emptyReplicates }])) })),
          items: report.items,
          gold_failures: report.goldFailures,
          bootstrap: { method: report.bootstrap.method, resamples: report.bootstrap.resamples, seed: report.bootstrap.seed, level: report.bootstrap.level, sessions: report.bootstrap.sessions },
        },
        sources: {
          gold: goldFile,
          labels: labelFiles.join(","),
          predictions: flags.predictions.join(","),
          ...(flags.cuts ? { cuts: flags.cuts } : {}),
          ...(flags.combiner ? { combiner: flags.combiner } : {}),
          ...(level ? { classtier_level: levelFile } : {}),
        },
      });
      if (level && level.prompt_hash !== classTierPromptHash) {
        ctx.io.stderr.write(`errata: note: the recorded ClassTier level is for prompt ${level.prompt_hash}, the current prompt is ${classTierPromptHash}: the runtime will use the class head until classtier eval --write records the current prompt\n`);
      }
      const file = join(paths.ledgerDir, "promoted.json");
      if (!flags.dryRun) writeAtomic(file, `${JSON.stringify(promoted, null, 2)}\n`);
      if (flags.json) return printJson(ctx.io, { promoted: !flags.dryRun, file: flags.dryRun ? null : file, configuration: promoted });
      println(ctx.io, `all ${results.length} bars passed on the holdout (${report.items} items, ${report.goldFailures} gold failures)`);
      println(ctx.io, `class level ${classLevel}, second look ${promoted.second_look ? "on" : "off"}, ${Object.keys(promoted.cuts).length} cuts, heads: ${[combiner?.detect ? "detect" : null, combiner?.class ? "class" : null].filter(Boolean).join(", ") || "none"}`);
      println(ctx.io, flags.dryRun ? "dry run: nothing written" : `promoted: ${file}`);
    });
}
