import type { Answer } from "../../schemas/answer.js";

/** Which judge an answer came from: composition never mixes judges. */
export interface JudgeId {
  lane: string;
  model: string;
}

/** The judge most answers came from (ties: the one answering last), or null with no answers. */
export function dominantJudge(answers: readonly Answer[]): JudgeId | null {
  const count = new Map<string, number>();
  let last: string | null = null;
  for (const a of answers) {
    const k = `${a.lane}\t${a.model}`;
    count.set(k, (count.get(k) ?? 0) + 1);
    last = k;
  }
  let best: string | null = null;
  for (const [k, n] of count) if (best === null || n > (count.get(best) ?? 0) || (n === count.get(best) && k === last)) best = k;
  if (best === null) return null;
  const [lane, model] = best.split("\t") as [string, string];
  return { lane, model };
}

/**
 * Whose answers count: the judge named (a lane and model: its answers, even when it gave
 * none), else among the answers of the lane or model given (either may be absent), the judge
 * most of them came from. Null when no answer qualifies and no whole judge was named.
 *
 * Example: answers by embedded/m (300) and openai/gpt (20), no filter -> embedded/m;
 * `{lane: "openai"}` -> openai/gpt.
 */
export function chooseJudge(answers: readonly Answer[], want: { lane?: string | undefined; model?: string | undefined } = {}): JudgeId | null {
  const { lane, model } = want;
  const candidates = lane === undefined && model === undefined ? answers : answers.filter((a) => (lane === undefined || a.lane === lane) && (model === undefined || a.model === model));
  return dominantJudge(candidates);
}

/** Exchanges whose `detect.unhappy` answer the judge scored: what was judged at all. */
export function judgedExchanges(answers: readonly Answer[], judge: JudgeId): Set<string> {
  const out = new Set<string>();
  for (const a of answers) if (a.status === "scored" && a.question_id === "detect.unhappy" && a.lane === judge.lane && a.model === judge.model) out.add(a.exchange_id);
  return out;
}
