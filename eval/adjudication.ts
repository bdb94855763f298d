import { valueKey, type LabelValue } from "./categories.js";
import { EvalInputError } from "./errors.js";
import { majorityVote } from "./majority.js";

/**
 * Adjudication: the items whose labellers split go to a person who picks one of the labels
 * or marks the item ambiguous. Decisions are kept apart from the raw labels, so every
 * agreement figure on the raw labels stays as it was; only the gold changes.
 *
 * - A **split**: two or more labels that are not all the same (2-1 on a yes/no question).
 * - A **tie**: a split with no 2-of-3 majority (1-1-1 on a category or rating, 1-1 with a
 *   label missing, 2-2): without a decision such an item has no gold at all.
 *
 * A decision is in force while the labels it saw are the item's labels; once they change (a
 * sheet imported again with --replace, a new labeller) it is **stale**: not applied, and the
 * item is back in the queue.
 *
 * Example: votes ana yes, ben no, cy no -> dispute "split", raw majority no; a decision
 * "label yes" seeing those three votes -> gold yes (`overturned`); after ben's label becomes
 * yes the same decision is stale and the gold is the new majority, yes.
 */
export interface Vote {
  labeler: string;
  value: LabelValue;
}

export interface Decision {
  exchange_id: string;
  question: string;
  adjudicator: string;
  decision: "label" | "ambiguous" | "withdrawn";
  value: LabelValue | null;
  labels: readonly Vote[];
}

export type Dispute = "tie" | "split";
export type DisputeScope = "splits" | "ties";

interface LabelRow {
  exchange_id: string;
  labeler: string;
  question: string;
  value: LabelValue;
}

/** Each item's votes on one question (labellers sorted), from the listed labellers only. */
export function votesByItem(labels: readonly LabelRow[], question: string, labelers?: readonly string[]): Map<string, Vote[]> {
  const keep = labelers ? new Set(labelers) : null;
  const out = new Map<string, Vote[]>();
  for (const l of labels) {
    if (l.question !== question || (keep && !keep.has(l.labeler))) continue;
    const list = out.get(l.exchange_id) ?? [];
    if (list.some((v) => v.labeler === l.labeler)) throw new EvalInputError("BAD_VALUE", `duplicate label for question ${question}`, "one label per item and labeller", `two from ${l.labeler} for ${l.exchange_id}`);
    list.push({ labeler: l.labeler, value: l.value });
    out.set(l.exchange_id, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a.labeler < b.labeler ? -1 : a.labeler > b.labeler ? 1 : 0));
  return out;
}

/** "tie", "split" or null (fewer than two labels, or all the same). */
export function disputeOf(votes: readonly Vote[], minVotes = 2): Dispute | null {
  if (votes.length < 2) return null;
  if (new Set(votes.map((v) => valueKey(v.value))).size === 1) return null;
  return majorityVote(votes.map((v) => v.value), minVotes).status === "majority" ? "split" : "tie";
}

const voteKey = (votes: readonly Vote[]): string => votes.map((v) => `${v.labeler}=${valueKey(v.value)}`).sort().join("\u0000");

/** True when two sets of votes are the same labellers with the same values. */
export const sameVotes = (a: readonly Vote[], b: readonly Vote[]): boolean => voteKey(a) === voteKey(b);

export const decisionKey = (exchangeId: string, question: string): string => `${question}\u0000${exchangeId}`;

/** The decision in force per (exchange, question): the last row of each; a withdrawal leaves none. */
export function latestDecisions(rows: readonly Decision[]): Map<string, Decision> {
  const out = new Map<string, Decision>();
  for (const r of rows) {
    const k = decisionKey(r.exchange_id, r.question);
    if (r.decision === "withdrawn") out.delete(k);
    else out.set(k, r);
  }
  return out;
}

/**
 * Checks a decision against the item's current votes: the item must be disputed and a chosen
 * label must be one the labellers gave (adjudication settles a split; it does not relabel).
 * Throws BAD_VALUE saying what was expected.
 */
export function checkDecision(votes: readonly Vote[] | undefined, d: Pick<Decision, "exchange_id" | "question" | "decision" | "value">, minVotes = 2): void {
  if (!votes || disputeOf(votes, minVotes) === null) {
    throw new EvalInputError("BAD_VALUE", `nothing to adjudicate for ${d.exchange_id} on ${d.question}`, "an item whose labellers split", votes ? `${votes.length} label(s), all ${votes.length > 0 ? JSON.stringify(votes[0]!.value) : "missing"}` : "no labels");
  }
  if (d.decision === "label") {
    const given = votes.map((v) => v.value);
    if (d.value === null || !given.some((v) => valueKey(v) === valueKey(d.value!))) {
      throw new EvalInputError("BAD_VALUE", `not one of the labels of ${d.exchange_id} on ${d.question}`, `one of ${[...new Set(given.map((v) => JSON.stringify(v)))].join(", ")} (or ambiguous)`, JSON.stringify(d.value));
    }
  }
}

export interface QueueItem {
  exchange_id: string;
  question: string;
  dispute: Dispute;
  votes: Vote[];
  /** The raw 2-of-3 majority; null for a tie. */
  majority: LabelValue | null;
  /** The decision in force (null when pending or stale). */
  decision: Decision | null;
  /** A decision exists but saw other labels than the item has now. */
  stale: boolean;
}

/**
 * Every disputed item of the questions, with its decision: ties first (they have no gold
 * without one), then splits; by question, then exchange id. `scope: "ties"` keeps ties only.
 */
export function adjudicationQueue(labels: readonly LabelRow[], decisions: readonly Decision[], opts: { questions: readonly string[]; labelers?: readonly string[]; minVotes?: number; scope?: DisputeScope }): QueueItem[] {
  const minVotes = opts.minVotes ?? 2;
  const latest = latestDecisions(decisions);
  const out: QueueItem[] = [];
  for (const question of opts.questions) {
    for (const [id, votes] of votesByItem(labels, question, opts.labelers)) {
      const dispute = disputeOf(votes, minVotes);
      if (dispute === null || (opts.scope === "ties" && dispute !== "tie")) continue;
      const m = majorityVote(votes.map((v) => v.value), minVotes);
      const d = latest.get(decisionKey(id, question)) ?? null;
      const stale = d !== null && !sameVotes(d.labels, votes);
      out.push({ exchange_id: id, question, dispute, votes, majority: m.status === "majority" ? m.value : null, decision: stale ? null : d, stale });
    }
  }
  const rank = (q: QueueItem): number => (q.dispute === "tie" ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b) || (a.question < b.question ? -1 : a.question > b.question ? 1 : 0) || (a.exchange_id < b.exchange_id ? -1 : a.exchange_id > b.exchange_id ? 1 : 0));
}

export type GoldStatus = "majority" | "adjudicated" | "ambiguous" | "tie" | "insufficient";

/**
 * An item's gold after adjudication: the decision in force (a label, or ambiguous: no gold),
 * else the raw majority. `overturned`: the decision chose another value than a raw majority.
 */
export function resolveGold(votes: readonly Vote[], decision: Decision | undefined, minVotes = 2): { status: GoldStatus; value: LabelValue | null; overturned: boolean } {
  const m = majorityVote(votes.map((v) => v.value), minVotes);
  const raw = m.status === "majority" ? m.value : null;
  if (decision && decision.decision !== "withdrawn" && sameVotes(decision.labels, votes) && disputeOf(votes, minVotes) !== null) {
    if (decision.decision === "ambiguous") return { status: "ambiguous", value: null, overturned: false };
    return { status: "adjudicated", value: decision.value, overturned: raw !== null && valueKey(raw) !== valueKey(decision.value!) };
  }
  return m.status === "majority" ? { status: "majority", value: m.value, overturned: false } : { status: m.status, value: null, overturned: false };
}

/** Every item's gold value on a question after adjudication (items without gold left out). */
export function adjudicatedGold(labels: readonly LabelRow[], decisions: readonly Decision[], question: string, opts: { labelers?: readonly string[]; minVotes?: number; ids?: ReadonlySet<string> } = {}): Map<string, ReturnType<typeof resolveGold>> {
  const latest = latestDecisions(decisions);
  const out = new Map<string, ReturnType<typeof resolveGold>>();
  for (const [id, votes] of votesByItem(labels, question, opts.labelers)) {
    if (opts.ids && !opts.ids.has(id)) continue;
    out.set(id, resolveGold(votes, latest.get(decisionKey(id, question)), opts.minVotes ?? 2));
  }
  return out;
}
