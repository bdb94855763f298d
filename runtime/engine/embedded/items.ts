import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import { majorityVote } from "../../../eval/index.js";

/**
 * Labelled items for yes/no questions: for each (question, exchange), the raters' yes votes
 * and total votes, joined to the exchange. Only boolean labels on bank-style question ids
 * ("detect.unhappy") count; corpus-native keys ("satisfaction", "breakdown") are left out.
 *
 * Example: three raters on one exchange, two saying yes -> `{yes: 2, total: 3, majority: 1}`.
 */
export interface Item {
  exchange: Exchange;
  questionId: string;
  yes: number;
  total: number;
  /**
   * eval's `majorityVote` (the one majority rule) with at least one vote: 1 when more said yes
   * than no, 0 when more said no, null on a tie. One vote is enough here because training sets
   * may have a single rater (the synthetic plan, UKP); the gold holdout asks for 2 of 3.
   */
  majority: 0 | 1 | null;
}

export interface ItemsResult {
  /** Items per question id, in exchange-file order. */
  byQuestion: Map<string, Item[]>;
  /** Label rows whose exchange id is not in the exchanges file. */
  unjoined: number;
  /** Label rows left out because the value is not boolean or the question is not a bank id. */
  ignored: number;
}

/** The engine's minimum votes for a majority (see `Item.majority`). */
export const TRAINING_MIN_VOTES = 1;

function binaryMajority(yes: number, total: number): 0 | 1 | null {
  const votes: boolean[] = [...Array<boolean>(yes).fill(true), ...Array<boolean>(total - yes).fill(false)];
  const m = majorityVote(votes, TRAINING_MIN_VOTES);
  return m.status === "majority" ? (m.value === true ? 1 : 0) : null;
}

const QUESTION_ID = /^[a-z]+\.[a-z0-9_]+$/;

export function buildItems(exchanges: readonly Exchange[], labels: readonly Label[]): ItemsResult {
  const order = new Map<string, number>();
  const byId = new Map<string, Exchange>();
  exchanges.forEach((e, i) => {
    if (!byId.has(e.id)) {
      byId.set(e.id, e);
      order.set(e.id, i);
    }
  });
  const votes = new Map<string, Map<string, { yes: number; total: number }>>();
  let unjoined = 0;
  let ignored = 0;
  for (const l of labels) {
    if (typeof l.value !== "boolean" || !QUESTION_ID.test(l.question)) {
      ignored++;
      continue;
    }
    if (!byId.has(l.exchange_id)) {
      unjoined++;
      continue;
    }
    let q = votes.get(l.question);
    if (!q) votes.set(l.question, (q = new Map()));
    const v = q.get(l.exchange_id) ?? { yes: 0, total: 0 };
    v.total++;
    if (l.value) v.yes++;
    q.set(l.exchange_id, v);
  }
  const byQuestion = new Map<string, Item[]>();
  for (const qid of [...votes.keys()].sort()) {
    const q = votes.get(qid) as Map<string, { yes: number; total: number }>;
    const items = [...q.entries()]
      .sort((a, b) => (order.get(a[0]) as number) - (order.get(b[0]) as number))
      .map(([id, v]): Item => ({
        exchange: byId.get(id) as Exchange,
        questionId: qid,
        yes: v.yes,
        total: v.total,
        majority: binaryMajority(v.yes, v.total),
      }));
    byQuestion.set(qid, items);
  }
  return { byQuestion, unjoined, ignored };
}
