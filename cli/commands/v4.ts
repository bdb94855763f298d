/**
 * `errata v4 detect|diagnose|v3|report|taxonomy`: the v4 pass in shadow. `detect` asks the
 * detect and blame questions of every exchange, `diagnose` the mode and cost questions of
 * composed failures, `v3` the 14 single-choice class questions of the same failures (the
 * comparison scoring needs; `--regex-caught` adds what the capture classifier caught); all through the engine (default: the embedded lane, offline),
 * caller `errata-triage`, answers stored raw in `<v4Dir>/answers.jsonl`. `report`
 * recomposes from stored answers under `--cuts` without asking again. `taxonomy` writes the
 * taxonomy page.
 *
 * Example: `errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl`
 * -> `v4 detect (embedded/…): 597 exchanges, asked 4776, already answered 0, scored 4776, unscored 0`
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { type Cuts, parseCuts } from "../../composers/index.js";
import { EngineConfigError, engineFromConfig } from "../../engine/config.js";
import type { Engine } from "../../engine/base/types.js";
import { bank, bankHash, type ModeId, renderTaxonomyPage, v3ClassQuestions } from "../../questions/index.js";
import { resolvePaths } from "../../runtime/paths.js";
import {
  buildReport,
  composeAll,
  dominantJudge,
  plantedFromLabels,
  readAnswers,
  readExchanges,
  readLabels,
  renderReport,
  runV4Stage,
  v4Files,
  type V4Stage,
} from "../../runtime/jobs/v4/index.js";
import type { CommandContext } from "../command.js";
import { badInput, describeFound, ErrataError } from "../../core/errors.js";
import { printJson, println, progress } from "../io.js";

type EngineFactory = (ctx: CommandContext, lane: string | undefined) => Promise<Engine>;

/**
 * The default engine: the lane the engine config names (`--lane` overrides), which is the
 * embedded lane with the shipped weights (offline) unless configured otherwise.
 */
const defaultEngineFactory: EngineFactory = async (ctx, lane) => {
  try {
    return engineFromConfig({
      paths: resolvePaths(ctx.io.env, ctx.io.cwd),
      env: ctx.io.env,
      now: ctx.io.now,
      ...(lane !== undefined ? { lane } : {}),
    }).engine;
  } catch (err) {
    if (err instanceof EngineConfigError) throw new ErrataError("BAD_CONFIG", err.message, { expected: err.expected, found: err.found });
    throw err;
  }
};
let engineFactory: EngineFactory = defaultEngineFactory;

/** For tests: run the v4 commands against another engine (null restores the default). */
export function setV4EngineFactory(factory: EngineFactory | null): void {
  engineFactory = factory ?? defaultEngineFactory;
}

interface PassFlags {
  exchanges?: string[];
  cuts?: string;
  limit?: string;
  dryRun?: boolean;
  json?: boolean;
  retryUnscored?: boolean;
  lane?: string;
  regexCaught?: boolean;
}

function parseLimit(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0) throw badInput("bad --limit", "a whole number >= 0", describeFound(s));
  return n;
}

/** Reads a cuts file (`{question id: cut}` or `{cuts: {...}}`); every id must be a bank or v3 question. */
export function readCutsFile(file: string | undefined, cwd: string): Cuts {
  if (file === undefined) return {};
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw badInput("no cuts file", "a JSON file of question id -> cut", describeFound(file));
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw badInput("cuts file is not JSON", "a JSON object", describeFound(file));
  }
  const parsed = parseCuts(value, [...bank, ...v3ClassQuestions].map((q) => q.id));
  if (!parsed.ok) throw badInput(`bad cuts file ${file}`, parsed.expected, parsed.found);
  return parsed.cuts;
}

function exchangeFiles(flags: PassFlags, ctx: CommandContext, v4Dir: string): string[] {
  return flags.exchanges && flags.exchanges.length > 0 ? flags.exchanges.map((f) => resolve(ctx.io.cwd, f)) : [v4Files(v4Dir).exchanges];
}

function addPassCommand(v4: Command, ctx: CommandContext, stage: V4Stage, description: string, example: string): void {
  const cmd = v4.command(stage);
  if (stage === "v3") cmd.option("--regex-caught", "also ask of the exchanges the capture classifier caught (what the seed's v3 sees; `errata eval predictions` reads them)");
  cmd
    .description(description)
    .option("--exchanges <files...>", "exchange files to read (default <v4Dir>/exchanges.jsonl)")
    .option("--cuts <file>", "cuts file used to compose which exchanges are failures (diagnose, v3)")
    .option("--limit <n>", "ask about at most N exchanges that still need answers")
    .option("--lane <name>", "engine lane from the engine config (default: the config's lane, else embedded)")
    .option("--retry-unscored", "ask again where this judge's stored answer is unscored (default: a re-run asks nothing new)")
    .option("--dry-run", "plan only: ask nothing, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", `\nExample:\n  $ ${example}`)
    .action(async (flags: PassFlags) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      const limit = parseLimit(flags.limit);
      const cuts = readCutsFile(flags.cuts, ctx.io.cwd);
      // Check the input before building an engine (bad input writes nothing and costs nothing).
      for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
      const engine = await engineFactory(ctx, flags.lane);
      let bar: ReturnType<typeof progress> | null = null;
      let shown = 0;
      const result = await runV4Stage(stage, {
        engine,
        v4Dir: paths.v4Dir,
        exchangeFiles: files,
        cuts,
        limit,
        dryRun: flags.dryRun === true,
        retryUnscored: flags.retryUnscored === true,
        regexCaught: flags.regexCaught === true,
        home: ctx.io.env["HOME"],
        onProgress: (done, total) => {
          bar ??= progress(ctx.io, `v4 ${stage}`, total);
          bar.tick(done - shown);
          shown = done;
        },
      });
      if (shown > 0) (bar as ReturnType<typeof progress> | null)?.done();
      if (flags.json) {
        printJson(ctx.io, { ...result, v4_dir: paths.v4Dir, bank_hash: bankHash });
        return;
      }
      const head = `v4 ${stage} (${result.judge.lane}/${result.judge.model})${result.dryRun ? " [dry run]" : ""}`;
      println(
        ctx.io,
        `${head}: ${result.eligible} eligible of ${result.exchangesRead} exchanges; ${result.dryRun ? `would ask ${result.planned}` : `asked ${result.asked}`} ` +
          `(${result.exchanges} exchanges), already answered ${result.alreadyAnswered}, scored ${result.scored}, unscored ${result.unscored}`,
      );
      if (result.skippedLines > 0) println(ctx.io, `skipped ${result.skippedLines} unreadable lines`);
    });
}

export function register(program: Command, ctx: CommandContext): void {
  const v4 =
    program.commands.find((c) => c.name() === "v4") ??
    program.command("v4").description("The v4 pass (shadow): many small yes/no questions about every exchange");

  addPassCommand(v4, ctx, "detect", "Ask detect and blame questions of every exchange", "errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl --limit 100");
  addPassCommand(v4, ctx, "diagnose", "Ask mode and cost questions of composed failures", "errata v4 diagnose --exchanges datasets/ab-redial/exchanges.jsonl");
  addPassCommand(v4, ctx, "v3", "Ask the 14 v3 class questions of composed failures (single-choice comparison: argmax)", "errata v4 v3 --exchanges datasets/ab-redial/exchanges.jsonl");

  v4.command("report")
    .description("Compose stored answers (no judge asked): failures reported and unreported, top classes, per-session rates, synthetic planted failures found and missed")
    .option("--exchanges <files...>", "exchange files to read (default <v4Dir>/exchanges.jsonl)")
    .option("--labels <files...>", "label files naming planted failures of synthetic exchanges (default: labels.jsonl beside each exchanges file, when present)")
    .option("--cuts <file>", "cuts file (question id -> cut); default 0.5 for every question")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ errata v4 report --exchanges datasets/*/exchanges.jsonl --cuts cuts.json")
    .action(async (flags: PassFlags & { labels?: string[] }) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      const cuts = readCutsFile(flags.cuts, ctx.io.cwd);
      const ex = readExchanges(files);
      const labelFiles = flags.labels?.map((f) => resolve(ctx.io.cwd, f)) ?? files.map((f) => join(dirname(f), "labels.jsonl")).filter((f) => existsSync(f));
      const answers = readAnswers(v4Files(paths.v4Dir).answers);
      const judge = dominantJudge(answers.rows);
      const composed = judge ? composeAll(ex.rows, answers.rows, judge, cuts) : composeAll(ex.rows, [], { lane: "-", model: "-" }, cuts);
      let planted: Map<string, ModeId[]> | undefined;
      const syntheticIds = new Set(ex.rows.filter((e) => e.synthetic).map((e) => e.id));
      if (syntheticIds.size > 0) {
        planted = new Map();
        for (const f of labelFiles) for (const [k, v] of plantedFromLabels(readLabels(f).rows, syntheticIds)) planted.set(k, v);
      }
      const report = buildReport(composed, { judge, bankHash, cuts, answers: answers.rows, ...(planted ? { planted } : {}) });
      if (flags.json) printJson(ctx.io, report);
      else for (const line of renderReport(report)) println(ctx.io, line);
    });

  v4.command("taxonomy")
    .description("Write the failure taxonomy page (classes and modes: definition, example, counterexample)")
    .option("--out <file>", "write to this file instead of stdout")
    .option("--dry-run", "print what would be written, write nothing")
    .option("--json", "print one JSON value: {out, bytes}")
    .addHelpText("after", "\nExample:\n  $ errata v4 taxonomy --out docs/taxonomy.md")
    .action((flags: { out?: string; dryRun?: boolean; json?: boolean }) => {
      const page = renderTaxonomyPage();
      writeDoc(ctx, page, flags);
    });
}

/** Writes a generated Markdown page to `--out` (or stdout), honouring --dry-run and --json. */
export function writeDoc(ctx: CommandContext, page: string, flags: { out?: string; dryRun?: boolean; json?: boolean }): void {
  const out = flags.out === undefined ? null : resolve(ctx.io.cwd, flags.out);
  if (out !== null && !flags.dryRun) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, page);
  }
  if (flags.json) printJson(ctx.io, { out, bytes: Buffer.byteLength(page), written: out !== null && !flags.dryRun });
  else if (out === null || flags.dryRun) ctx.io.stdout.write(page);
  else println(ctx.io, `wrote ${out} (${Buffer.byteLength(page)} bytes)`);
}
