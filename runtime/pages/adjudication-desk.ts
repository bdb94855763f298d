import { adjudicationQueue, checkDecision, valueKey, type AgreementLabel, type LabelValue, type QueueItem, type SheetItem } from "../../eval/index.js";
import type { Adjudication } from "../../schemas/adjudication.js";
import { badInput, describeFound } from "../../core/errors.js";
import { fnv1a32Utf16 } from "../../core/fnv1a.js";
import { mulberry32 } from "../../core/mulberry32.js";
import { shuffleInPlace } from "../../core/shuffle.js";
import { appendAdjudication, readAdjudications } from "./adjudication-store.js";

/**
 * The adjudication view's state: the disputed items of the raw labels (ties first), the
 * decisions in force, and the append of each new one. What an adjudicator's token reads is the
 * items' text and each dispute's labels as "A", "B", "C" in an order shuffled per item and
 * question (seeded, so a reload shows the same order): never a labeller's id, never a judge.
 *
 * Example: `openDesk({file, labels, questions: ["detect.unhappy"], texts})`.view("lee") ->
 * `{adjudicator: "lee", items: [{exchange_id, prompt, …, disputes: [{question, dispute: "split",
 * votes: [{who: "A", value: true}, …], options: ["yes", "no"], decision: null, value: null}]}], progress}`.
 */
export interface DeskOptions {
  /** adjudications.jsonl: read at start, appended to on each decision. */
  file: string;
  /** The raw labels (label/1 rows). */
  labels: readonly AgreementLabel[];
  questions: readonly string[];
  labelers?: readonly string[];
  /** The items' text; a disputed item without text is left out (and counted). */
  texts: ReadonlyMap<string, SheetItem>;
  /** Milliseconds since the epoch, for the rows' `at`. */
  now: () => number;
}

export interface DecideRequest {
  exchange_id: string;
  question: string;
  op: "label" | "ambiguous" | "withdraw";
  value?: string;
}

const cellOf = (v: LabelValue): string => (typeof v === "boolean" ? (v ? "yes" : "no") : String(v));

export function openDesk(opts: DeskOptions) {
  const decisions: Adjudication[] = readAdjudications(opts.file);
  const queueNow = (): QueueItem[] => adjudicationQueue(opts.labels, decisions, { questions: opts.questions, ...(opts.labelers ? { labelers: opts.labelers } : {}) });
  const first = queueNow();
  const withoutText = new Set(first.filter((x) => !opts.texts.has(x.exchange_id)).map((x) => x.exchange_id)).size;
  // Item order fixed at start (ties first); decisions never move an item.
  const order: string[] = [];
  for (const x of first) if (opts.texts.has(x.exchange_id) && !order.includes(x.exchange_id)) order.push(x.exchange_id);
  const shuffled = (x: QueueItem) => shuffleInPlace([...x.votes], mulberry32(fnv1a32Utf16(`errata-adjudicate/1\u0000${x.exchange_id}\u0000${x.question}`)));

  function progress(queue: QueueItem[]) {
    const shown = queue.filter((x) => opts.texts.has(x.exchange_id));
    return { disputes: shown.length, decided: shown.filter((x) => x.decision !== null).length, withoutText };
  }

  function view(adjudicator: string) {
    const queue = queueNow();
    const items = order.map((id) => {
      const t = opts.texts.get(id)!;
      const disputes = queue
        .filter((x) => x.exchange_id === id)
        .map((x) => ({
          question: x.question,
          dispute: x.dispute,
          votes: shuffled(x).map((v, k) => ({ who: String.fromCharCode(65 + k), value: v.value })),
          options: [...new Map(shuffled(x).map((v) => [valueKey(v.value), cellOf(v.value)])).values()],
          decision: x.decision?.decision ?? null,
          value: x.decision?.value ?? null,
        }));
      return { ...t, disputes };
    });
    return { adjudicator, items: items.filter((i) => i.disputes.length > 0), progress: progress(queue) };
  }

  function decide(adjudicator: string, req: DecideRequest) {
    const x = queueNow().find((q) => q.exchange_id === req.exchange_id && q.question === req.question);
    if (!x || !opts.texts.has(req.exchange_id)) throw badInput("not a disputed item of this desk", "an exchange_id and question from /api/adjudication", describeFound(`${req.exchange_id} ${req.question}`));
    let value: LabelValue | null = null;
    if (req.op === "label") {
      value = x.votes.map((v) => v.value).find((v) => cellOf(v) === req.value) ?? null;
      if (value === null) throw badInput(`not one of the labels of ${req.exchange_id} on ${req.question}`, `one of ${[...new Set(x.votes.map((v) => cellOf(v.value)))].join(", ")}`, describeFound(req.value ?? ""));
      checkDecision(x.votes, { exchange_id: req.exchange_id, question: req.question, decision: "label", value });
    }
    const row: Adjudication = {
      schema: "adjudication/1",
      exchange_id: req.exchange_id,
      question: req.question,
      adjudicator,
      decision: req.op === "withdraw" ? "withdrawn" : req.op,
      value,
      labels: x.votes.map((v) => ({ labeler: v.labeler, value: v.value })),
      at: new Date(opts.now()).toISOString(),
    };
    appendAdjudication(opts.file, row);
    decisions.push(row);
    return { decision: row.decision === "withdrawn" ? null : row.decision, value, progress: progress(queueNow()) };
  }

  return { view, decide, withoutText, items: order.length };
}
export type Desk = ReturnType<typeof openDesk>;
