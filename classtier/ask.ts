import type { Engine } from "../runtime/engine/index.js";
import type { Answer } from "../schemas/answer.js";
import type { Exchange } from "../schemas/exchange.js";
import type { Question } from "../schemas/question.js";
import { CLASSTIER_PREFIX } from "./questions.js";
import { classTierVerdict, type ClassTierVerdict } from "./verdict.js";

/**
 * Asks the model judge (through the engine, never directly) the ClassTier questions about
 * exchanges, skipping pairs the cache already holds for the same prompt hash, lane and model.
 * Returns the new answers (the caller appends them to `classtier.jsonl`) and every exchange's
 * verdict from cached and new answers together.
 *
 * Example: 3 exchanges, empty cache → 42 pairs asked (3 × 14); again with those answers
 * cached → 0 asked, the same verdicts.
 */
export interface CachedAnswer {
  prompt_hash: string;
  answer: Answer;
}

export function cacheKeyOf(promptHash: string, a: Pick<Answer, "exchange_id" | "question_id" | "question_version" | "lane" | "model">): string {
  return [promptHash, a.lane, a.model, a.exchange_id, a.question_id, a.question_version].join("\u0000");
}

export async function askClassTier(
  engine: Engine,
  exchanges: readonly Exchange[],
  cached: readonly CachedAnswer[],
  opts: { questions: readonly Question[]; promptHash: string; caller: string; cut?: number; onProgress?: (done: number, total: number) => void },
): Promise<{ asked: number; fromCache: number; newAnswers: Answer[]; verdicts: Map<string, ClassTierVerdict> }> {
  const have = new Map<string, Answer>();
  for (const c of cached) have.set(cacheKeyOf(c.prompt_hash, c.answer), c.answer);
  const pairs: { exchange: Exchange; question: Question }[] = [];
  const byExchange = new Map<string, Answer[]>();
  let fromCache = 0;
  for (const ex of exchanges) {
    const list: Answer[] = [];
    byExchange.set(ex.id, list);
    for (const q of opts.questions) {
      const hit = have.get(cacheKeyOf(opts.promptHash, { exchange_id: ex.id, question_id: q.id, question_version: q.version, lane: engine.lane, model: engine.model }));
      if (hit && hit.status === "scored") {
        list.push(hit);
        fromCache++;
      } else pairs.push({ exchange: ex, question: q });
    }
  }
  const newAnswers = pairs.length > 0 ? await engine.ask(pairs, { caller: opts.caller, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) }) : [];
  for (const a of newAnswers) byExchange.get(a.exchange_id)?.push(a);
  const classIds = opts.questions.map((q) => q.id.slice(CLASSTIER_PREFIX.length));
  const verdicts = new Map<string, ClassTierVerdict>();
  for (const [id, answers] of byExchange) {
    const p = new Map<string, number | null>();
    for (const a of answers) p.set(a.question_id.slice(CLASSTIER_PREFIX.length), a.status === "scored" ? a.p_yes : null);
    verdicts.set(id, classTierVerdict(p, classIds, opts.cut));
  }
  return { asked: pairs.length, fromCache, newAnswers, verdicts };
}

/** Verdicts from cached answers only (for eval), for the current prompt hash and a given judge. */
export function verdictsFromCache(
  cached: readonly CachedAnswer[],
  opts: { questions: readonly Question[]; promptHash: string; lane?: string; model?: string; cut?: number },
): Map<string, ClassTierVerdict> {
  const byExchange = new Map<string, Map<string, number | null>>();
  const versions = new Map(opts.questions.map((q) => [q.id, q.version]));
  for (const c of cached) {
    const a = c.answer;
    if (c.prompt_hash !== opts.promptHash || versions.get(a.question_id) !== a.question_version) continue;
    if ((opts.lane && a.lane !== opts.lane) || (opts.model && a.model !== opts.model)) continue;
    const m = byExchange.get(a.exchange_id) ?? new Map<string, number | null>();
    const cls = a.question_id.slice(CLASSTIER_PREFIX.length);
    if (a.status === "scored" || !m.has(cls)) m.set(cls, a.status === "scored" ? a.p_yes : null);
    byExchange.set(a.exchange_id, m);
  }
  const classIds = opts.questions.map((q) => q.id.slice(CLASSTIER_PREFIX.length));
  return new Map([...byExchange].map(([id, p]) => [id, classTierVerdict(p, classIds, opts.cut)]));
}
