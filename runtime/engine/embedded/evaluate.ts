import { classify, unhappyWithReply } from "../../classifier/index.js";
import type { WeightsFile } from "../base/schemas.js";
import type { Interval } from "./interval.js";
import { interval } from "./interval-row.js";
import { buildItems } from "./items.js";
import { auc, brier, cohenKappaBinary, fleissKappa, logLoss } from "./metrics.js";
import type { Scorer } from "./scorer.js";
import { isHoldout } from "./split.js";
import type { TrainingSet } from "./train.js";

/**
 * `engine eval`: for each data set and question, the shipped model's AUC, Brier score, log
 * loss and Cohen's kappa (at the cut stored with the weights) against the raters' majority on
 * the session-disjoint holdout, beside the raters' own agreement on the same items (Fleiss'
 * kappa, binary, all raters of each item). Tied items (no majority) are left out of the
 * judge's scores and counted. A set the weights were not trained on (not in `trainedOn`, e.g.
 * the bundled synthetic corpus, seed 7, when training generated another seed) is scored on
 * all its items (`split: "all"`); a set of synthetic exchanges is flagged `synthetic`.
 *
 * Example row: `{set: "ab-redial", question: "detect.unhappy@1", items: 118, ties: 6,
 * positives: 14, auc: 0.71, brier: 0.09, logLoss: 0.31, kappa: 0.22, labellersFleiss: 0.35}`.
 */
export interface EvalRow {
  set: string;
  question: string;
  /** Which items were scored: the session-disjoint holdout of a set trained on, all items of a set not trained on, or cross-validation folds. */
  split?: "holdout" | "all" | "cv";
  /** The set's exchanges are synthetic (generated): its figures say nothing about people. */
  synthetic?: boolean;
  /** Holdout items with labels. */
  items: number;
  ties: number;
  positives: number;
  auc: number | null;
  brier: number | null;
  logLoss: number | null;
  kappa: number | null;
  /** Session-block bootstrap 95% percentile intervals (2,000 resamples, seed 1). */
  aucInterval: Interval | null;
  kappaInterval: Interval | null;
  cut: number | null;
  /**
   * The deterministic capture classifier as a baseline on the same items (detect.* questions
   * only): Cohen's kappa of `unhappyWithReply(classify(prompt, {previousReply}))` against the majority.
   */
  captureKappa: number | null;
  labellersFleiss: number | null;
  /** Items with >= 2 raters that the Fleiss figure uses. */
  fleissItems: number;
  /** Why the row has no judge scores, when it has none. */
  note: string | null;
}

export function evaluateEmbedded(sets: readonly TrainingSet[], weights: WeightsFile, scorer: Scorer, opts: { versions: ReadonlyMap<string, number>; holdoutPercent?: number; resamples?: number }): EvalRow[] {
  const rows: EvalRow[] = [];
  for (const set of sets) {
    const { byQuestion } = buildItems(set.exchanges, set.labels);
    const trainedOnIt = weights.trainedOn.some((t) => t.set === set.name);
    const synthetic = set.synthetic !== undefined || (set.exchanges.length > 0 && set.exchanges.every((e) => e.synthetic));
    for (const [qid, all] of byQuestion) {
      const items = trainedOnIt ? all.filter((it) => isHoldout(it.exchange.corpus, it.exchange.session_id, opts.holdoutPercent ?? 20)) : all;
      const version = opts.versions.get(qid);
      const key = `${qid}@${version ?? "?"}`;
      const fleiss = fleissKappa(items.map((it) => [it.total - it.yes, it.yes]));
      const decided = items.filter((it) => it.majority !== null);
      const y = decided.map((it) => it.majority as 0 | 1);
      const base: EvalRow = {
        set: set.name,
        question: key,
        split: trainedOnIt ? "holdout" : "all",
        synthetic,
        items: items.length,
        ties: items.length - decided.length,
        positives: y.filter((v) => v === 1).length,
        auc: null,
        brier: null,
        logLoss: null,
        kappa: null,
        aucInterval: null,
        kappaInterval: null,
        cut: null,
        captureKappa: qid.startsWith("detect.") && decided.length > 0 ? cohenKappaBinary(decided.map((it) => (unhappyWithReply(classify(it.exchange.prompt, { previousReply: it.exchange.reply_end })) ? 1 : 0)), y) : null,
        labellersFleiss: fleiss.kappa,
        fleissItems: fleiss.items,
        note: null,
      };
      const qw = weights.questions[key];
      if (version === undefined || qw === undefined || scorer.unusable !== null) {
        rows.push({ ...base, note: scorer.unusable ?? `no weights for question ${key}` });
        continue;
      }
      if (decided.length === 0) {
        rows.push({ ...base, note: "no holdout items with a majority" });
        continue;
      }
      const p = decided.map((it) => scorer.probabilityMap(it.exchange).get(key) as number);
      const scoredItems = decided.map((it, i) => ({ session: `${it.exchange.corpus}\u0000${it.exchange.session_id}`, p: p[i]!, y: y[i]! }));
      const boot = (f: (xs: readonly { p: number; y: 0 | 1 }[]) => number | null): Interval => interval(scoredItems, f, opts.resamples);
      rows.push({
        ...base,
        auc: auc(p, y),
        brier: brier(p, y),
        logLoss: logLoss(p, y),
        kappa: cohenKappaBinary(p.map((v) => (v >= qw.cut ? 1 : 0)), y),
        aucInterval: boot((xs) => auc(xs.map((x) => x.p), xs.map((x) => x.y))),
        kappaInterval: boot((xs) => cohenKappaBinary(xs.map((x) => (x.p >= qw.cut ? 1 : 0)), xs.map((x) => x.y))),
        cut: qw.cut,
      });
    }
  }
  return rows;
}
