/**
 * Asks the rules wing's nouls through the engine. A rules noul is about an exchange and a
 * subject (a candidate rule, or another failure); the question asked is the noul's text with
 * the subject after it, so a model lane sees both and its prompt hash (and cache key) differs
 * per subject. On the OpenAI-compatible lane the pairs go through `engine.ask` under the
 * caller `errata-coverage` (its own budget: coverage can never starve daily detection), one
 * call per exchange's pairs. On the embedded lane, which has no text model, the answers come
 * from the rules model over computed features (nouls.ts), offline; without its weights every
 * answer is unscored with that reason.
 *
 * Example: `await askRuleCovers(judge, [{exchange, unit, retrieval}])` -> one Answer per pair.
 */
import { baseAnswer, scored, unscored, type Engine } from "../engine/index.js";
import { rulesQuestions, ruleSubject } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Question } from "../../schemas/question.js";
import type { RuleUnit } from "../../schemas/rules.js";
import { noulProbability, ruleCoversFeatures, sameRootFeatures, type CandidateContext, type RootCauseSide } from "./nouls.js";
import type { RuleNoulWeights } from "./train-nouls.js";
import { classify, type CaptureVerdict } from "../classifier/index.js";

export const COVERAGE_CALLER = "errata-coverage";

const RULE_COVERS = rulesQuestions.find((q) => q.id === "rules.rule_covers") as Question;
const SAME_ROOT = rulesQuestions.find((q) => q.id === "rules.same_root_cause") as Question;

export interface RulesJudge {
  engine: Engine;
  weights: RuleNoulWeights | null;
  now: () => string;
}

export interface CoverPair {
  exchange: Exchange;
  failureClass: string | null;
  unit: RuleUnit;
  retrieval: Omit<CandidateContext, "unit">;
}

export interface RootPair {
  a: Exchange & { cls: string | null; candidates: readonly string[] };
  b: Exchange & { cls: string | null; candidates: readonly string[] };
}

function bound(q: Question, subject: string): Question {
  return { ...q, text: `${q.text}\n\n${subject}` };
}

function otherSubject(e: Exchange): string {
  const tools = e.tool_calls.map((t) => `${t.name}: ${t.summary}`).join("; ");
  return `Other failure: the owner wrote "${e.prompt}" after the reply "${e.reply_end ?? ""}"${tools ? ` (tool calls: ${tools})` : ""}.`;
}

/** An answer of the offline rules model, built like every lane's (prompt hash names the model). */
function localAnswer(e: Exchange, q: Question, lane: Answer["lane"], model: string, ts: string, p: number | null, reason: string | null): Answer {
  const base = baseAnswer({ exchange: e, question: q }, lane, model, "rules-model", ts);
  return p === null ? unscored(base, reason ?? "unscored") : scored(base, p, "rules-model", `p_yes=${p.toFixed(6)}`, 0, 0);
}

function side(e: Exchange, cls: string | null, candidates: readonly string[]): RootCauseSide {
  return { complaint: e.prompt, reply: e.reply_end, tools: e.tool_calls.map((t) => t.summary), cls, candidates };
}

export async function askRuleCovers(j: RulesJudge, pairs: readonly CoverPair[]): Promise<Answer[]> {
  if (j.engine.lane === "embedded") {
    const ts = j.now();
    // The capture classifier's verdict is the failure's, the same for all its candidates.
    const verdicts = new Map<string, CaptureVerdict>();
    return pairs.map((p) => {
      if (j.weights === null) return localAnswer(p.exchange, RULE_COVERS, "embedded", j.engine.model, ts, null, "no weights for rules.rule_covers (datasets/weights/rules-nouls.json missing)");
      let verdict = verdicts.get(p.exchange.id);
      if (verdict === undefined) verdicts.set(p.exchange.id, (verdict = classify(p.exchange.prompt, { previousReply: p.exchange.reply_end })));
      const x = ruleCoversFeatures({ complaint: p.exchange.prompt, reply: p.exchange.reply_end, tools: p.exchange.tool_calls.map((t) => t.summary), cls: p.failureClass }, { ...p.retrieval, unit: p.unit }, verdict);
      return localAnswer(p.exchange, RULE_COVERS, "embedded", j.engine.model, ts, noulProbability(j.weights.rule_covers, x), null);
    });
  }
  return j.engine.ask(
    pairs.map((p) => ({ exchange: p.exchange, question: bound(RULE_COVERS, ruleSubject(p.unit.text)) })),
    { caller: COVERAGE_CALLER },
  );
}

export async function askSameRoot(j: RulesJudge, pairs: readonly RootPair[]): Promise<Answer[]> {
  if (j.engine.lane === "embedded") {
    const ts = j.now();
    return pairs.map((p) => {
      if (j.weights === null) return localAnswer(p.a, SAME_ROOT, "embedded", j.engine.model, ts, null, "no weights for rules.same_root_cause (datasets/weights/rules-nouls.json missing)");
      const x = sameRootFeatures(side(p.a, p.a.cls, p.a.candidates), side(p.b, p.b.cls, p.b.candidates));
      return localAnswer(p.a, SAME_ROOT, "embedded", j.engine.model, ts, noulProbability(j.weights.same_root_cause, x), null);
    });
  }
  return j.engine.ask(
    pairs.map((p) => ({ exchange: p.a, question: bound(SAME_ROOT, otherSubject(p.b)) })),
    { caller: COVERAGE_CALLER },
  );
}
