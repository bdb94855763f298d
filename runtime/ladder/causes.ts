/**
 * Sorting a correction by cause (rule gap, missing tool, environment, beyond the model, wrong
 * fact) before any rule is written: the offline answer to the cause nouls
 * (questions/causes.ts). A softmax model (learn/ fitSoftmax) over cue features code can
 * compute from the prompt and the reply before it (families of words per class, the capture
 * classifier's verdict), fitted on the synthetic train phrasings (cause-data.ts). The fit is
 * shipped as data, cues and coefficients together (datasets/weights/ladder-causes.json,
 * read by runtime/ladder-formats/cause-model.ts), so the Stop hook's reflection sorts without fitting
 * and the auditor sorts the same way; a test refits and proves the shipped file equal.
 * Quality is measured on the held-out phrasings and is synthetic.
 *
 * Regenerate the file after changing the cues, the phrasings or the classifier:
 *   npm run build && node -e 'import("./dist/runtime/ladder/causes.js").then((m) => process.stdout.write(m.causeWeightsText()))' > datasets/weights/ladder-causes.json
 *
 * Example: causeModel().classify("their server is down again", "The API returned 503.") -> "environment".
 */
import { fitSoftmax } from "../../learn/index.js";
import { classify } from "../classifier/index.js";
import { CAUSES, type Cause } from "../../schemas/rule-ledger.js";
import { CAUSE_WEIGHTS_SCHEMA, compileCauseModel, cueFeatures, loadCauseWeights, type CauseFeature, type CauseWeights } from "../ladder-formats/index.js";
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

/** The cues as the shipped file states them: a `reply.` cue reads the reply, the others the prompt. */
export function causeFeatureSpec(): CauseFeature[] {
  return [
    ...CUES.map(([name, re]): CauseFeature => ({ name, on: name.startsWith("reply.") ? "reply" : "prompt", pattern: re.source, flags: re.flags })),
    { name: "verdict.correction", on: "verdict", kind: "correction" },
    { name: "verdict.directive", on: "verdict", kind: "directive" },
  ];
}

const features = cueFeatures(causeFeatureSpec());

export function causeFeatures(prompt: string, reply: string | null): number[] {
  return features(prompt, reply, classify(prompt, { previousReply: reply }).kind);
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
  /** The coefficients in use (rounded as shipped), and where they came from. */
  weights: CauseWeights;
  source: "shipped" | "fitted";
  /** P(class) in CAUSES order: the five nouls' answers. */
  probabilities(prompt: string, reply: string | null): number[];
  classify(prompt: string, reply: string | null): Cause;
  /**
   * The class, or "undecided" when no cue of any class fires: the model's answer is then its
   * constant default vector (whose top class is beyond_model), which says nothing about this
   * correction. The audit keeps such a correction as undecided (it may still name a rule or
   * become a gap), never closes it as another cause.
   */
  sort(prompt: string, reply: string | null): Cause | "undecided";
}



export const CAUSE_L2 = 0.5;
/** Decimals the shipped coefficients keep: the file is text, and a refit must give the same text. */
const DECIMALS = 6;
const round = (x: number): number => Math.round(x * 10 ** DECIMALS) / 10 ** DECIMALS + 0;

function fromWeights(weights: CauseWeights, source: CauseModel["source"]): CauseModel {
  const m = compileCauseModel(weights);
  const kind = (prompt: string, reply: string | null) => classify(prompt, { previousReply: reply }).kind;
  return {
    weights,
    source,
    probabilities: (prompt, reply) => m.probabilities(prompt, reply, kind(prompt, reply)),
    classify: (prompt, reply) => m.classify(prompt, reply, kind(prompt, reply)) as Cause,
    // A cue read off the prompt or the reply (the capture verdict alone is no cue).
    sort: (prompt, reply) => (m.features(prompt, reply, "none").some((x) => x !== 0) ? (m.classify(prompt, reply, kind(prompt, reply)) as Cause) : "undecided"),
  };
}

export function trainCauseModel(items: readonly CauseItem[] = causeItems("train", 2211, 24), seed = 2211): CauseModel {
  const rows = items.map((i) => causeFeatures(i.prompt, i.reply));
  const y = items.map((i) => CAUSES.indexOf(i.cause));
  const fit = fitSoftmax(rows, y, { classes: CAUSES.length, l2: CAUSE_L2 });
  const weights: CauseWeights = {
    schema: CAUSE_WEIGHTS_SCHEMA,
    classes: [...CAUSES],
    features: causeFeatureSpec(),
    W: fit.W.map((row) => row.map(round)),
    b: fit.b.map(round),
    record: { data: "synthetic corrections, train phrasings (runtime/ladder/cause-data.ts)", seed, items: items.length, l2: CAUSE_L2 },
  };
  return fromWeights(weights, "fitted");
}

/** The shipped file's text as a refit writes it (the test compares the two). */
export function causeWeightsText(m: CauseModel = trainCauseModel()): string {
  return `${JSON.stringify(m.weights, null, 1)}\n`;
}

let cached: CauseModel | null = null;
/** The shipped model (the one the Stop hook uses); fitted once per process only when a build has no file. */
export function causeModel(): CauseModel {
  if (cached !== null) return cached;
  const shipped = loadCauseWeights();
  return (cached = shipped === null ? trainCauseModel() : fromWeights(shipped, "shipped"));
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
