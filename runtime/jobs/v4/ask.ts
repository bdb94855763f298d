import { InvariantError } from "../../../core/errors.js";
import type { AskPair, Engine } from "../../engine/index.js";
import type { Answer } from "../../../schemas/answer.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";
import type { JudgeId } from "../../judgments/index.js";
import { judgeProjection } from "./judge-input.js";

export type { JudgeId };

/** The key that makes a re-run ask nothing new: exchange, question and version, judge. */
export function answerKey(a: { exchange_id: string; question_id: string; question_version: number }, judge: JudgeId): string {
  return `${a.exchange_id}\t${a.question_id}\t${a.question_version}\t${judge.lane}\t${judge.model}`;
}

export interface AskPlan {
  /** Pairs still to ask, built from judge projections (no session id, home path or ledger state). */
  pairs: AskPair[];
  /** Exchanges with at least one pair to ask (after --limit). */
  exchanges: number;
  /** Pairs skipped because the same judge already answered them. */
  alreadyAnswered: number;
}

/**
 * Plans a pass: every (exchange, question) not yet answered by this judge, in exchange
 * order, limited to the first `limit` exchanges that need asking.
 *
 * Example: 3 exchanges × 8 detect and blame questions, 8 answered before → 16 pairs over
 * 2 exchanges, alreadyAnswered 8.
 */
export function planAsk(
  exchanges: readonly Exchange[],
  questions: readonly Question[],
  existing: readonly Answer[],
  judge: JudgeId,
  opts: { limit?: number | undefined; home?: string | undefined } = {},
): AskPlan {
  const done = new Set(existing.filter((a) => a.lane === judge.lane && a.model === judge.model).map((a) => answerKey(a, judge)));
  const pairs: AskPair[] = [];
  let exchangesAsked = 0;
  let alreadyAnswered = 0;
  for (const ex of exchanges) {
    const todo = questions.filter((q) => !done.has(answerKey({ exchange_id: ex.id, question_id: q.id, question_version: q.version }, judge)));
    alreadyAnswered += questions.length - todo.length;
    if (todo.length === 0) continue;
    if (opts.limit !== undefined && exchangesAsked >= opts.limit) continue;
    exchangesAsked++;
    const projected = judgeProjection(ex, { home: opts.home });
    for (const question of todo) pairs.push({ exchange: projected, question });
  }
  return { pairs, exchanges: exchangesAsked, alreadyAnswered };
}

export interface AskSummary {
  exchanges: number;
  asked: number;
  alreadyAnswered: number;
  scored: number;
  unscored: number;
}

/**
 * Asks the planned pairs through the engine (caller `errata-triage`, shadow) in chunks and
 * hands each chunk's answers to `store` as they arrive, so an interrupted run keeps what it
 * paid for. An answer is checked against its pair (exchange id, question id and version);
 * a mismatch is an engine fault and throws.
 */
export async function askPlanned(
  engine: Engine,
  plan: AskPlan,
  store: (answers: Answer[]) => void,
  opts: { caller?: string; chunk?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<AskSummary> {
  const chunk = opts.chunk ?? 256;
  let scored = 0;
  let unscored = 0;
  for (let i = 0; i < plan.pairs.length; i += chunk) {
    const pairs = plan.pairs.slice(i, i + chunk);
    const answers = await engine.ask(pairs, { caller: opts.caller ?? "errata-triage" });
    if (answers.length !== pairs.length) throw new InvariantError("ENGINE_ANSWER_COUNT", `engine returned ${answers.length} answers for ${pairs.length} pairs`, { expected: `${pairs.length} answers`, found: String(answers.length) });
    answers.forEach((a, j) => {
      const p = pairs[j]!;
      if (a.exchange_id !== p.exchange.id || a.question_id !== p.question.id || a.question_version !== p.question.version)
        throw new InvariantError("ENGINE_ANSWER_ORDER", `engine answer ${j} is for ${a.exchange_id}/${a.question_id}, expected ${p.exchange.id}/${p.question.id}`, { expected: `${p.exchange.id}/${p.question.id}`, found: `${a.exchange_id}/${a.question_id}` });
      if (a.status === "scored") scored++;
      else unscored++;
    });
    store(answers);
    opts.onProgress?.(Math.min(i + chunk, plan.pairs.length), plan.pairs.length);
  }
  return { exchanges: plan.exchanges, asked: plan.pairs.length, alreadyAnswered: plan.alreadyAnswered, scored, unscored };
}
