import { majorityVote } from "../eval/index.js";
import { chooseCuts, type QuestionCuts } from "./cuts.js";

/**
 * Joins a question's judge probabilities with the labellers' 2-of-3 majority (eval/'s
 * `majorityVote`; ties and single labels have no gold and are left out, counted), keeping
 * each item's session and weight. The last scored answer per item wins; an item whose
 * answers are all unscored is left out and counted, never read as "no".
 *
 * Example: answers {e1: 0.8}, labels e1 = [yes, yes, no] → [{id: "e1", p: 0.8, y: 1, …}].
 */
export interface AnswerLike {
  exchange_id: string;
  question_id: string;
  status: "scored" | "unscored";
  p_yes: number | null;
}

export interface LabelLike {
  exchange_id: string;
  labeler: string;
  question: string;
  value: boolean | number | string;
}

export interface LabelledItem {
  id: string;
  session: string;
  p: number;
  y: 0 | 1;
  w: number;
}

export interface Assembled {
  items: LabelledItem[];
  excluded: { no_majority: number; unscored: number };
}

/** Question ids that have yes/no labels, sorted. */
export function yesNoQuestions(labels: readonly LabelLike[]): string[] {
  const qs = new Set<string>();
  for (const l of labels) if (typeof l.value === "boolean") qs.add(l.question);
  return [...qs].sort();
}

export function assembleQuestion(
  question: string,
  answers: readonly AnswerLike[],
  labels: readonly LabelLike[],
  options: { sessionOf?: ReadonlyMap<string, string>; weightOf?: ReadonlyMap<string, number> } = {},
): Assembled {
  const p = new Map<string, number | null>();
  for (const a of answers) {
    if (a.question_id !== question) continue;
    if (a.status === "scored" && a.p_yes !== null) p.set(a.exchange_id, a.p_yes);
    else if (!p.has(a.exchange_id)) p.set(a.exchange_id, null);
  }
  const votes = new Map<string, boolean[]>();
  for (const l of labels) {
    if (l.question !== question || typeof l.value !== "boolean") continue;
    const v = votes.get(l.exchange_id) ?? [];
    v.push(l.value);
    votes.set(l.exchange_id, v);
  }
  const items: LabelledItem[] = [];
  const excluded = { no_majority: 0, unscored: 0 };
  for (const id of [...votes.keys()].sort()) {
    const m = majorityVote(votes.get(id)!);
    if (m.status !== "majority") {
      excluded.no_majority++;
      continue;
    }
    const prob = p.get(id);
    if (prob === undefined || prob === null) {
      excluded.unscored++;
      continue;
    }
    items.push({ id, session: options.sessionOf?.get(id) ?? id, p: prob, y: m.value === true ? 1 : 0, w: options.weightOf?.get(id) ?? 1 });
  }
  return { items, excluded };
}

/** Cuts for one assembled question (both rules side by side). */
export function cutsForItems(items: readonly LabelledItem[], precisionTarget: number): QuestionCuts | null {
  if (items.length === 0) return null;
  return chooseCuts(items.map((i) => i.p), items.map((i) => i.y), { precisionTarget, weights: items.map((i) => i.w) });
}
