import type { Engine } from "../../engine/index.js";
import { openJudgments, type CutsRequest, type Judgments } from "../../judgments/index.js";
import { questionsInGroup, v3ClassQuestions } from "../../../questions/index.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";
import type { Answer } from "../../../schemas/answer.js";
import { answerKey, askPlanned, type AskSummary, type JudgeId, planAsk } from "./ask.js";
import { regexVerdict } from "./predictions.js";

export type V4Stage = "detect" | "diagnose" | "v3";

/** No cuts file and nothing promoted: the chooser goes on to the judge's calibrated cuts, else 0.5. */
const NOTHING_PROMOTED = { promoted: { read: null } } as const;

/**
 * How many times one (exchange, question) left unscored is asked, over all runs, before it
 * stays unscored (a lane outage should not leave answers unscored for good, nor a question
 * the judge can never answer be paid for every night). Each attempt is its own unscored row
 * in answers.jsonl, so the count is read back from the answers themselves. Only a remote
 * lane's answers are asked again (`openai`: an outage, a time-out, a rate limit pass); the
 * embedded and replay lanes are deterministic and would answer the same way again.
 * `--retry-unscored` asks again whatever the lane and the count.
 */
export const MAX_UNSCORED_ATTEMPTS = 3;
const RETRIED_LANES: ReadonlySet<string> = new Set(["openai"]);

export interface V4PassOptions {
  engine: Engine;
  v4Dir: string;
  /** Exchange files; default `<v4Dir>/exchanges.jsonl`. */
  exchangeFiles?: readonly string[] | undefined;
  /** Where the cuts composing which exchanges are failures come from (the one chooser, `chooseCuts`, for this engine's judge). */
  cuts?: Omit<CutsRequest, "v4Dir"> | undefined;
  /** The v4 folder as already read (the daily run's stages share one read); default: read it here. */
  judgments?: Judgments | undefined;
  limit?: number | undefined;
  dryRun?: boolean | undefined;
  /** Ask again where this judge's stored answer is unscored, however often it was asked (default: up to MAX_UNSCORED_ATTEMPTS). */
  retryUnscored?: boolean | undefined;
  /** v3 only: also ask the exchanges the capture classifier caught (the seed's v3 input), not just composed failures. */
  regexCaught?: boolean | undefined;
  /** The owner's home folder, scrubbed from everything a judge sees. */
  home?: string | undefined;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Where unreadable lines of the exchanges and answers files are reported (default: stderr). */
  warn?: ((line: string) => void) | undefined;
}

export interface V4PassResult extends AskSummary {
  stage: V4Stage;
  judge: JudgeId;
  /** Exchanges this stage applies to (all for detect; composed failures for diagnose and v3). */
  eligible: number;
  exchangesRead: number;
  skippedLines: number;
  /** Pairs the plan holds (asked unless dry-run). */
  planned: number;
  dryRun: boolean;
  /** Where the cuts this pass composed under came from. */
  cutsOrigin: string;
  /** Pairs asked again because their stored answers were unscored (fewer than MAX_UNSCORED_ATTEMPTS). */
  retriedUnscored: number;
  /** Pairs left unscored for good: none scored, and MAX_UNSCORED_ATTEMPTS unscored answers (or any, from a deterministic lane). */
  exhaustedUnscored: number;
}

/**
 * The stored answers a pass counts as done: every scored one, and the unscored ones of a
 * pair asked `max` times or answered by a deterministic lane (with `retryAll`, only the scored). Returns the pairs it leaves to
 * ask again (`retried`) and those given up on (`exhausted`), by answer key.
 */
export function doneAnswers(rows: readonly Answer[], judge: JudgeId, opts: { retryAll?: boolean; max?: number } = {}): { done: Answer[]; retried: Set<string>; exhausted: Set<string> } {
  const max = opts.max ?? MAX_UNSCORED_ATTEMPTS;
  const scoredKeys = new Set<string>();
  const unscoredCount = new Map<string, number>();
  for (const a of rows) {
    if (a.lane !== judge.lane || a.model !== judge.model) continue;
    const k = answerKey(a, judge);
    if (a.status === "scored") scoredKeys.add(k);
    else unscoredCount.set(k, (unscoredCount.get(k) ?? 0) + 1);
  }
  const retried = new Set<string>();
  const exhausted = new Set<string>();
  const remote = RETRIED_LANES.has(judge.lane);
  for (const [k, n] of unscoredCount) {
    if (scoredKeys.has(k)) continue;
    if (opts.retryAll === true || (remote && n < max)) retried.add(k);
    else exhausted.add(k);
  }
  const done = rows.filter((a) => a.status === "scored" || !retried.has(answerKey(a, judge)));
  return { done, retried, exhausted };
}

/** The questions each stage asks. */
export function stageQuestions(stage: V4Stage): Question[] {
  if (stage === "detect") return [...questionsInGroup("detect"), ...questionsInGroup("blame")];
  if (stage === "diagnose") return [...questionsInGroup("mode"), ...questionsInGroup("cost")];
  return [...v3ClassQuestions];
}

/**
 * One v4 stage: `detect` asks detect and blame of every exchange; `diagnose` asks mode and
 * cost only of exchanges whose stored answers compose to a failure (under the cuts);
 * `v3` asks the 14 class questions of the same failures (the single-choice comparison), and
 * with `regexCaught` also of what the capture classifier caught (what the seed's v3 sees).
 * Only pairs this judge has not answered are asked, so a re-run asks nothing new (an unscored
 * answer is asked again on later runs, up to MAX_UNSCORED_ATTEMPTS times); answers
 * are appended raw to `<v4Dir>/answers.jsonl` as they arrive. `dryRun` plans and asks
 * nothing.
 *
 * Example: detect over 3 exchanges, fresh folder → `{asked: 24, alreadyAnswered: 0, …}`;
 * run again → `{asked: 0, alreadyAnswered: 24, …}`.
 */
export async function runV4Stage(stage: V4Stage, opts: V4PassOptions): Promise<V4PassResult> {
  const judge: JudgeId = { lane: opts.engine.lane, model: opts.engine.model };
  const shared = opts.judgments ?? openJudgments({ v4Dir: opts.v4Dir, exchangeFiles: opts.exchangeFiles, judge, cuts: opts.cuts ?? NOTHING_PROMOTED, warn: opts.warn });
  // The failures as this engine's own answers compose them, under its cuts.
  const j = shared.forJudge(judge);
  const cuts = j.cuts;
  let eligible: readonly Exchange[] = j.exchanges;
  if (stage !== "detect") {
    eligible = j
      .composed()
      .filter((c) => c.detect?.is_failure === true || (stage === "v3" && opts.regexCaught === true && regexVerdict(c.exchange).hit))
      .map((c) => c.exchange);
  }
  const { done, retried, exhausted } = doneAnswers(j.answers, judge, { retryAll: opts.retryUnscored === true });
  const plan = planAsk(eligible, stageQuestions(stage), done, judge, { limit: opts.limit, home: opts.home });
  const planned = new Set(plan.pairs.map((p) => answerKey({ exchange_id: p.exchange.id, question_id: p.question.id, question_version: p.question.version }, judge)));
  const stageKeys = new Set(eligible.flatMap((e) => stageQuestions(stage).map((q) => answerKey({ exchange_id: e.id, question_id: q.id, question_version: q.version }, judge))));
  const base = {
    stage,
    judge,
    eligible: eligible.length,
    exchangesRead: j.exchanges.length,
    skippedLines: j.skipped,
    cutsOrigin: cuts.origin,
    retriedUnscored: [...retried].filter((k) => planned.has(k)).length,
    exhaustedUnscored: [...exhausted].filter((k) => stageKeys.has(k)).length,
  };
  if (opts.dryRun) {
    return { ...base, exchanges: plan.exchanges, asked: 0, alreadyAnswered: plan.alreadyAnswered, scored: 0, unscored: 0, planned: plan.pairs.length, dryRun: true };
  }
  const summary = await askPlanned(opts.engine, plan, (answers) => j.append(answers), {
    caller: "errata-triage",
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  return { ...base, ...summary, planned: plan.pairs.length, dryRun: false };
}
