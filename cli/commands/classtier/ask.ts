import { appendFileSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { askClassTier, classTierPromptHash, classTierQuestions } from "../../../classtier/index.js";
import { ExchangeSchema } from "../../../schemas/exchange.js";
import type { CommandContext } from "../../shared/command.js";
import { didNothing, printJson, println, progress } from "../../shared/io.js";
import { classTierEngine, classTierFiles, readCache } from "../../shared/classtier.js";
import { intOption, readJsonl } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata classtier ask`: the ClassTier questions of exchanges through the engine, answers
 * cached in `<v4>/classtier.jsonl` (a re-run asks only what the cache lacks).
 */
export function register(group: Command, ctx: CommandContext): void {
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
    .addHelpText(
      "after",
      examples([
        "errata datasets copy spotter && errata classtier ask --exchanges datasets/spotter/exchanges.jsonl --limit 200  # exit 1: the embedded lane holds no class-tier weights; it says which lane to use",
        "errata datasets copy ab-redial && errata classtier ask --exchanges datasets/ab-redial/exchanges.jsonl --limit 20 --dry-run  # exit 1: nothing the embedded lane could answer",
      ]),
    )
    .action(async (opts: { exchanges: string; replay?: string; lane?: string; limit?: string; caller?: string; dryRun?: boolean; json?: boolean }) => {
      let exchanges = readJsonl(resolve(ctx.io.cwd, opts.exchanges), ExchangeSchema);
      if (opts.limit) exchanges = exchanges.slice(0, intOption("limit", opts.limit, 0, 1));
      const files = classTierFiles(ctx);
      const unscoredAll = (reason: string | null): void =>
        didNothing(
          ctx,
          `every answer on the ${engine.lane} lane is unscored${reason !== null ? ` (${reason.slice(0, 120)})` : ""}`,
          engine.lane === "embedded" ? "the shipped weights hold no class-tier questions: ask with --lane <an OpenAI-compatible lane> or --replay FILE" : "check the lane with `errata engine probe`",
        );
      const cached = readCache(files.cache);
      const engine = classTierEngine(ctx, opts);
      if (opts.dryRun) {
        const have = new Set(cached.filter((c) => c.prompt_hash === classTierPromptHash && c.answer.status === "scored" && c.answer.lane === engine.lane && c.answer.model === engine.model).map((c) => `${c.answer.exchange_id}\u0000${c.answer.question_id}`));
        const todo = exchanges.length * classTierQuestions.length - exchanges.reduce((s, e) => s + classTierQuestions.filter((q) => have.has(`${e.id}\u0000${q.id}`)).length, 0);
        const out = { exchanges: exchanges.length, would_ask: todo, prompt_hash: classTierPromptHash, dry_run: true };
        if (opts.json) printJson(ctx.io, out);
        else println(ctx.io, `would ask ${todo} pairs about ${exchanges.length} exchanges (dry run)`);
        // A dry run gives the same verdict: the embedded lane answers offline and writes nothing,
        // so one exchange tells whether it can answer these questions at all.
        const first = exchanges[0];
        if (engine.lane === "embedded" && first !== undefined && todo > 0) {
          const probe = await engine.ask(classTierQuestions.map((q) => ({ exchange: first, question: q })), { caller: opts.caller ?? "errata-triage", noCache: true });
          const reason = probe.find((a) => a.status === "unscored");
          if (probe.every((a) => a.status === "unscored")) unscoredAll(reason && reason.status === "unscored" ? reason.reason : null);
        }
        return;
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
      const allUnscored = exchanges.length > 0 && counts.unscored === exchanges.length;
      const reason = r.newAnswers.find((a) => a.status === "unscored");
      const nothing = (): void => unscoredAll(reason && reason.status === "unscored" ? reason.reason : null);
      if (opts.json) {
        printJson(ctx.io, out);
        if (allUnscored) nothing();
        return;
      }
      if (allUnscored) nothing();
      println(ctx.io, `asked ${r.asked} pairs (${r.fromCache} from cache) about ${exchanges.length} exchanges on the ${engine.lane} lane: ${counts.named} named a class, ${counts.none} none, ${counts.unscored} unscored`);
    });
}
