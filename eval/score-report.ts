import { questionAgreement, type AgreementLabel, type QuestionAgreement } from "./agreement-report.js";
import { EvalInputError } from "./errors.js";
import { detectorMetricsStatistic, METRICS, type DetectorPrediction, type Metric, type ScoredGoldItem } from "./detection-metrics.js";
import { latestDecisions, decisionKey, resolveGold, votesByItem, type Decision, type GoldStatus } from "./adjudication.js";
import { ppiMeanCi } from "./ppi-mean.js";
import { clusteredPpiMeanCi, itemsShareSessions, stratifiedPpiMeanCi, type StratumInput } from "./ppi-design.js";
import { sessionBlockBootstrap, type BootstrapResult, type FigureInterval } from "./session-block-bootstrap.js";
import type { SplitSide } from "./split.js";
import type { TrainingOverlap } from "./training-overlap.js";

/**
 * Scores detectors on the majority labels of the gold items of one split: detection
 * precision, recall, F1, class accuracy given detection (corpus-weighted, Hajek), each
 * detector's kappa with the majority (unweighted and weighted), its coverage and the strict
 * view where an unscored item counts against it, with one paired session-block bootstrap for
 * all of them and every pairwise difference; the labellers' own agreement on the same items
 * beside it; a PPI++ interval for the corpus failure rate; and, per detector given a training
 * record, how many of the items it was trained on (in-sample).
 *
 * Gold verdict of an item: the 2-of-3 majority of its `detectQuestion` labels (yes/no); a tie
 * leaves the item out. Gold class: the majority of its `classQuestion` labels among gold
 * failures ("none" or a tie means no gold class, so the item is out of class accuracy).
 *
 * Example (AB-ReDial holdout: 145 items in 80 sessions, three real raters, synthetic
 * detectors): v4 `figures.f1` `{point: 0.552, lower: 0.379, upper: 0.697}`, the v3 - v4 F1
 * difference `{point: -0.376, lower: -0.513, upper: -0.235}`, PPI++ failure rate 0.0888
 * [0.0611, 0.1164] at 90%.
 */
export interface ScoreGold {
  id: string;
  session: string;
  weight: number;
  split: SplitSide;
}

export interface ScorePrediction {
  exchange_id: string;
  detector: string;
  detected: boolean | null;
  class: string | null;
  p_failure?: number | null | undefined;
}

export interface ScoreOptions {
  split: SplitSide | "all";
  detectQuestion: string;
  classQuestion: string;
  /** Detector names in report order; default every detector in the predictions, sorted. */
  detectors?: readonly string[];
  /** Labellers whose labels form the majority; default all. */
  labelers?: readonly string[];
  resamples: number;
  seed: number;
  level?: number;
  minVotes?: number;
  /**
   * PPI++ for the corpus failure rate with this detector's predictions; null to skip. `method`
   * (default auto): clustered when two labelled items share a session, else plain; stratified
   * post-stratifies on the detector's own verdict (yes / no), each stratum its own lambda and
   * its corpus share. `sessionOf` gives the unlabelled items' sessions (the gold items' are
   * known); an item without one is its own session.
   */
  ppi?: { detector: string; alpha?: number; method?: PpiMethodChoice; sessionOf?: ReadonlyMap<string, string> } | null;
  /** Per detector, its training record against the gold items (`trainingOverlap`). */
  training?: ReadonlyMap<string, TrainingOverlap>;
  /**
   * Adjudicators' decisions (`eval/adjudication.ts`): where one is in force the gold is the
   * label it picked, or none when it said ambiguous; elsewhere the raw majority. The labellers'
   * own agreement is still computed on the raw labels.
   */
  adjudications?: readonly Decision[];
}

/** A detector's training record against the scored items of this split. */
export interface InSample {
  source: string;
  /** Scored items (gold verdict) it was trained on. */
  items: number;
  /** Scored items whose corpus is a set recorded without item hashes. */
  possibly: number;
  /** Scored items of the split. */
  of: number;
  unknownSets: readonly string[];
}

export interface DetectorScore {
  name: string;
  /** Scored items (gold verdict and a scored prediction). */
  scored: number;
  /** Gold items with no prediction or `detected: null`. */
  unscoredDetection: number;
  /** Detected gold failures with a gold class but no predicted class. */
  unscoredClass: number;
  /** Items with a gold verdict (the coverage denominator, unweighted). */
  eligible: number;
  /** Detected gold failures with a gold class (the class coverage denominator, unweighted). */
  classable: number;
  /** Null without a training record. */
  inSample: InSample | null;
  figures: Record<Metric, FigureInterval>;
}

export type PpiMethodChoice = "auto" | "plain" | "clustered" | "stratified";

/** The corpus failure rate by PPI++: which method, why, and its interval. */
export interface PpiReport {
  detector: string;
  method: "plain" | "clustered" | "stratified";
  /** What was asked (auto picks clustered where labelled items share sessions). */
  asked: PpiMethodChoice;
  why: string;
  estimate: number;
  lower: number;
  upper: number;
  level: number;
  standardError: number;
  lambda: number | Record<string, number>;
  labelled: number;
  unlabelled: number;
  /** Sessions among the labelled items (clustered and stratified); null for plain. */
  labelledSessions: number | null;
  /** Unlabelled items whose session was unknown (each counted as its own session). */
  unlabelledWithoutSession: number;
  insufficient: boolean;
  clipped: boolean;
}

export interface ScoreReport {
  split: SplitSide | "all";
  items: number;
  /** Items with a gold verdict. */
  scored: number;
  /** Items whose labellers tied or gave too few labels, or that an adjudicator called ambiguous (left out). */
  noMajority: number;
  /** What adjudication did to the detect question's gold on these items (null without decisions). */
  adjudication: {
    adjudicated: number;
    overturned: number;
    tiesResolved: number;
    ambiguous: number;
    goldBefore: number;
    goldAfter: number;
    /** Each detector's unweighted kappa with the gold before adjudication (the raw majority; point only) and after (this report's). */
    kappa: { detector: string; before: number | null; after: number | null }[];
  } | null;
  goldFailures: number;
  weightSum: number;
  bootstrap: Omit<BootstrapResult, "figures">;
  detectors: DetectorScore[];
  differences: { a: string; b: string; metric: Metric; point: number | null; lower: number | null; upper: number | null; emptyReplicates: number }[];
  labellers: { detect: QuestionAgreement | null; class: QuestionAgreement | null };
  ppi: PpiReport | null;
  /** Every figure by name, for the check gate. */
  figures: FigureInterval[];
}

type Gold = { status: GoldStatus; value: AgreementLabel["value"] | null; overturned: boolean };

/** Each item's gold on a question: the decision in force, else the raw majority. */
function golds(labels: readonly AgreementLabel[], question: string, ids: ReadonlySet<string>, labelers: readonly string[] | undefined, minVotes: number, decisions: readonly Decision[]): Map<string, Gold> {
  const latest = latestDecisions(decisions);
  const out = new Map<string, Gold>();
  for (const [id, votes] of votesByItem(labels, question, labelers)) {
    if (ids.has(id)) out.set(id, resolveGold(votes, latest.get(decisionKey(id, question)), minVotes));
  }
  return out;
}
const hasGold = (g: Gold | undefined): g is Gold & { value: AgreementLabel["value"] } => g !== undefined && (g.status === "majority" || g.status === "adjudicated");

export function scoreDetectors(gold: readonly ScoreGold[], labels: readonly AgreementLabel[], predictions: readonly ScorePrediction[], opts: ScoreOptions): ScoreReport {
  const items = gold.filter((g) => opts.split === "all" || g.split === opts.split);
  if (items.length === 0) throw new EvalInputError("EMPTY", `no gold items in the ${opts.split} split`, "at least one", "0");
  const ids = new Set(items.map((g) => g.id));
  const labelerSet = opts.labelers ? new Set(opts.labelers) : null;
  const minVotes = opts.minVotes ?? 2;
  const decisions = opts.adjudications ?? [];
  const detect = golds(labels, opts.detectQuestion, ids, opts.labelers, minVotes, decisions);
  if (detect.size === 0) throw new EvalInputError("EMPTY", `no labels for ${opts.detectQuestion} on the ${opts.split} items`, "labels from the labellers", "none");
  const cls = golds(labels, opts.classQuestion, ids, opts.labelers, minVotes, decisions);

  const detectorNames = opts.detectors ? [...opts.detectors] : [...new Set(predictions.map((p) => p.detector))].sort();
  if (detectorNames.length === 0) throw new EvalInputError("EMPTY", "no detector predictions", "at least one detector", "none");
  const byDetector = new Map(detectorNames.map((d) => [d, new Map<string, ScorePrediction>()]));
  for (const p of predictions) {
    const m = byDetector.get(p.detector);
    if (!m) continue;
    if (m.has(p.exchange_id)) throw new EvalInputError("BAD_VALUE", `two predictions from ${p.detector}`, "one per exchange and detector", p.exchange_id);
    m.set(p.exchange_id, p);
  }
  for (const [d, m] of byDetector) if (m.size === 0) throw new EvalInputError("BAD_VALUE", `detector ${d} has no predictions`, "predictions for every listed detector", "none");

  const scoredItems: ScoredGoldItem[] = items.map((g) => {
    const m = detect.get(g.id);
    if (!hasGold(m)) return { goldFailure: null, goldClass: null, weight: g.weight };
    if (typeof m.value !== "boolean") throw new EvalInputError("BAD_VALUE", `labels of ${opts.detectQuestion}`, "yes/no answers", JSON.stringify(m.value));
    const c = cls.get(g.id);
    const goldClass = m.value && hasGold(c) && typeof c.value === "string" && c.value !== "none" ? c.value : null;
    return { goldFailure: m.value, goldClass, weight: g.weight };
  });
  const preds: (DetectorPrediction | undefined)[][] = detectorNames.map((d) => items.map((g) => byDetector.get(d)?.get(g.id)));
  const stat = detectorMetricsStatistic(scoredItems, detectorNames, preds);
  const boot = sessionBlockBootstrap(stat, items.map((g) => g.session), { resamples: opts.resamples, seed: opts.seed, ...(opts.level !== undefined ? { level: opts.level } : {}) });
  const fig = new Map(boot.figures.map((f) => [f.name, f]));

  const detectors: DetectorScore[] = detectorNames.map((name, d) => {
    let scored = 0;
    let unscoredDetection = 0;
    let unscoredClass = 0;
    let eligible = 0;
    let classable = 0;
    let trained = 0;
    let possibly = 0;
    const overlap = opts.training?.get(name);
    scoredItems.forEach((g, i) => {
      if (g.goldFailure === null) return;
      eligible++;
      const id = items[i]!.id;
      if (overlap?.inSample.has(id)) trained++;
      else if (overlap?.possiblyInSample.has(id)) possibly++;
      const p = preds[d]?.[i];
      if (!p || p.detected === null) unscoredDetection++;
      else {
        scored++;
        if (p.detected && g.goldFailure && g.goldClass !== null) {
          classable++;
          if (p.class === null) unscoredClass++;
        }
      }
    });
    const figures = Object.fromEntries(METRICS.map((m) => [m, fig.get(`${name}.${m}`) as FigureInterval])) as Record<Metric, FigureInterval>;
    const inSample: InSample | null = overlap ? { source: overlap.source, items: trained, possibly, of: eligible, unknownSets: overlap.unknownSets } : null;
    return { name, scored, unscoredDetection, unscoredClass, eligible, classable, inSample, figures };
  });
  const differences: ScoreReport["differences"] = [];
  for (let a = 0; a < detectorNames.length; a++) {
    for (let b = a + 1; b < detectorNames.length; b++) {
      for (const metric of METRICS) {
        const f = fig.get(`${detectorNames[a]}-${detectorNames[b]}.${metric}`) as FigureInterval;
        differences.push({ a: detectorNames[a]!, b: detectorNames[b]!, metric, point: f.point, lower: f.lower, upper: f.upper, emptyReplicates: f.emptyReplicates });
      }
    }
  }

  // The labellers' own agreement on the same items, beside the judges' kappa.
  const sessionOf = new Map(items.map((g) => [g.id, g.session]));
  const agreeOpts = { sessionOf, resamples: opts.resamples, seed: opts.seed, minVotes, ...(opts.level !== undefined ? { level: opts.level } : {}), ...(opts.labelers ? { labelers: opts.labelers } : {}) };
  const inScope = (q: string) => labels.filter((l) => l.question === q && ids.has(l.exchange_id) && (!labelerSet || labelerSet.has(l.labeler)));
  const detectLabels = inScope(opts.detectQuestion);
  const goldFailureIds = new Set(items.filter((_, i) => scoredItems[i]?.goldFailure === true).map((g) => g.id));
  const classLabels = inScope(opts.classQuestion).filter((l) => goldFailureIds.has(l.exchange_id));
  const labellers = {
    detect: detectLabels.length > 0 ? questionAgreement(opts.detectQuestion, detectLabels, agreeOpts) : null,
    class: classLabels.length > 0 ? questionAgreement(opts.classQuestion, classLabels, agreeOpts) : null,
  };

  let ppi: ScoreReport["ppi"] = null;
  if (opts.ppi) {
    const name = opts.ppi.detector;
    const all = byDetector.get(name);
    if (!all) throw new EvalInputError("BAD_VALUE", `PPI detector ${name} was not scored`, "one of the scored detectors", detectorNames.join(", "));
    const value = (p: ScorePrediction): number => (typeof p.p_failure === "number" ? p.p_failure : p.detected ? 1 : 0);
    const y: number[] = [];
    const yhat: number[] = [];
    const w: number[] = [];
    const sess: string[] = [];
    const verdict: boolean[] = [];
    items.forEach((it, i) => {
      const g = scoredItems[i]!;
      const p = all.get(it.id);
      if (g.goldFailure === null || !p || p.detected === null) return;
      y.push(g.goldFailure ? 1 : 0);
      yhat.push(value(p));
      w.push(g.weight);
      sess.push(it.session);
      verdict.push(p.detected);
    });
    const unl = [...all.values()].filter((p) => p.detected !== null);
    const unlabelled = unl.map(value);
    if (y.length > 0 && unlabelled.length > 0) {
      const alpha = opts.ppi.alpha ?? 0.1;
      const asked = opts.ppi.method ?? "auto";
      let unknown = 0;
      const goldSession = new Map(gold.map((g) => [g.id, g.session]));
      const unlSessions = unl.map((p) => {
        const s = goldSession.get(p.exchange_id) ?? opts.ppi?.sessionOf?.get(p.exchange_id);
        if (s !== undefined) return s;
        unknown++;
        return `item:${p.exchange_id}`;
      });
      const shared = itemsShareSessions(sess);
      const method = asked === "auto" ? (shared ? "clustered" : "plain") : asked;
      const why = asked !== "auto" ? "asked" : shared ? `labelled items share sessions (${new Set(sess).size} sessions for ${sess.length} items)` : "no two labelled items share a session";
      const base = { detector: name, method, asked, why, unlabelledWithoutSession: method === "plain" ? 0 : unknown } as const;
      if (method === "plain") {
        const r = ppiMeanCi(y, yhat, unlabelled, { alpha, weights: w });
        ppi = { ...base, estimate: r.estimate, lower: r.lower, upper: r.upper, level: r.level, standardError: r.standardError, lambda: r.lambda, labelled: r.labelled, unlabelled: r.unlabelled, labelledSessions: null, insufficient: r.insufficient, clipped: r.clipped };
      } else if (method === "clustered") {
        const r = clusteredPpiMeanCi({ y, yhat, clusters: sess, weights: w, yhatUnlabelled: unlabelled, clustersUnlabelled: unlSessions }, { alpha });
        ppi = { ...base, estimate: r.estimate, lower: r.lower, upper: r.upper, level: r.level, standardError: r.standardError, lambda: r.lambda, labelled: r.labelled, unlabelled: r.unlabelled, labelledSessions: r.labelledClusters, insufficient: r.insufficient, clipped: r.clipped };
      } else {
        const strata: StratumInput[] = [];
        for (const v of [true, false]) {
          const li = y.map((_, i) => i).filter((i) => verdict[i] === v);
          const ui = unl.map((_, j) => j).filter((j) => unl[j]!.detected === v);
          if (ui.length === 0) continue;
          if (li.length === 0) throw new EvalInputError("EMPTY", `stratified PPI: no labelled item where ${name} says ${v ? "yes" : "no"}`, "labelled items in every stratum the corpus has", `0 of ${ui.length} corpus items`);
          strata.push({
            stratum: v ? "detected" : "not detected",
            size: ui.length,
            y: li.map((i) => y[i]!), yhat: li.map((i) => yhat[i]!), clusters: li.map((i) => sess[i]!), weights: li.map((i) => w[i]!),
            yhatUnlabelled: ui.map((j) => unlabelled[j]!), clustersUnlabelled: ui.map((j) => unlSessions[j]!),
          });
        }
        const r = stratifiedPpiMeanCi(strata, { alpha });
        ppi = { ...base, estimate: r.estimate, lower: r.lower, upper: r.upper, level: r.level, standardError: r.standardError, lambda: r.lambda, labelled: r.labelled, unlabelled: r.unlabelled, labelledSessions: r.labelledClusters, insufficient: r.insufficient, clipped: r.clipped };
      }
    }
  }

  const { figures, ...bootMeta } = boot;
  const rawDetect = decisions.length === 0 ? detect : golds(labels, opts.detectQuestion, ids, opts.labelers, minVotes, []);
  // The same detectors on the raw majority, for their kappa before adjudication (point figures: one resample).
  const rawKappa = decisions.length === 0 ? null : new Map(scoreDetectors(gold, labels, predictions, { ...opts, adjudications: [], resamples: 1, ppi: null, training: new Map() }).detectors.map((d) => [d.name, d.figures.kappa.point]));
  return {
    split: opts.split,
    items: items.length,
    scored: scoredItems.filter((g) => g.goldFailure !== null).length,
    noMajority: scoredItems.filter((g) => g.goldFailure === null).length,
    adjudication:
      decisions.length === 0
        ? null
        : {
            adjudicated: [...detect.values()].filter((g) => g.status === "adjudicated").length,
            overturned: [...detect.values()].filter((g) => g.overturned).length,
            tiesResolved: [...detect.entries()].filter(([id, g]) => g.status === "adjudicated" && !hasGold(rawDetect.get(id))).length,
            ambiguous: [...detect.values()].filter((g) => g.status === "ambiguous").length,
            goldBefore: [...rawDetect.values()].filter(hasGold).length,
            goldAfter: [...detect.values()].filter(hasGold).length,
            kappa: detectors.map((d) => ({ detector: d.name, before: rawKappa?.get(d.name) ?? null, after: d.figures.kappa.point })),
          },
    goldFailures: scoredItems.filter((g) => g.goldFailure === true).length,
    weightSum: items.reduce((s, g) => s + g.weight, 0),
    bootstrap: bootMeta,
    detectors,
    differences,
    labellers,
    ppi,
    figures,
  };
}
