/**
 * How the embedded lane answers the rules wing's two nouls offline: a logistic model over
 * features code can compute (no model text), trained on the synthetic rule scenarios (see
 * train-nouls.ts; weights shipped in datasets/weights/rules-nouls.json with their training
 * record).
 *
 * `rules.rule_covers` (a failure, one candidate rule) reads: the candidate's BM25 score
 * against the failure's query relative to the best candidate's, its rank, the log of its
 * score, its margin over the next candidate, the share of the complaint's terms the rule
 * holds, the share of the rule's terms found in the reply and tool calls, the share found in
 * the failure class's text, and the capture classifier's verdict on the prompt (correction,
 * directive, frustration).
 *
 * `rules.same_root_cause` (two failures of one bucket) reads: word overlap of the complaints,
 * of the replies, of the tool calls, whether the classes agree, whether their best candidate
 * rules agree, and the overlap of their candidate sets.
 *
 * Example: `ruleCoversFeatures(f, {score: 6.2, rank: 1, top: 6.2, next: 2.1, unit})` -> 11 numbers in [0, ~3].
 */
import { InvariantError } from "../../core/errors.js";
import { classify, type CaptureVerdict } from "../classifier/index.js";
import { predictLogistic } from "../../learn/index.js";
import type { RuleUnit } from "../../schemas/rules.js";
import { classText } from "./evaluate.js";
import { wordOverlap } from "./ids.js";
import { unitTerms } from "./search.js";
import { terms } from "./tokenize.js";

export interface NoulFailure {
  complaint: string;
  reply: string | null;
  tools: readonly string[];
  cls: string | null;
}

export interface CandidateContext {
  unit: RuleUnit;
  score: number;
  /** 1-based. */
  rank: number;
  /** The best candidate's score for this failure. */
  top: number;
  /** The next candidate's score (0 when none). */
  next: number;
}

export const RULE_COVERS_FEATURES = [
  "score_rel",
  "score_log",
  "rank_1",
  "rank_inv",
  "margin_rel",
  "complaint_in_rule",
  "rule_in_reply",
  "rule_in_class",
  "capture_correction",
  "capture_directive",
  "frustration",
] as const;

export const SAME_ROOT_FEATURES = ["complaint_overlap", "reply_overlap", "tools_overlap", "same_class", "same_top_rule", "candidates_jaccard"] as const;

function share(of: readonly string[], within: ReadonlySet<string>): number {
  if (of.length === 0) return 0;
  let n = 0;
  for (const t of new Set(of)) if (within.has(t)) n++;
  return n / new Set(of).size;
}

/** `verdict`: the capture classifier's verdict on the complaint, when the caller already has it. */
export function ruleCoversFeatures(f: NoulFailure, c: CandidateContext, verdict: CaptureVerdict = classify(f.complaint, { previousReply: f.reply })): number[] {
  const rule = new Set(unitTerms(c.unit));
  const ruleTerms = [...rule];
  const complaint = terms(f.complaint);
  const replySide = new Set([...terms(f.reply ?? ""), ...f.tools.flatMap((t) => terms(t))]);
  const cls = new Set(terms(classText(f.cls) ?? ""));
  return [
    c.top > 0 ? c.score / c.top : 0,
    Math.log1p(c.score),
    c.rank === 1 ? 1 : 0,
    1 / c.rank,
    c.top > 0 ? (c.score - c.next) / c.top : 0,
    share(complaint, rule),
    share(ruleTerms, replySide),
    share(ruleTerms, cls),
    verdict.kind === "correction" ? 1 : 0,
    verdict.kind === "directive" ? 1 : 0,
    (verdict.frustration ?? 0) / 3,
  ];
}

export interface RootCauseSide extends NoulFailure {
  /** Ids of its candidate rules, best first. */
  candidates: readonly string[];
}

export function sameRootFeatures(a: RootCauseSide, b: RootCauseSide): number[] {
  const ca = new Set(a.candidates);
  const cb = new Set(b.candidates);
  const union = new Set([...ca, ...cb]);
  let inter = 0;
  for (const id of ca) if (cb.has(id)) inter++;
  return [
    wordOverlap(a.complaint, b.complaint),
    wordOverlap(a.reply ?? "", b.reply ?? ""),
    wordOverlap(a.tools.join(" "), b.tools.join(" ")),
    a.cls !== null && a.cls === b.cls ? 1 : 0,
    a.candidates[0] !== undefined && a.candidates[0] === b.candidates[0] ? 1 : 0,
    union.size === 0 ? 0 : inter / union.size,
  ];
}

export interface NoulModel {
  features: readonly string[];
  coef: number[];
  intercept: number;
}

export function noulProbability(model: NoulModel, x: readonly number[]): number {
  if (x.length !== model.features.length) {
    throw new InvariantError("FEATURES", "a rules noul got a feature row of the wrong length", { expected: `${model.features.length} features`, found: String(x.length) });
  }
  return predictLogistic({ coef: Float64Array.from(model.coef), intercept: model.intercept, dim: model.coef.length }, x);
}
