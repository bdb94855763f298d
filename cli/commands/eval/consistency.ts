import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { judgeConsistency, type RepeatedAsk } from "../../../calibration/index.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { bank } from "../../../questions/index.js";
import { engineFromConfig, readExchanges } from "../../../runtime/engine/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { collect, guard } from "../../shared/engine.js";
import { examples } from "../../shared/help.js";
import { printJson, println, progress, snakeKeys } from "../../shared/io.js";

/**
 * `errata eval consistency`: ask a lane the same (exchange, question) pairs twice, the second
 * time past the engine's cache, and report per question how often the verdict (P(yes) >= the
 * cut) flips, with a session-cluster Wilson interval (`calibration/consistency.ts`). The
 * lane's temperature and seed are recorded (an OpenAI lane's config; the embedded and replay
 * lanes are deterministic and have neither).
 *
 * Example: `errata eval consistency --exchanges ex.jsonl --question detect.unhappy --lane openai`
 * -> "detect.unhappy  40 items  6 flips  rate 0.1500 [0.0699, 0.2928] ...".
 */
interface Flags {
  exchanges: string;
  question?: string[];
  lane?: string;
  config?: string;
  answers?: string;
  caller: string;
  limit?: string;
  cut: string;
  level: string;
  out?: string;
  json?: boolean;
  dryRun?: boolean;
}

export const CONSISTENCY_SCHEMA = "judge-consistency/1";

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("consistency")
    .description("Ask a lane the same items twice (the second time past the cache) and report each question's verdict flip rate with an interval")
    .requiredOption("--exchanges <file>", "exchange/1 JSONL: the items to ask")
    .option("--question <id>", "a question of the bank; repeatable (default: every question of the bank)", collect)
    .option("--lane <name>", "lane name from the engine config (default: the config's lane, else embedded)")
    .option("--config <file>", "engine config (default: <ledger>/errata-engine.json)")
    .option("--answers <file>", "the replay lane's stored answers (answer/1 JSONL)")
    .option("--caller <name>", "the named caller whose budget pays", "errata-consistency")
    .option("--limit <n>", "only the first n exchanges")
    .option("--cut <p>", "a verdict is yes when P(yes) >= this", "0.5")
    .option("--level <p>", "the intervals' confidence level", "0.95")
    .option("--out <file>", `write the report as one JSON value (${CONSISTENCY_SCHEMA}), e.g. for eval score --consistency`)
    .option("--json", "print one JSON value: the lane, its sampling settings, the passes and the flip rates")
    .option("--dry-run", "say what would be asked (twice); ask and write nothing")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy ab-redial && errata eval consistency --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --limit 60",
        "errata datasets copy ab-redial && errata eval consistency --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --question detect.correction --limit 30 --cut 0.4 --level 0.9 --out consistency.json --json",
      ]),
    )
    .action((flags: Flags) => guard(() => runConsistency(ctx, flags)));
}

function unit(name: string, v: string): number {
  const n = Number(v);
  if (!(Number.isFinite(n) && n > 0 && n < 1)) throw badInput(`bad ${name}`, "a number strictly between 0 and 1", describeFound(v));
  return n;
}

async function runConsistency(ctx: CommandContext, flags: Flags): Promise<void> {
  const io = ctx.io;
  const cut = unit("--cut", flags.cut);
  const level = unit("--level", flags.level);
  let limit: number | null = null;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1) throw badInput("bad --limit", "a whole number >= 1", describeFound(flags.limit));
  }
  let exchanges = readExchanges(resolve(io.cwd, flags.exchanges));
  if (limit !== null) exchanges = exchanges.slice(0, limit);
  if (exchanges.length === 0) throw badInput("no exchanges to ask", "at least one exchange/1 row", `none in ${flags.exchanges}`);
  let questions = [...bank];
  if (flags.question?.length) {
    const unknown = flags.question.filter((id) => !bank.some((q) => q.id === id));
    if (unknown.length) throw badInput("unknown question id", "a question id of the bank", unknown.join(", "));
    questions = questions.filter((q) => flags.question?.includes(q.id));
  }
  const paths = resolvePaths(io.env, io.cwd);
  const made = engineFromConfig({
    paths,
    env: io.env,
    ...(flags.config ? { configPath: resolve(io.cwd, flags.config) } : {}),
    ...(flags.lane ? { lane: flags.lane } : {}),
    ...(flags.answers ? { answersPath: resolve(io.cwd, flags.answers) } : {}),
    now: io.now,
  });
  const eng = made.engine;
  const laneCfg = made.settings.lanes[made.laneName];
  const sampling = laneCfg?.kind === "openai" ? { temperature: laneCfg.temperature, seed: laneCfg.seed ?? null } : { temperature: null, seed: null };
  const pairs = exchanges.flatMap((exchange) => questions.map((question) => ({ exchange, question })));
  if (flags.dryRun) {
    const plan = { dryRun: true, lane: made.laneName, kind: eng.lane, model: eng.model, sampling, exchanges: exchanges.length, questions: questions.length, asks: 2 * pairs.length };
    if (flags.json) return printJson(io, plan);
    return println(io, `would ask ${pairs.length} pairs twice (${exchanges.length} exchanges x ${questions.length} questions) on lane ${made.laneName} (${eng.lane}, ${eng.model}); nothing written`);
  }
  const bar = pairs.length >= 200 ? progress(io, "eval consistency", 2 * pairs.length) : null;
  const passes: { pass: number; calls: number; cacheHits: number; cacheBypassed: boolean }[] = [];
  const answersOf = [];
  for (const pass of [1, 2]) {
    const before = { calls: eng.stats.calls, cacheHits: eng.stats.cacheHits };
    let last = 0;
    const onProgress = (done: number): void => {
      if (bar && done > last) bar.tick(done - last);
      last = done;
    };
    answersOf.push(await eng.ask(pairs, { caller: flags.caller, noCache: pass === 2, onProgress }));
    passes.push({ pass, calls: eng.stats.calls - before.calls, cacheHits: eng.stats.cacheHits - before.cacheHits, cacheBypassed: pass === 2 });
  }
  bar?.done();
  const [first = [], second = []] = answersOf;
  const asks: RepeatedAsk[] = pairs.map((p, i) => {
    const a = first[i];
    const b = second[i];
    return {
      question: p.question.id,
      session: p.exchange.session_id,
      first: a?.status === "scored" && a.p_yes !== null ? a.p_yes : null,
      second: b?.status === "scored" && b.p_yes !== null ? b.p_yes : null,
    };
  });
  const rows = judgeConsistency(asks, cut, level);
  const report = {
    schema: CONSISTENCY_SCHEMA,
    lane: made.laneName,
    kind: eng.lane,
    model: eng.model,
    sampling,
    cut,
    level,
    exchanges: exchanges.length,
    passes,
    interval: "session-cluster Wilson (an item a chance, a flip an incident, its session the cluster)",
    questions: rows,
  };
  if (flags.out) {
    const out = resolve(io.cwd, flags.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(snakeKeys(report))}\n`);
  }
  if (flags.json) return printJson(io, report);
  const temp = sampling.temperature === null ? `deterministic ${eng.lane} lane` : `temperature ${sampling.temperature}, seed ${sampling.seed ?? "none"}`;
  println(io, `lane ${made.laneName} (${eng.lane}, ${eng.model}; ${temp}): ${exchanges.length} exchanges x ${questions.length} questions asked twice, the second time past the cache`);
  for (const p of passes) println(io, `  pass ${p.pass}: ${p.calls} calls, ${p.cacheHits} from cache`);
  println(io, `verdict: P(yes) >= ${cut}; ${Math.round(level * 100)}% ${report.interval}`);
  for (const r of rows) {
    const rate = r.rate === null ? "rate —" : `rate ${r.rate.toFixed(4)} [${r.low.toFixed(4)}, ${r.high.toFixed(4)}]`;
    const delta = r.meanAbsDelta === null ? "" : `  mean |dP| ${r.meanAbsDelta.toFixed(4)}`;
    println(io, `  ${r.question.padEnd(22)} ${String(r.items).padStart(5)} items ${String(r.flips).padStart(4)} flips  ${rate}  ${r.sessions} sessions, design effect ${r.designEffect.toFixed(2)}${delta}${r.unscored ? `  (${r.unscored} unscored left out)` : ""}`);
  }
  if (flags.out) println(io, `report written to ${resolve(io.cwd, flags.out)}`);
}
