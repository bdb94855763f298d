/**
 * Sorting a correction by cause (rule gap, missing tool, environment, beyond the model, wrong
 * fact) before any rule is written: the offline answer to the cause nouls
 * (questions/causes.ts). A softmax model (learn/ fitSoftmax) over cue features code can
 * compute from the prompt and the reply before it (families of words per class, the capture
 * classifier's verdict), fitted on the synthetic train phrasings (cause-data.ts) when first
 * used: a fit of a few hundred rows takes milliseconds and is deterministic, so no weights
 * file is shipped. Quality is measured on the held-out phrasings and is synthetic.
 *
 * Example: causeModel().classify("their server is down again", "The API returned 503.") -> "environment".
 */
import { fitSoftmax, predictSoftmax } from "../../learn/index.js";

type SoftmaxModel = ReturnType<typeof fitSoftmax>;
import { classify } from "../classifier/index.js";
import { CAUSES, type Cause } from "../../schemas/rule-ledger.js";
import { causeItems, type CauseItem } from "./cause-data.js";

/** Word families per class; hand-written because they are the model's features, and a model trained on them is only as good as its measured quality says. */
const CUES: ReadonlyArray<readonly [string, RegExp]> = [
  ["rule.told", /\b(told you|i said|as i said|again|how many times|we agreed|remember|like i asked|before)\b/i],
  ["rule.always", /\b(always|never|from now on|don't|do not|stop|only|please)\b/i],
  ["rule.prefer", /\b(we use|use \w+ (here|only)|not \w+|instead)\b/i],
  ["tool.access", /\b(access|permission|can't see|cannot see|can't query|no way to reach|cannot query|could not open)\b/i],
  ["tool.missing", /\b(tool|plugin|mcp|browser|set that up|add one|install(ed)? the)\b/i],
  ["env.down", /\b(down|outage|incident|502|503|5\d\ds|unavailable|flaky|timed out|timeout)\b/i],
  ["env.machine", /\b(restart(ed)?|reboot(ed)?|disk|full|network|runner|laptop|machine)\b/i],
  ["env.retry", /\b(retry|rerun|try again|later|in a bit|not you|not your fault)\b/i],
  ["model.hard", /\b(too (much|hard|complex)|beyond you|myself|in circles|can't hold|split|one go|one shot|plan instead)\b/i],
  ["model.tries", /\b(still wrong|tries|another attempt|yet another|keep losing|lost track)\b/i],
  ["fact.exist", /\b(does not exist|doesn't exist|no such|not the|wrong version|removed|outdated|deprecated)\b/i],
  ["fact.value", /\b(current version|version|it's|capital|deadline|docs)\b/i],
  ["reply.error", /\b(503|502|failed|timed out|denied|lost)\b/i],
  ["reply.cannot", /\b(could not|cannot|can't|no way|guessed)\b/i],
  ["reply.big", /\b(whole|all \d+|\d{2,} (modules|files|services)|3,000|another)\b/i],
];

export const CAUSE_FEATURES = [...CUES.map(([n]) => n), "verdict.correction", "verdict.directive"] as const;

export function causeFeatures(prompt: string, reply: string | null): number[] {
  const text = `${prompt}`;
  const v = classify(prompt, { previousReply: reply });
  const x = CUES.map(([name, re]) => (re.test(name.startsWith("reply.") ? (reply ?? "") : text) ? 1 : 0));
  x.push(v.kind === "correction" ? 1 : 0, v.kind === "directive" ? 1 : 0);
  return x;
}

export interface CauseQuality {
  items: number;
  accuracy: number;
  /** Per class precision and recall on the held-out phrasings. */
  perClass: Record<Cause, { precision: number | null; recall: number | null; n: number }>;
  macroF1: number;
  data: "synthetic";
}

export interface CauseModel {
  model: SoftmaxModel;
  /** P(class) in CAUSES order: the five nouls' answers. */
  probabilities(prompt: string, reply: string | null): number[];
  classify(prompt: string, reply: string | null): Cause;
  record: { data: string; seed: number; perClass: number; l2: number };
}

export const CAUSE_L2 = 0.5;

export function trainCauseModel(items: readonly CauseItem[] = causeItems("train", 2211, 24), seed = 2211): CauseModel {
  const rows = items.map((i) => causeFeatures(i.prompt, i.reply));
  const y = items.map((i) => CAUSES.indexOf(i.cause));
  const model = fitSoftmax(rows, y, { classes: CAUSES.length, l2: CAUSE_L2 });
  const probabilities = (prompt: string, reply: string | null) => predictSoftmax(model, causeFeatures(prompt, reply));
  return {
    model,
    probabilities,
    classify: (prompt, reply) => {
      const p = probabilities(prompt, reply);
      return CAUSES[p.indexOf(Math.max(...p))]!;
    },
    record: { data: "synthetic corrections, train phrasings (runtime/ladder/cause-data.ts)", seed, perClass: items.length / CAUSES.length, l2: CAUSE_L2 },
  };
}

let cached: CauseModel | null = null;
/** The model fitted once per process. */
export function causeModel(): CauseModel {
  return (cached ??= trainCauseModel());
}

export function causeQuality(m: CauseModel, items: readonly CauseItem[] = causeItems("heldout", 9077, 12)): CauseQuality {
  const pred = items.map((i) => m.classify(i.prompt, i.reply));
  const perClass = {} as CauseQuality["perClass"];
  let f1sum = 0;
  for (const c of CAUSES) {
    const tp = items.filter((it, k) => it.cause === c && pred[k] === c).length;
    const predicted = pred.filter((p) => p === c).length;
    const actual = items.filter((it) => it.cause === c).length;
    const precision = predicted > 0 ? tp / predicted : null;
    const recall = actual > 0 ? tp / actual : null;
    perClass[c] = { precision, recall, n: actual };
    f1sum += precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  }
  return { items: items.length, accuracy: pred.filter((p, k) => p === items[k]!.cause).length / items.length, perClass, macroF1: f1sum / CAUSES.length, data: "synthetic" };
}
