import { resolve } from "node:path";
import type { Command } from "commander";
import { classTierPromptHash, classTierQuestions, decideLevel, verdictsFromCache, type LevelItem } from "../../../classtier/index.js";
import { classDistribution } from "../../../combiner/index.js";
import { ClassTierLevelSchema } from "../../../schemas/classtier.js";
import { PredictionSchema } from "../../../schemas/prediction.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { classTierFiles, readCache } from "../../shared/classtier.js";
import { goldRows, loadCombiner } from "../../shared/combiner.js";
import { loadInputs, splitFrom } from "../../shared/research-inputs.js";
import { numberOption, readJsonl, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata classtier eval`: compares the model judge with the class head on the fit split;
 * `--write` records in `<v4>/classtier-level.json` which level ships and whether the second
 * look is on.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("eval")
    .description("compare the model judge with the class head on the fit split; --write records the level and second look")
    .requiredOption("--labels <file>", "labels (label/1 JSONL): the verdict question and the class question")
    .option("--answers <file>", "engine answers for the bank (needed with --combiner)")
    .option("--gold <file>", "the gold set (gold-item/1 JSONL): sessions, weights, split")
    .option("--exchanges <file>", "exchanges for sessions when there is no gold file")
    .option("--combiner <file>", "a combiner/1 file whose class head is the alternative")
    .option("--predictions <file>", "the detector's verdicts (prediction/1), for the second look")
    .option("--detector <name>", "which detector in --predictions (default v4)")
    .option("--cut <p>", "P(yes) at which the judge names a class (default 0.5)")
    .option("--second-look-precision <p>", "precision the second look's flags must reach (default 0.5)")
    .option("--holdout-share <x>", "share of sessions held out when splitting by session id (default 0.5)")
    .option("--split-salt <text>", "salt of the session split (eval's default)")
    .option("--write", "record the level in <v4>/classtier-level.json")
    .option("--dry-run", "with --write: show the record, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        // Without cached class-tier answers (classtier ask on a lane that answers them) the level says so.
        "errata datasets copy ab-redial && errata classtier eval --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --write",
      ]),
    )
    .action((opts: { labels: string; answers?: string; gold?: string; exchanges?: string; combiner?: string; predictions?: string; detector?: string; cut?: string; secondLookPrecision?: string; holdoutShare?: string; splitSalt?: string; write?: boolean; dryRun?: boolean; json?: boolean }) => {
      if (opts.combiner && !opts.answers) throw badInput("--combiner needs --answers", "the engine's answers to run the class head on", "no --answers");
      const cut = numberOption("cut", opts.cut, 0.5, [0, 1]);
      const combiner = opts.combiner ? loadCombiner(resolve(ctx.io.cwd, opts.combiner)) : null;
      const inputs = loadInputs(ctx.io.cwd, { labels: opts.labels, ...(opts.answers ? { answers: opts.answers } : {}), ...(opts.gold ? { gold: opts.gold } : {}), ...(opts.exchanges ? { exchanges: opts.exchanges } : {}) }, false);
      const split = splitFrom(opts, inputs.sessionOf !== undefined);
      const rows = goldRows(inputs, { target: combiner?.detect?.target ?? "detect.unhappy", classQuestion: combiner?.class?.target ?? "class", holdoutShare: split?.holdoutShare ?? 0, salt: split?.salt ?? "" }).filter((r) => r.side === "fit");
      const files = classTierFiles(ctx);
      const verdicts = verdictsFromCache(readCache(files.cache), { questions: classTierQuestions, promptHash: classTierPromptHash, cut });
      const detected = new Map<string, boolean | null>();
      if (opts.predictions) {
        const det = opts.detector ?? "v4";
        for (const p of readJsonl(resolve(ctx.io.cwd, opts.predictions), PredictionSchema)) if (p.detector === det) detected.set(p.exchange_id, p.detected);
      }
      const items: LevelItem[] = rows.map((r) => ({
        weight: r.weight,
        goldFailure: r.y === null ? null : r.y === 1,
        goldClass: r.cls,
        detected: detected.get(r.id) ?? null,
        judge: verdicts.get(r.id) ?? null,
        head: combiner?.class ? classDistribution(combiner.class, r.table)[0]!.cls : null,
      }));
      const decision = decideLevel(items, { hasClassHead: combiner?.class != null, ...(opts.secondLookPrecision ? { secondLookPrecision: numberOption("second-look-precision", opts.secondLookPrecision, 0.5, [0, 1]) } : {}) });
      const judged = [...verdicts.keys()].length;
      const record = ClassTierLevelSchema.parse({
        schema: "classtier-level/1",
        recorded_at: new Date(ctx.io.now()).toISOString(),
        level: decision.level,
        second_look: decision.second_look,
        prompt_hash: classTierPromptHash,
        judge: null,
        cut,
        class_accuracy: decision.class_accuracy,
        second_look_figures: decision.second_look_figures,
        reasons: judged === 0 ? [...decision.reasons, "no cached ClassTier answers for the current prompt: run errata classtier ask"] : decision.reasons,
        inputs: { labels: opts.labels, ...(opts.gold ? { gold: opts.gold } : {}), ...(opts.combiner ? { combiner: opts.combiner } : {}), ...(opts.predictions ? { predictions: opts.predictions } : {}), cache: files.cache },
      });
      if (opts.write && !opts.dryRun) writeAtomic(files.level, `${JSON.stringify(record, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { written: opts.write && !opts.dryRun ? files.level : null, record });
      const f = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
      println(ctx.io, `fit split: ${decision.class_accuracy.items} gold failures with a gold class; class accuracy: model judge ${f(decision.class_accuracy.model_judge)}, class head ${f(decision.class_accuracy.class_head)}`);
      println(ctx.io, `ships: ${decision.level}; second look ${decision.second_look ? "on" : "off"} (${decision.second_look_figures.flags} flags, ${decision.second_look_figures.hits} gold failures)`);
      for (const r of record.reasons) println(ctx.io, `  ${r}`);
      println(ctx.io, opts.write ? (opts.dryRun ? "dry run: nothing written" : `recorded: ${files.level} (prompt ${classTierPromptHash})`) : "not recorded (add --write)");
    });
}
