import { appendFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import {
  askClassTier,
  classTierPromptHash,
  classTierQuestions,
  decideLevel,
  verdictsFromCache,
  type CachedAnswer,
  type LevelItem,
} from "../../classtier/index.js";
import { classDistribution } from "../../combiner/index.js";
import { EngineConfigError, engineFromConfig } from "../../engine/config.js";
import { createEngine, type Engine } from "../../engine/index.js";
import { AnswerSchema } from "../../schemas/answer.js";
import { ClassTierAnswerSchema, ClassTierLevelSchema } from "../../schemas/classtier.js";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { PredictionSchema } from "../../schemas/prediction.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { CommandContext } from "../command.js";
import { badInput, ErrataError } from "../../core/errors.js";
import { printJson, println, progress } from "../io.js";
import { loadInputs } from "./calibrate-inputs.js";
import { splitFrom } from "./calibrate.js";
import { goldRows, loadCombiner } from "./combiner.js";
import { fileExists, intOption, numberOption, readJsonl, writeAtomic } from "./research-io.js";

/**
 * `errata classtier ask|eval`: the model judge for failure class through the engine, its
 * answers cached in `<v4>/classtier.jsonl`; `eval --write` records in
 * `<v4>/classtier-level.json` which level ships and whether the second look is on, with the
 * prompt hash (the runtime uses the judge only while that hash is current).
 */
export function classTierFiles(ctx: CommandContext): { cache: string; level: string } {
  const v4 = resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir;
  return { cache: join(v4, "classtier.jsonl"), level: join(v4, "classtier-level.json") };
}

function readCache(file: string): CachedAnswer[] {
  return fileExists(file) ? readJsonl(file, ClassTierAnswerSchema).map((r) => ({ prompt_hash: r.prompt_hash, answer: r.answer })) : [];
}

/**
 * The engine `classtier ask` uses: `--replay FILE` answers from a stored answers file;
 * otherwise the lane the engine config names (`errata-engine.json`, ERRATA_ENGINE_LANE;
 * `--lane` overrides), which is the embedded lane with the shipped weights unless configured.
 */
function classTierEngine(ctx: CommandContext, opts: { replay?: string; lane?: string }): Engine {
  if (opts.replay !== undefined && opts.lane !== undefined) throw badInput("--replay and --lane together", "one engine: --replay FILE or --lane NAME", `--replay ${opts.replay} --lane ${opts.lane}`);
  if (opts.replay !== undefined) return createEngine({ lane: "replay", answers: readJsonl(resolve(ctx.io.cwd, opts.replay), AnswerSchema) });
  try {
    return engineFromConfig({ paths: resolvePaths(ctx.io.env, ctx.io.cwd), env: ctx.io.env, now: ctx.io.now, ...(opts.lane !== undefined ? { lane: opts.lane } : {}) }).engine;
  } catch (err) {
    if (err instanceof EngineConfigError) throw new ErrataError("BAD_CONFIG", err.message, { expected: err.expected, found: err.found });
    throw err;
  }
}

export function register(program: Command, ctx: CommandContext): void {
  const group = program.command("classtier").description("the model judge for failure class, its cache, second look and shipped level");

  group
    .command("ask")
    .description("ask the ClassTier questions of exchanges through the engine, caching answers in <v4>/classtier.jsonl")
    .requiredOption("--exchanges <file>", "exchanges to judge (exchange/1 JSONL)")
    .option("--lane <name>", "engine lane from the engine config (default: the config's lane, else embedded with the shipped weights)")
    .option("--replay <file>", "answer from a stored answers file (replay lane) instead of the configured lane")
    .option("--limit <n>", "at most this many exchanges")
    .option("--caller <name>", "the engine caller whose budget pays (default errata-triage)")
    .option("--dry-run", "count what would be asked, ask nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ errata classtier ask --exchanges v4/exchanges.jsonl --limit 200\n  $ errata classtier ask --exchanges gold-exchanges.jsonl --lane low")
    .action(async (opts: { exchanges: string; replay?: string; lane?: string; limit?: string; caller?: string; dryRun?: boolean; json?: boolean }) => {
      let exchanges = readJsonl(resolve(ctx.io.cwd, opts.exchanges), ExchangeSchema);
      if (opts.limit) exchanges = exchanges.slice(0, intOption("limit", opts.limit, 0, 1));
      const files = classTierFiles(ctx);
      const cached = readCache(files.cache);
      const engine = classTierEngine(ctx, opts);
      if (opts.dryRun) {
        const have = new Set(cached.filter((c) => c.prompt_hash === classTierPromptHash && c.answer.status === "scored" && c.answer.lane === engine.lane && c.answer.model === engine.model).map((c) => `${c.answer.exchange_id}\u0000${c.answer.question_id}`));
        const todo = exchanges.length * classTierQuestions.length - exchanges.reduce((s, e) => s + classTierQuestions.filter((q) => have.has(`${e.id}\u0000${q.id}`)).length, 0);
        const out = { exchanges: exchanges.length, would_ask: todo, prompt_hash: classTierPromptHash, dry_run: true };
        return opts.json ? printJson(ctx.io, out) : println(ctx.io, `would ask ${todo} pairs about ${exchanges.length} exchanges (dry run)`);
      }
      const bar = progress(ctx.io, "classtier", exchanges.length * classTierQuestions.length);
      const r = await askClassTier(engine, exchanges, cached, { questions: classTierQuestions, promptHash: classTierPromptHash, caller: opts.caller ?? "errata-triage", onProgress: () => bar.tick() });
      bar.done();
      if (r.newAnswers.length > 0) {
        mkdirSync(resolve(files.cache, ".."), { recursive: true });
        appendFileSync(files.cache, r.newAnswers.map((a) => JSON.stringify({ schema: "classtier-answer/1", prompt_hash: classTierPromptHash, answer: a })).join("\n") + "\n");
      }
      const counts = { named: 0, none: 0, unscored: 0 };
      for (const v of r.verdicts.values()) counts[v.status]++;
      const out = { exchanges: exchanges.length, asked: r.asked, from_cache: r.fromCache, verdicts: counts, lane: engine.lane, model: engine.model, prompt_hash: classTierPromptHash, cache: files.cache };
      if (opts.json) return printJson(ctx.io, out);
      println(ctx.io, `asked ${r.asked} pairs (${r.fromCache} from cache) about ${exchanges.length} exchanges on the ${engine.lane} lane: ${counts.named} named a class, ${counts.none} none, ${counts.unscored} unscored`);
    });

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
    .addHelpText("after", "\nExample:\n  $ errata classtier eval --labels labels.jsonl --gold gold.jsonl --answers v4/answers.jsonl --combiner v4/candidates/combiner.json --predictions v4.jsonl --write")
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
