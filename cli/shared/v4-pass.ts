/**
 * What `errata v4 detect|diagnose|v3` share: the engine they ask (the engine config's lane,
 * replaceable in tests), and the one command shape of the three passes, which differ only in
 * the stage they run. Answers are stored raw in `<v4Dir>/answers.jsonl`.
 *
 * Example: `errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl`
 * -> `v4 detect (embedded/…): 597 exchanges, asked 4776, already answered 0, scored 4776, unscored 0`
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { EngineConfigError, engineFromConfig } from "../../runtime/engine/index.js";
import type { Engine } from "../../runtime/engine/index.js";
import { bankHash } from "../../questions/index.js";
import { resolvePaths } from "../../runtime/paths.js";
import { runV4Stage, type V4Stage } from "../../runtime/jobs/index.js";
import { v4Files } from "../../runtime/judgments/index.js";
import type { CommandContext } from "./command.js";
import { badInput, describeFound, ErrataError } from "../../core/errors.js";
import { count, didNothing, printJson, println, progress, warn } from "./io.js";
import { cutsRequest } from "./cuts-file.js";
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";

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

/** The engine the v4 and rules commands ask (the config's lane, `--lane` overriding). */
export function engineFor(ctx: CommandContext, lane: string | undefined): Promise<Engine> {
  return engineFactory(ctx, lane);
}

/** For tests: run the v4 commands against another engine (null restores the default). */
export function setV4EngineFactory(factory: EngineFactory | null): void {
  engineFactory = factory ?? defaultEngineFactory;
}

export interface PassFlags {
  exchanges?: string[];
  cuts?: string;
  limit?: string;
  dryRun?: boolean;
  json?: boolean;
  retryUnscored?: boolean;
  lane?: string;
  regexCaught?: boolean;
  wait?: string;
}

function parseLimit(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0) throw badInput("bad --limit", "a whole number >= 0", describeFound(s));
  return n;
}

export function exchangeFiles(flags: PassFlags, ctx: CommandContext, v4Dir: string): string[] {
  return flags.exchanges && flags.exchanges.length > 0 ? flags.exchanges.map((f) => resolve(ctx.io.cwd, f)) : [v4Files(v4Dir).exchanges];
}

/** Adds one pass (`detect`, `diagnose` or `v3`) to the v4 group. */
export function addPassCommand(v4: Command, ctx: CommandContext, stage: V4Stage, description: string, helpAfter: string): void {
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
    .option("--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)")
    .addHelpText("after", helpAfter)
    .action(async (flags: PassFlags) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      const files = exchangeFiles(flags, ctx, paths.v4Dir);
      const limit = parseLimit(flags.limit);
      const waitMs = waitMsFromFlag(flags.wait);
      // The one chooser decides for the engine's judge; the origin is printed.
      const cuts = cutsRequest(flags.cuts, ctx.io);
      // Check the input before building an engine (bad input writes nothing and costs nothing).
      for (const f of files) if (!existsSync(f)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(f));
      const engine = await engineFactory(ctx, flags.lane);
      let bar: ReturnType<typeof progress> | null = null;
      let shown = 0;
      const pass = (): ReturnType<typeof runV4Stage> => runV4Stage(stage, {
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
      const result = flags.dryRun === true ? await pass() : await withRunLock(paths.stateDir, { job: `errata v4 ${stage}`, waitMs }, pass);
      if (shown > 0) (bar as ReturnType<typeof progress> | null)?.done();
      // Warnings go to stderr; stdout holds the result alone.
      if (result.skippedLines > 0) warn(ctx.io, `errata v4 ${stage}: skipped ${count(result.skippedLines, "unreadable line")}`);
      const nothing = (): void => {
        if (result.exchangesRead === 0) didNothing(ctx, `no exchange could be read from ${files.join(", ")}`, "give an exchanges.jsonl of exchange/1 rows written by `errata exchanges` or `errata import`");
        else if (!result.dryRun && result.asked > 0 && result.scored === 0) didNothing(ctx, `every one of the ${count(result.asked, "answer")} is unscored on the ${result.judge.lane} lane`, "see the reasons with `errata v4 report`, or ask another lane with --lane");
      };
      if (flags.json) {
        printJson(ctx.io, { ...result, v4_dir: paths.v4Dir, bank_hash: bankHash });
        nothing();
        return;
      }
      const head = `v4 ${stage} (${result.judge.lane}/${result.judge.model})${result.dryRun ? " [dry run]" : ""}`;
      println(
        ctx.io,
        `${head}: ${result.eligible} eligible of ${result.exchangesRead} exchanges; ${result.dryRun ? `would ask ${result.planned}` : `asked ${result.asked}`} ` +
          `(${result.exchanges} exchanges), already answered ${result.alreadyAnswered}, scored ${result.scored}, unscored ${result.unscored}`,
      );
      println(ctx.io, `cuts: ${result.cutsOrigin}`);
      nothing();
    });
}
