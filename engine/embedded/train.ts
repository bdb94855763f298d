import { fitLogistic, LogisticError, predictLogistic } from "../../learn/logistic.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Label } from "../../schemas/label.js";
import type { FeatureSpec, QuestionWeights, WeightsFile } from "../schemas.js";
import { DEFAULT_FEATURES, extractFeatures, type FeatureVector } from "./features.js";
import { buildItems, type Item } from "./items.js";
import { bestKappaCut } from "./metrics.js";
import type { SignalSource } from "./signals.js";
import { isHoldout, SPLIT_METHOD } from "./split.js";

/**
 * Trains the embedded lane: one L2 logistic model per question over the hashed features of
 * the labelled exchanges of every set given, on the training side of the session-disjoint
 * split (the holdout is left out unless `includeHoldout`). Deterministic: the same sets give
 * the same weights file byte for byte (see `serialiseWeights`).
 *
 * Target: each (question, exchange) is one item with the raters' yes share as a soft target
 * and weight 1 (the same optimum as one row per rater weighted 1/k).
 *
 * Example: `trainEmbedded([{name: "ab-redial", …}], {versions: new Map([["detect.unhappy", 1]])})`
 * -> `{questions: {"detect.unhappy@1": {n: 480, positives: 61.3, cut: 0.21, …}}, skipped: {}}`.
 */
export interface TrainingSet {
  name: string;
  exchanges: readonly Exchange[];
  labels: readonly Label[];
  exchangesSha256: string;
  labelsSha256: string;
}

export interface TrainOptions {
  /** Question id -> version (from the bank); labels on other ids are skipped with a reason. */
  versions: ReadonlyMap<string, number>;
  l2?: number;
  features?: FeatureSpec;
  signals?: SignalSource | null;
  includeHoldout?: boolean;
  /** Fewer majority positives or negatives than this leaves the question untrained. */
  minPerClass?: number;
  onProgress?: (done: number, total: number, questionId: string) => void;
}

export const TARGET_DESCRIPTION = "per (question, exchange): yes share of the raters as a soft target, weight 1 (= one row per rater weighted 1/k)";

export function trainEmbedded(sets: readonly TrainingSet[], opts: TrainOptions): WeightsFile {
  const signals = opts.signals ?? null;
  const base = opts.features ?? DEFAULT_FEATURES;
  const features: FeatureSpec = { ...base, captureSignals: base.captureSignals && signals !== null };
  const l2 = opts.l2 ?? 1;
  const minPerClass = opts.minPerClass ?? 5;
  const includeHoldout = opts.includeHoldout ?? false;

  const pooled = new Map<string, Item[]>();
  const trainedOn: WeightsFile["trainedOn"] = [];
  for (const set of [...sets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const { byQuestion } = buildItems(set.exchanges, set.labels);
    let items = 0;
    for (const [qid, list] of byQuestion) {
      const kept = list.filter((it) => includeHoldout || !isHoldout(it.exchange.corpus, it.exchange.session_id));
      items += kept.length;
      pooled.set(qid, [...(pooled.get(qid) ?? []), ...kept]);
    }
    trainedOn.push({ set: set.name, exchangesSha256: set.exchangesSha256, labelsSha256: set.labelsSha256, items });
  }

  const questions: Record<string, QuestionWeights> = {};
  const skipped: Record<string, string> = {};
  const cache = new Map<string, FeatureVector>();
  const featuresOf = (ex: Exchange): FeatureVector => {
    let v = cache.get(ex.id);
    if (!v) cache.set(ex.id, (v = extractFeatures(ex, features, signals)));
    return v;
  };
  const qids = [...pooled.keys()].sort();
  qids.forEach((qid, qi) => {
    opts.onProgress?.(qi, qids.length, qid);
    const version = opts.versions.get(qid);
    if (version === undefined) {
      skipped[qid] = `question ${qid} is not in the bank`;
      return;
    }
    const key = `${qid}@${version}`;
    const items = pooled.get(qid) as Item[];
    const pos = items.filter((it) => it.majority === 1).length;
    const neg = items.filter((it) => it.majority === 0).length;
    if (pos < minPerClass || neg < minPerClass) {
      skipped[key] = `too few labelled items: ${pos} majority-yes and ${neg} majority-no on the training side (need ${minPerClass} of each)`;
      return;
    }
    const rows = items.map((it) => featuresOf(it.exchange));
    const y = items.map((it) => it.yes / it.total);
    let model;
    try {
      model = fitLogistic(rows, y, { l2, dim: 1 << features.bits });
    } catch (e) {
      if (e instanceof LogisticError) {
        skipped[key] = e.message;
        return;
      }
      throw e;
    }
    const idx: number[] = [];
    const w: number[] = [];
    model.coef.forEach((c, j) => {
      if (c !== 0) {
        idx.push(j);
        w.push(c);
      }
    });
    const decided = items.map((it, i) => ({ it, i })).filter(({ it }) => it.majority !== null);
    const cut = bestKappaCut(
      decided.map(({ i }) => predictLogistic(model, rows[i] as FeatureVector)),
      decided.map(({ it }) => it.majority as 0 | 1),
    );
    questions[key] = {
      intercept: model.intercept,
      idx,
      w,
      n: items.length,
      positives: y.reduce((a, b) => a + b, 0),
      converged: model.converged,
      iterations: model.iterations,
      cut,
    };
  });
  opts.onProgress?.(qids.length, qids.length, "");
  return {
    schema: "engine-weights/1",
    features,
    l2,
    target: TARGET_DESCRIPTION,
    split: { method: SPLIT_METHOD, holdoutExcluded: !includeHoldout },
    trainedOn,
    questions,
    skipped,
  };
}
