import type { Command } from "commander";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CommandContext } from "../command.js";
import { badInput, ErrataError } from "../../core/errors.js";
import { printJson, println, progress, warn, type Io } from "../io.js";
import { resolvePaths } from "../../runtime/paths.js";
import { bank, v3ClassQuestions } from "../../questions/index.js";
import type { Question } from "../../schemas/question.js";
import type { Answer } from "../../schemas/answer.js";
import { engineFromConfig, EngineConfigError } from "../../engine/config.js";
import { EngineInputError, readExchanges, readQuestions } from "../../engine/embedded/files.js";
import { readSet, SyntheticSeedError, syntheticTrainingSet } from "../../engine/embedded/sets.js";
import { SYNTHETIC_LABELER } from "../../runtime/corpora/synthetic/index.js";
import { signalsFingerprint, trainEmbedded, trainingExchanges } from "../../engine/embedded/train.js";
import { evaluateEmbedded } from "../../engine/embedded/evaluate.js";
import { crossValidate } from "../../engine/embedded/crossval.js";
import { createScorer } from "../../engine/embedded/scorer.js";
import { captureSignals, loadCaptureSignals } from "../../engine/embedded/signals.js";
import { loadShippedWeights, repoDatasetsDir } from "../../engine/embedded/shipped.js";
import { parseWeights, serialiseWeights, weightsId } from "../../engine/embedded/weights.js";
import { answersSummary, evalTable, weightsSummary } from "../../engine/summaries.js";
import type { OpenAIEngine } from "../../engine/openai/engine.js";
import type { TrainingSet } from "../../engine/embedded/train.js";
import type { WeightsFile } from "../../engine/base/schemas.js";

/**
 * `errata engine train | eval | ask | probe`: the judgment layer from the command line.
 * Library errors (bad files, bad config) become exit 2 with what was expected and found.
 */
async function guard<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof EngineInputError) throw badInput(e.message, e.expected, e.found);
    if (e instanceof EngineConfigError) throw new ErrataError("BAD_CONFIG", e.message, { expected: e.expected, found: e.found });
    if (e instanceof SyntheticSeedError) throw badInput(e.message, "--synthetic-seed N (N != 7) and --synthetic-sessions >= 1", "the values given");
    throw e;
  }
}

/** The bank's questions and the 14 v3 class questions (the embedded lane answers both). */
const versions = (): Map<string, number> => new Map([...bank, ...v3ClassQuestions].map((q) => [q.id, q.version]));

function loadSets(io: Io, labels: string[], exchanges: string[] | undefined): TrainingSet[] {
  if (exchanges && exchanges.length !== labels.length) throw badInput("--exchanges must pair with --labels", `${labels.length} exchanges files`, `${exchanges.length}`);
  return labels.map((l, i) => readSet(resolve(io.cwd, l), exchanges?.[i] !== undefined ? resolve(io.cwd, exchanges[i] as string) : undefined));
}

const wholeNumber = (name: string, v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw badInput(`${name} must be a whole number`, ">= 0", v);
  return n;
};

function defaultLabelFiles(): string[] {
  const dir = repoDatasetsDir();
  if (dir === null) return [];
  return readdirSync(dir)
    .sort()
    .map((d) => join(dir, d, "labels.jsonl"))
    .filter((p) => existsSync(p) && existsSync(join(dirname(p), "exchanges.jsonl")));
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** Why the weights' capture signals look stale (the classifier changed since training), or null. */
async function staleSignals(weights: WeightsFile, given: readonly TrainingSet[]): Promise<string | null> {
  if (!weights.features.captureSignals || !weights.signalsFingerprint) return null;
  // Synthetic training sets are regenerated from their seed (deterministic), so the check covers them.
  const sets = [...given];
  for (const t of weights.trainedOn) if (t.synthetic && !sets.some((s) => s.name === t.set)) sets.push(await syntheticTrainingSet(t.synthetic.seed, t.synthetic.sessions));
  const same = weights.trainedOn.every((t) => sets.some((s) => s.name === t.set && s.exchangesSha256 === t.exchangesSha256 && s.labelsSha256 === t.labelsSha256));
  if (!same) return null;
  const now = signalsFingerprint(trainingExchanges(sets.filter((s) => weights.trainedOn.some((t) => t.set === s.name)), !weights.split.holdoutExcluded), captureSignals);
  return now === weights.signalsFingerprint ? null : "the capture classifier's verdicts on the training data differ from when these weights were trained: retrain (see datasets/weights/NOTICE.md)";
}

export function register(program: Command, ctx: CommandContext): void {
  const engine = program
    .command("engine")
    .description("The judgment layer: train and evaluate the embedded lane, ask questions, probe a server")
    .addHelpText("after", "\nExample:\n  $ errata engine eval --cv\n  $ errata engine ask --exchanges datasets/spotter/exchanges.jsonl --question detect.unhappy");

  engine
    .command("train")
    .description("Train the embedded lane's per-question logistic models on labelled sets (deterministic: same data, same bytes)")
    .option("--labels <file>", "a labels.jsonl (its exchanges.jsonl beside it); repeatable (optional with --synthetic-seed)", collect)
    .option("--exchanges <file>", "the exchanges file for each --labels, when not beside it; repeatable", collect)
    .option("--out <file>", "where to write the weights (JSON)")
    .option("--synthetic-seed <n>", "also train on a synthetic set generated now with this seed (never 7: that is the bundled evaluation corpus); used for questions no real set labels over every turn")
    .option("--synthetic-sessions <n>", "sessions of the synthetic training set", "300")
    .option("--max-features <n>", "keep at most n non-zero weights per question (a larger model is refitted on its top features)")
    .option("--l2 <n>", "L2 strength on the coefficients, or 'cv' (per question, session-grouped 5-fold CV over 0.1, 0.3, 1, 3, 10)", "cv")
    .option("--include-holdout", "train on the holdout sessions too (then `engine eval` is no longer honest)")
    .option("--no-signals", "leave the capture classifier's signals out of the features")
    .option("--json", "print one JSON summary")
    .option("--dry-run", "train and report, write nothing")
    .addHelpText(
      "after",
      "\nExample:\n  $ errata engine train --labels datasets/ab-redial/labels.jsonl --labels datasets/ukp/labels.jsonl --synthetic-seed 101 --synthetic-sessions 300 --max-features 2000 --out datasets/weights/embedded.json",
    )
    .action(async (opts: { labels?: string[]; exchanges?: string[]; out?: string; l2: string; syntheticSeed?: string; syntheticSessions: string; maxFeatures?: string; includeHoldout?: boolean; signals: boolean; json?: boolean; dryRun?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const l2 = opts.l2 === "cv" ? "cv" : Number(opts.l2);
        if (l2 !== "cv" && (!(l2 > 0) || !Number.isFinite(l2))) throw badInput("--l2 must be a positive number or cv", "> 0 or cv", opts.l2);
        if (!opts.out && !opts.dryRun) throw badInput("--out is required unless --dry-run", "--out FILE", "nothing");
        const maxFeatures = opts.maxFeatures !== undefined ? wholeNumber("--max-features", opts.maxFeatures) : undefined;
        if (maxFeatures === 0) throw badInput("--max-features must be at least 1", ">= 1", "0");
        if (!opts.labels?.length && opts.syntheticSeed === undefined) throw badInput("nothing to train on", "--labels FILE (repeatable) and/or --synthetic-seed N", "neither");
        const sets = loadSets(io, opts.labels ?? [], opts.exchanges);
        // The generator's plan trains only through --synthetic-seed (seed recorded, 7 refused): the bundled seed-7 set is the evaluation corpus.
        const given = sets.find((s) => s.labels.some((l) => l.labeler === SYNTHETIC_LABELER));
        if (given) throw badInput(`--labels ${given.name}: the synthetic generator's plan labels are not training data here`, "real labelled sets in --labels; synthetic training data from --synthetic-seed N (another seed than the bundled evaluation corpus)", `labels by ${SYNTHETIC_LABELER}`);
        if (opts.syntheticSeed !== undefined) sets.push(await syntheticTrainingSet(wholeNumber("--synthetic-seed", opts.syntheticSeed), wholeNumber("--synthetic-sessions", opts.syntheticSessions)));
        const signals = opts.signals ? await loadCaptureSignals() : null;
        if (opts.signals && signals === null) warn(io, "errata engine train: the capture classifier is not available; training without its signals");
        let bar: ReturnType<typeof progress> | null = null;
        const weights = trainEmbedded(sets, {
          versions: versions(),
          l2,
          signals,
          includeHoldout: opts.includeHoldout === true,
          ...(maxFeatures !== undefined ? { maxFeatures } : {}),
          onProgress: (done, total) => {
            bar ??= progress(io, "engine train", total);
            if (done > 0) bar.tick();
          },
        });
        (bar as ReturnType<typeof progress> | null)?.done();
        const text = serialiseWeights(weights);
        const out = opts.out ? resolve(io.cwd, opts.out) : null;
        if (out && !opts.dryRun) {
          mkdirSync(dirname(out), { recursive: true });
          writeFileSync(out, text);
        }
        const summary = { model: weightsId(weights), out, written: Boolean(out && !opts.dryRun), bytes: Buffer.byteLength(text), captureSignals: weights.features.captureSignals, trainedOn: weights.trainedOn, ...weightsSummary(weights) };
        if (opts.json) return printJson(io, summary);
        println(io, `${summary.written ? "wrote" : "would write"} ${summary.model} (${summary.bytes} bytes)${out ? ` to ${out}` : ""}`);
        for (const [k, q] of Object.entries(summary.questions)) println(io, `  ${k}: ${q.n} items, ${q.positives} positive, ${q.nonZero} weights, l2 ${q.l2}, cut ${q.cut}${q.converged ? "" : " (NOT converged)"}; trained on ${q.trainedBy}`);
        for (const [k, why] of Object.entries(summary.skipped)) println(io, `  ${k}: skipped: ${why}`);
      }),
    );

  engine
    .command("eval")
    .description("AUC, Brier, log loss and kappa of the embedded weights on the session-disjoint holdout, per set and question, beside the raters' Fleiss kappa")
    .option("--weights <file>", "weights file (default: the shipped datasets/weights/embedded.json)")
    .option("--labels <file>", "a labels.jsonl; repeatable (default: every bundled datasets/*/labels.jsonl)", collect)
    .option("--exchanges <file>", "the exchanges file for each --labels, when not beside it; repeatable", collect)
    .option("--cv", "also the recipe on every item of each set: 5 session-grouped folds (at each question's shipped L2)")
    .option("--json", "print one JSON value: {model, rows}")
    .addHelpText("after", "\nExample:\n  $ errata engine eval --labels datasets/ab-redial/labels.jsonl --cv")
    .action(async (opts: { weights?: string; labels?: string[]; exchanges?: string[]; cv?: boolean; json?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const weights = opts.weights ? parseWeights(readFileSync(resolve(io.cwd, opts.weights), "utf8")) : loadShippedWeights();
        if (weights === null) throw new ErrataError("NOT_FOUND", "no weights to evaluate", { expected: "--weights FILE or shipped datasets/weights/embedded.json", found: "neither" });
        const labelFiles = opts.labels ?? defaultLabelFiles();
        if (labelFiles.length === 0) throw badInput("no labelled sets to evaluate on", "--labels FILE", "none given or bundled");
        const sets = loadSets(io, labelFiles, opts.exchanges);
        const scorer = createScorer(weights, weights.features.captureSignals ? await loadCaptureSignals() : null);
        const rows = evaluateEmbedded(sets, weights, scorer, { versions: versions() });
        const stale = await staleSignals(weights, sets);
        if (stale) warn(io, `errata engine eval: ${stale}`);
        if (opts.cv) {
          const signals = weights.features.captureSignals ? await loadCaptureSignals() : null;
          const l2Of = (key: string): number => weights.questions[key]?.l2 ?? (typeof weights.l2 === "number" ? weights.l2 : 1);
          for (const set of sets) rows.push(...crossValidate(set, { versions: versions(), l2: l2Of, features: weights.features, signals }));
        }
        if (opts.json) return printJson(io, { model: scorer.model, staleSignals: stale, split: weights.split, labellersKappa: "Fleiss' kappa, binary, all raters of each holdout item", intervals: "session-block bootstrap, 2,000 resamples, seed 1, 95% percentile", captureKappa: "unhappyWithReply(classify(prompt, {previousReply})) vs the majority (detect.* only)", kappaCut: "the cut stored with the weights (max kappa on the training side)", rows });
        println(io, `${scorer.model}: session-disjoint holdout of the sets it was trained on (${weights.split.method}); all items of the others ("all items"); SYNTHETIC sets are generated, not people`);
        for (const line of evalTable(rows)) println(io, line);
      }),
    );

  engine
    .command("ask")
    .description("Ask the bank's questions (or a question file) of every exchange in a file, through a lane")
    .requiredOption("--exchanges <file>", "exchanges JSONL (exchange/1 rows)")
    .option("--questions <file>", "questions (JSONL or a JSON array); default: the bank")
    .option("--question <id>", "only this question id; repeatable", collect)
    .option("--lane <name>", "lane name from the config (default: the config's lane, else embedded); 'replay' with --answers")
    .option("--config <file>", "engine config (default: <ledger>/errata-engine.json)")
    .option("--answers <file>", "the replay lane's stored answers (answer/1 JSONL)")
    .option("--caller <name>", "the named caller whose budget pays", "errata-cli")
    .option("--out <file>", "append the answers (answer/1 JSONL) to this file; '-' writes them to stdout (the summary then goes to stderr)")
    .option("--no-cache", "ask again even when the cache holds an answer")
    .option("--batch", "send through the Batch API (OpenAI lane), resumable")
    .option("--limit <n>", "only the first n exchanges")
    .option("--json", "print one JSON summary")
    .option("--dry-run", "count what would be asked; ask and write nothing")
    .addHelpText("after", "\nExample:\n  $ errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --out answers.jsonl\n  $ ERRATA_OPENAI_BASE_URL=http://127.0.0.1:8000/v1 ERRATA_OPENAI_MODEL=qwen2.5 errata engine ask --lane openai --exchanges x.jsonl --caller errata-triage")
    .action(async (opts: { exchanges: string; questions?: string; question?: string[]; lane?: string; config?: string; answers?: string; caller: string; out?: string; cache: boolean; batch?: boolean; limit?: string; json?: boolean; dryRun?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const paths = resolvePaths(io.env, io.cwd);
        if (opts.out === "-" && opts.json) throw badInput("--out - and --json both want stdout", "one of them", "both");
        let exchanges = readExchanges(resolve(io.cwd, opts.exchanges));
        if (opts.limit !== undefined) {
          const n = Number(opts.limit);
          if (!Number.isInteger(n) || n < 0) throw badInput("--limit must be a whole number", ">= 0", opts.limit);
          exchanges = exchanges.slice(0, n);
        }
        let questions: Question[] = opts.questions ? readQuestions(resolve(io.cwd, opts.questions)) : [...bank];
        if (opts.question?.length) {
          const wanted = new Set(opts.question);
          const unknown = [...wanted].filter((id) => !questions.some((q) => q.id === id));
          if (unknown.length) throw badInput("unknown question id", "an id in the bank or the questions file", unknown.join(", "));
          questions = questions.filter((q) => wanted.has(q.id));
        }
        const pairs = exchanges.flatMap((exchange) => questions.map((question) => ({ exchange, question })));
        const made = engineFromConfig({
          paths,
          env: io.env,
          ...(opts.config ? { configPath: resolve(io.cwd, opts.config) } : {}),
          ...(opts.lane ? { lane: opts.lane } : {}),
          ...(opts.answers ? { answersPath: resolve(io.cwd, opts.answers) } : {}),
          cache: !opts.dryRun,
          now: io.now,
        });
        const eng = made.engine;
        if (opts.batch && eng.lane !== "openai") throw badInput("--batch needs an OpenAI lane", "--lane <an openai lane>", `${made.laneName} (${eng.lane})`);
        if (opts.dryRun) {
          const summary = { dryRun: true, lane: made.laneName, kind: eng.lane, model: eng.model, exchanges: exchanges.length, questions: questions.length, pairs: pairs.length };
          if (opts.json) return printJson(io, summary);
          return println(io, `would ask ${pairs.length} pairs (${exchanges.length} exchanges x ${questions.length} questions) on lane ${made.laneName} (${eng.lane}, ${eng.model})`);
        }
        const bar = pairs.length >= 200 ? progress(io, "engine ask", pairs.length) : null;
        let last = 0;
        const onProgress = (done: number): void => {
          if (bar && done > last) bar.tick(done - last);
          last = done;
        };
        let answers: Answer[];
        if (opts.batch) {
          const dir = join(paths.stateDir, "engine-batch");
          answers = await (eng as OpenAIEngine).askBatch(pairs, { caller: opts.caller, noCache: !opts.cache, onProgress, statePath: join(dir, `${made.laneName}.state.json`), requestsPath: join(dir, `${made.laneName}.requests.jsonl`) });
        } else {
          answers = await eng.ask(pairs, { caller: opts.caller, noCache: !opts.cache, onProgress });
        }
        bar?.done();
        const toStdout = opts.out === "-";
        const out = opts.out && !toStdout ? resolve(io.cwd, opts.out) : null;
        const lines = answers.map((a) => `${JSON.stringify(a)}\n`).join("");
        if (out) {
          mkdirSync(dirname(out), { recursive: true });
          appendFileSync(out, lines);
        }
        const summary = { lane: made.laneName, kind: eng.lane, model: eng.model, exchanges: exchanges.length, questions: questions.length, ...answersSummary(answers), stats: { calls: eng.stats.calls, cacheHits: eng.stats.cacheHits, refused: eng.stats.refused }, cache: made.cachePath, out };
        if (opts.json) return printJson(io, summary);
        if (toStdout) {
          io.stdout.write(lines);
          warn(io, `${summary.scored} scored, ${summary.unscored} unscored of ${summary.total} (lane ${made.laneName}: ${eng.lane} ${eng.model})`);
          return;
        }
        println(io, `${summary.scored} scored, ${summary.unscored} unscored of ${summary.total} (lane ${made.laneName}: ${eng.lane} ${eng.model}; ${eng.stats.calls} calls, ${eng.stats.cacheHits} from cache, ${eng.stats.refused} refused)`);
        for (const [k, q] of Object.entries(summary.byQuestion)) println(io, `  ${k}: ${q.scored} scored (mean P(yes) ${q.meanPYes ?? "—"}), ${q.unscored} unscored`);
        for (const [r, n] of Object.entries(summary.unscoredReasons)) println(io, `  unscored x${n}: ${r}`);
        if (out) println(io, `answers appended to ${out}`);
      }),
    );

  engine
    .command("probe")
    .description("Ask a lane's server which answer modes it supports (top_logprobs, strict structured replies); exit 1 when neither")
    .option("--lane <name>", "lane name from the config", "openai")
    .option("--config <file>", "engine config (default: <ledger>/errata-engine.json)")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ ERRATA_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 ERRATA_OPENAI_MODEL=llama3.1 errata engine probe")
    .action(async (opts: { lane: string; config?: string; json?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const made = engineFromConfig({ paths: resolvePaths(io.env, io.cwd), env: io.env, lane: opts.lane, cache: false, ...(opts.config ? { configPath: resolve(io.cwd, opts.config) } : {}) });
        if (made.engine.lane !== "openai") throw badInput("probe needs an OpenAI lane", "--lane <an openai lane>", `${made.laneName} (${made.engine.lane})`);
        const lane = (made.engine as OpenAIEngine).openaiLane;
        const r = await lane.probeBoth();
        if (r.chosen === null) ctx.exitCode = 1;
        const result = { lane: made.laneName, baseURL: lane.cfg.baseURL, model: lane.cfg.model, ...r };
        if (opts.json) return printJson(io, result);
        println(io, `${lane.cfg.baseURL} (${lane.cfg.model}): logprobs ${r.logprobs ? "yes" : "no"}, structured ${r.structured ? "yes" : "no"} -> ${r.chosen ?? "neither: answers would be unscored"}`);
        for (const d of r.detail) println(io, `  ${d}`);
      }),
    );
}
