import { createHash } from "node:crypto";
import { trainingItemHash } from "../../../core/training-item.js";
import { fitLogistic, LogisticError, predictLogistic, type LogisticModel, type Row } from "../../../learn/index.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import type { FeatureSpec, QuestionWeights, WeightsFile } from "../base/schemas.js";
import { DEFAULT_FEATURES, extractFeatures, type FeatureVector } from "./features.js";
import { buildItems, type Item } from "./items.js";
import { bestKappaCut } from "./metrics.js";
import type { SignalSource } from "./signals.js";
import { isHoldout, SPLIT_METHOD, splitBucket } from "./split.js";
import { roundWeight } from "./weights.js";

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
  /** Generated at train time by the synthetic generator (seed and sessions): its labels are the plan's, not people's. */
  synthetic?: { seed: number; sessions: number } | undefined;
  /** How corpus-native labels were turned into bank labels (e.g. "ukp-taxonomy/1"). */
  labelMap?: string | undefined;
  /** "every-turn" (default): the labelled turns are all the set's turns; "flagged-turns": only turns picked for a failure. */
  population?: "every-turn" | "flagged-turns" | undefined;
}

/** Which sets train a question (see `trainEmbedded`). */
export const SOURCE_POLICY =
  "a question with enough real labels over every turn of a set (5 majority-yes and 5 majority-no) is trained on the real sets alone; otherwise on every set that labels it, synthetic ones (the generator's plan, another seed than any evaluation corpus) included";

export interface TrainOptions {
  /** Question id -> version (from the bank); labels on other ids are skipped with a reason. */
  versions: ReadonlyMap<string, number>;
  /**
   * A fixed L2 strength, "cv": chosen per question from L2_GRID by session-grouped 5-fold
   * cross-validation on the training side (default), or per question ("<id>@<version>" → L2,
   * e.g. the ones a weights file records, to refit it without the search).
   */
  l2?: number | "cv" | ReadonlyMap<string, number>;
  /** Keep at most this many non-zero weights per question: a larger model is refitted on its top features by |weight| (ties to the lower index). */
  maxFeatures?: number;
  features?: FeatureSpec;
  signals?: SignalSource | null;
  includeHoldout?: boolean;
  /** Fewer majority positives or negatives than this leaves the question untrained. */
  minPerClass?: number;
  /** Features seen in fewer training exchanges (of that question) than this are dropped before fitting. Default 2. */
  minDf?: number;
  onProgress?: (done: number, total: number, questionId: string) => void;
}

export const TARGET_DESCRIPTION = "per (question, exchange): yes share of the raters as a soft target, weight 1 (= one row per rater weighted 1/k)";

export function trainEmbedded(sets: readonly TrainingSet[], opts: TrainOptions): WeightsFile {
  const signals = opts.signals ?? null;
  const base = opts.features ?? DEFAULT_FEATURES;
  const features: FeatureSpec = { ...base, captureSignals: base.captureSignals && signals !== null };
  const l2Opt = opts.l2 ?? "cv";
  const minPerClass = opts.minPerClass ?? 5;
  const minDf = opts.minDf ?? 2;
  const includeHoldout = opts.includeHoldout ?? false;

  const pooled = new Map<string, { set: TrainingSet; items: Item[] }[]>();
  const trainedOn: WeightsFile["trainedOn"] = [];
  for (const set of [...sets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const { byQuestion } = buildItems(set.exchanges, set.labels);
    let items = 0;
    const hashes = new Set<string>();
    for (const [qid, list] of byQuestion) {
      const kept = list.filter((it) => includeHoldout || !isHoldout(it.exchange.corpus, it.exchange.session_id));
      items += kept.length;
      for (const it of kept) hashes.add(trainingItemHash(it.exchange.corpus, it.exchange.id));
      pooled.set(qid, [...(pooled.get(qid) ?? []), { set, items: kept }]);
    }
    trainedOn.push({
      set: set.name,
      exchangesSha256: set.exchangesSha256,
      labelsSha256: set.labelsSha256,
      items,
      // Every exchange any question of this set trained on, so that a scorer can find items
      // the weights have already seen (`eval score`'s in-sample check).
      itemHashes: [...hashes].sort(),
      ...(set.synthetic ? { synthetic: { seed: set.synthetic.seed, sessions: set.synthetic.sessions } } : {}),
      ...(set.labelMap ? { labelMap: set.labelMap } : {}),
      ...(set.population ? { population: set.population } : {}),
    });
  }
  const enough = (items: readonly Item[]): boolean => items.filter((it) => it.majority === 1).length >= minPerClass && items.filter((it) => it.majority === 0).length >= minPerClass;

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
    const bySet = pooled.get(qid) as { set: TrainingSet; items: Item[] }[];
    const realOverEveryTurn = bySet.some((x) => !x.set.synthetic && (x.set.population ?? "every-turn") === "every-turn" && enough(x.items));
    const used = realOverEveryTurn ? bySet.filter((x) => !x.set.synthetic) : bySet;
    const items = used.flatMap((x) => x.items);
    const pos = items.filter((it) => it.majority === 1).length;
    const neg = items.filter((it) => it.majority === 0).length;
    if (pos < minPerClass || neg < minPerClass) {
      skipped[key] = `too few labelled items: ${pos} majority-yes and ${neg} majority-no on the training side (need ${minPerClass} of each)`;
      return;
    }
    let rows = dropRare(items.map((it) => featuresOf(it.exchange)), minDf);
    const y = items.map((it) => it.yes / it.total);
    const dim = 1 << features.bits;
    let model;
    let l2: number;
    let cappedFrom: number | null = null;
    try {
      if (l2Opt === "cv") l2 = chooseL2(rows, y, items.map((it) => splitBucket(it.exchange.corpus, it.exchange.session_id) % 5), dim);
      else if (typeof l2Opt === "number") l2 = l2Opt;
      else {
        const fixed = l2Opt.get(key);
        if (fixed === undefined) {
          skipped[key] = `no L2 given for ${key}`;
          return;
        }
        l2 = fixed;
      }
      model = fitLogistic(rows, y, { l2, dim });
      const nonZero = model.coef.reduce((n, c) => n + (c !== 0 ? 1 : 0), 0);
      if (opts.maxFeatures !== undefined && nonZero > opts.maxFeatures) {
        cappedFrom = nonZero;
        rows = keepOnly(rows, topFeatures(model.coef, opts.maxFeatures));
        model = fitLogistic(rows, y, { l2, dim });
      }
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
    const fitted = model;
    const cut = bestKappaCut(
      decided.map(({ i }) => predictLogistic(fitted, rows[i]!)),
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
      l2,
      cut,
      trainedBy: used.map((x) => ({
        set: x.set.name,
        synthetic: x.set.synthetic !== undefined,
        seed: x.set.synthetic?.seed ?? null,
        items: x.items.length,
        positives: roundWeight(x.items.reduce((a, it) => a + it.yes / it.total, 0)),
      })),
      ...(cappedFrom !== null ? { cappedFrom } : {}),
    };
  });
  opts.onProgress?.(qids.length, qids.length, "");
  return {
    schema: "engine-weights/1",
    features,
    l2: typeof l2Opt === "number" ? l2Opt : "cv",
    minDf,
    ...(opts.maxFeatures !== undefined ? { maxFeatures: opts.maxFeatures } : {}),
    target: TARGET_DESCRIPTION,
    split: { method: SPLIT_METHOD, holdoutExcluded: !includeHoldout },
    sourcePolicy: SOURCE_POLICY,
    trainedOn,
    questions,
    signalsFingerprint: features.captureSignals && signals !== null ? signalsFingerprint(trainingExchanges(sets, includeHoldout), signals) : null,
    skipped,
  };
}

/** The `k` features with the largest |weight| (ties to the lower index), ascending. */
function topFeatures(coef: ArrayLike<number>, k: number): Set<number> {
  const nz: number[] = [];
  for (let j = 0; j < coef.length; j++) if (coef[j] !== 0) nz.push(j);
  nz.sort((a, b) => Math.abs(coef[b]!) - Math.abs(coef[a]!) || a - b);
  return new Set(nz.slice(0, k));
}

/** The rows restricted to the kept features. */
function keepOnly(rows: readonly FeatureVector[], keep: ReadonlySet<number>): FeatureVector[] {
  return rows.map((r) => {
    const ks: number[] = [];
    r.idx.forEach((j, k) => {
      if (keep.has(j)) ks.push(k);
    });
    return { idx: Int32Array.from(ks, (k) => r.idx[k]!), val: Float64Array.from(ks, (k) => r.val[k]!) };
  });
}

/** The exchanges training reads: every labelled item of a bank-style question, training side. */
export function trainingExchanges(sets: readonly TrainingSet[], includeHoldout = false): Exchange[] {
  const byId = new Map<string, Exchange>();
  for (const set of sets) {
    for (const list of buildItems(set.exchanges, set.labels).byQuestion.values()) {
      for (const it of list) if (includeHoldout || !isHoldout(it.exchange.corpus, it.exchange.session_id)) byId.set(it.exchange.id, it.exchange);
    }
  }
  return [...byId.values()];
}

/**
 * SHA-256 over the capture classifier's verdicts on the exchanges (sorted by id): the same
 * classifier on the same exchanges always gives the same value.
 */
export function signalsFingerprint(exchanges: readonly Exchange[], signals: SignalSource): string {
  const h = createHash("sha256");
  for (const ex of [...exchanges].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const v = signals(ex.prompt, ex.reply_end);
    h.update(`${ex.id}\u0000${v.kind}\u0000${v.frustration}\u0000${v.signals.join(",")}\n`);
  }
  return h.digest("hex");
}

/** The rows without features seen in fewer than `minDf` rows (a feature seen once mostly memorises its row). */
function dropRare(rows: readonly FeatureVector[], minDf: number): FeatureVector[] {
  if (minDf <= 1) return [...rows];
  const df = new Map<number, number>();
  for (const r of rows) {
    const seen = new Set<number>();
    for (const j of r.idx) {
      if (seen.has(j)) continue;
      seen.add(j);
      df.set(j, (df.get(j) ?? 0) + 1);
    }
  }
  return rows.map((r) => {
    const keep: number[] = [];
    r.idx.forEach((j, k) => {
      if ((df.get(j) ?? 0) >= minDf) keep.push(k);
    });
    return { idx: Int32Array.from(keep, (k) => r.idx[k]!), val: Float64Array.from(keep, (k) => r.val[k]!) };
  });
}

/** The L2 strengths cross-validation chooses from. */
export const L2_GRID = [0.1, 0.3, 1, 3, 10] as const;

/**
 * The stopping tolerance of the cross-validation fits (the final fit keeps fitLogistic's
 * 1e-12). They only rank the grid: a fit stopped at 1e-8 of the starting gradient moves a
 * fold's held-out log loss by far less than the gaps between grid points, and the last,
 * tightest Newton steps are the costly ones at a weak penalty.
 */
export const CV_TOL = 1e-8;

/**
 * The L2 strength with the lowest cross-validated log loss (soft targets) over folds that
 * keep sessions whole; ties go to the stronger penalty. A fold whose training part holds one
 * class is skipped.
 *
 * Each fold walks the grid from the strongest penalty to the weakest, each fit starting where
 * the one before it ended (a warm start: the optimum moves little between neighbouring L2, so
 * Newton needs a few steps instead of a cold start's many, the weak-penalty end being the
 * slowest from zero). Every fit stops at the same tolerance as a cold one (`fitLogistic`).
 */
export function chooseL2(rows: readonly Row[], y: readonly number[], fold: readonly number[], dim: number): number {
  // losses[g][f]: summed log loss of fold f's test rows at L2_GRID[g] (null: fold skipped).
  const losses: (number | null)[][] = L2_GRID.map(() => [null, null, null, null, null]);
  const counts: number[][] = L2_GRID.map(() => [0, 0, 0, 0, 0]);
  for (let f = 0; f < 5; f++) {
    const tr: number[] = [];
    const te: number[] = [];
    fold.forEach((g, i) => (g === f ? te : tr).push(i));
    if (te.length === 0) continue;
    const trRows = tr.map((i) => rows[i]!);
    const trY = tr.map((i) => y[i]!);
    let prev: LogisticModel | undefined;
    for (let g = L2_GRID.length - 1; g >= 0; g--) {
      let m: LogisticModel;
      try {
        m = fitLogistic(trRows, trY, { l2: L2_GRID[g]!, dim, tol: CV_TOL, ...(prev !== undefined ? { init: prev } : {}) });
      } catch (e) {
        if (e instanceof LogisticError) break; // one class in this fold's training part: the same at every L2
        throw e;
      }
      prev = m;
      let loss = 0;
      for (const i of te) {
        const p = Math.min(1 - 1e-15, Math.max(1e-15, predictLogistic(m, rows[i]!)));
        const yi = y[i]!;
        loss -= yi * Math.log(p) + (1 - yi) * Math.log(1 - p);
      }
      losses[g]![f] = loss;
      counts[g]![f] = te.length;
    }
  }
  let best: number = L2_GRID[2];
  let bestLoss = Infinity;
  L2_GRID.forEach((l2, g) => {
    let loss = 0;
    let counted = 0;
    for (let f = 0; f < 5; f++) {
      const l = losses[g]![f];
      if (l === null || l === undefined) continue;
      loss += l;
      counted += counts[g]![f]!;
    }
    if (counted === 0) return;
    const mean = loss / counted;
    if (mean <= bestLoss + 1e-12) {
      bestLoss = mean;
      best = l2;
    }
  });
  return best;
}
