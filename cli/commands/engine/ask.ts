import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println, progress, warn } from "../../shared/io.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { bank } from "../../../questions/index.js";
import type { Question } from "../../../schemas/question.js";
import type { Answer } from "../../../schemas/answer.js";
import { engineFromConfig } from "../../../runtime/engine/index.js";
import { readExchanges, readQuestions } from "../../../runtime/engine/index.js";
import { answersSummary } from "../../../runtime/engine/index.js";
import type { OpenAIEngine } from "../../../runtime/engine/index.js";
import { collect, guard } from "../../shared/engine.js";
import { examples } from "../../shared/help.js";

/** The worst case of a run on an OpenAI lane (runtime/engine/openai/config.ts `runBoundMs`), stated in the help. */
export const WORST_CASE_HELP = [
  "Worst case on an OpenAI lane: each call, its retries and the waits between them included,",
  "ends within the call's budget B (callBudgetMs, ERRATA_OPENAI_CALL_BUDGET_MS; default 2 x",
  "timeoutMs: 2 s at ERRATA_OPENAI_TIMEOUT_MS=1000). The calls of N pairs at concurrency C end",
  "within (2 + ceil(N / C)) x B (the 2: the mode probe, in mode auto only); --dry-run prints it.",
].join("\n");

/**
 * `errata engine ask`: the bank's questions (or a question file) of every exchange in a file,
 * through a lane (default the config's, else embedded); answers appended to `--out` as
 * answer/1 JSONL, a summary printed.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
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
    .addHelpText(
      "after",
      examples(
        [
          "errata datasets copy ab-redial && errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --out answers.jsonl",
          [
            "errata datasets copy spotter &&",
            "ERRATA_OPENAI_BASE_URL=http://127.0.0.1:8000/v1 ERRATA_OPENAI_MODEL=qwen2.5 errata engine ask --lane openai --exchanges datasets/spotter/exchanges.jsonl --caller errata-triage",
          ],
        ],
        { after: WORST_CASE_HELP },
      ),
    )
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
          // Only a remote lane has a worst case to state; the embedded and replay lanes never wait on a server.
          const worstCaseMs = eng.lane === "openai" ? (eng as OpenAIEngine).worstCaseMs(pairs.length) : null;
          const summary = { dryRun: true, lane: made.laneName, kind: eng.lane, model: eng.model, exchanges: exchanges.length, questions: questions.length, pairs: pairs.length, worstCaseMs };
          if (opts.json) return printJson(io, summary);
          const bound = worstCaseMs === null ? "" : `; worst case ${(worstCaseMs / 1000).toFixed(1)} s`;
          return println(io, `would ask ${pairs.length} pairs (${exchanges.length} exchanges x ${questions.length} questions) on lane ${made.laneName} (${eng.lane}, ${eng.model})${bound}`);
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
}
