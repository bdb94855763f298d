import { classify, unhappyWithReply } from "../../classifier/index.js";
import { fitLogistic, LogisticError, predictLogistic } from "../../../learn/index.js";
import type { FeatureSpec } from "../base/schemas.js";
import type { EvalRow } from "./evaluate.js";
import { extractFeatures, type FeatureVector } from "./features.js";
import { buildItems } from "./items.js";
import { interval } from "./interval-row.js";
import { auc, bestKappaCut, brier, cohenKappaBinary, fleissKappa, logLoss } from "./metrics.js";
import type { SignalSource } from "./signals.js";
import { splitBucket } from "./split.js";
import type { TrainingSet } from "./train.js";

/**
 * `engine eval --cv`: the training recipe measured on every labelled item of a set, not only
 * its 20% holdout: five folds that keep sessions whole (fold = split bucket mod 5), a model
 * fitted on four folds predicts the fifth (same features, minimum document frequency 2, the
 * given L2), and the kappa cut is chosen on the four training folds. It measures the recipe on
 * this set alone; the shipped weights are one fit of that recipe on the training side.
 *
 * Example row: `{set: "ab-redial", question: "detect.unhappy@1 (cv)", items: 600, auc: 0.78, …}`.
 */
export function crossValidate(set: TrainingSet, opts: { versions: ReadonlyMap<string, number>; l2: (questionKey: string) => number; features: FeatureSpec; signals: SignalSource | null; resamples?: number; onQuestion?: (questionId: string) => void }): EvalRow[] {
  const rows: EvalRow[] = [];
  const { byQuestion } = buildItems(set.exchanges, set.labels);
  const cache = new Map<string, FeatureVector>();
  for (const [qid, items] of byQuestion) {
    opts.onQuestion?.(qid);
    const version = opts.versions.get(qid);
    const key = `${qid}@${version ?? "?"}`;
    const decided = items.filter((it) => it.majority !== null);
    const fleiss = fleissKappa(items.map((it) => [it.total - it.yes, it.yes]));
    const positives = decided.filter((it) => it.majority === 1).length;
    const base: EvalRow = { set: set.name, question: `${key} (cv)`, split: "cv", synthetic: set.exchanges.length > 0 && set.exchanges.every((e) => e.synthetic), items: items.length, ties: items.length - decided.length, positives, auc: null, brier: null, logLoss: null, kappa: null, aucInterval: null, kappaInterval: null, cut: null, captureKappa: null, labellersFleiss: fleiss.kappa, fleissItems: fleiss.items, note: null };
    if (version === undefined || positives < 5 || decided.length - positives < 5) {
      rows.push({ ...base, note: version === undefined ? `question ${qid} is not in the bank` : "too few items of each class for 5 folds" });
      continue;
    }
    const feats = items.map((it) => {
      let v = cache.get(it.exchange.id);
      if (!v) cache.set(it.exchange.id, (v = extractFeatures(it.exchange, opts.features, opts.signals)));
      return v;
    });
    const fold = items.map((it) => splitBucket(it.exchange.corpus, it.exchange.session_id) % 5);
    const pOut = new Array<number>(items.length).fill(NaN);
    const flagOut = new Array<0 | 1>(items.length).fill(0);
    let failed = 0;
    for (let f = 0; f < 5; f++) {
      const tr = items.map((_, i) => i).filter((i) => fold[i] !== f);
      const te = items.map((_, i) => i).filter((i) => fold[i] === f);
      if (te.length === 0) continue;
      let model;
      try {
        model = fitLogistic(tr.map((i) => feats[i]!), tr.map((i) => (items[i]!.yes / items[i]!.total)), { l2: opts.l2(key), dim: 1 << opts.features.bits });
      } catch (e) {
        if (e instanceof LogisticError) {
          failed++;
          continue;
        }
        throw e;
      }
      const trDecided = tr.filter((i) => items[i]!.majority !== null);
      const cut = bestKappaCut(trDecided.map((i) => predictLogistic(model, feats[i]!)), trDecided.map((i) => items[i]!.majority as 0 | 1));
      for (const i of te) {
        pOut[i] = predictLogistic(model, feats[i]!);
        flagOut[i] = (pOut[i] as number) >= cut ? 1 : 0;
      }
    }
    const idx = items.map((_, i) => i).filter((i) => items[i]!.majority !== null && Number.isFinite(pOut[i]));
    const p = idx.map((i) => pOut[i]!);
    const y = idx.map((i) => items[i]!.majority as 0 | 1);
    const flags = idx.map((i) => flagOut[i]!);
    const pts = idx.map((i, k) => ({ session: `${items[i]!.exchange.corpus}\u0000${items[i]!.exchange.session_id}`, p: p[k]!, y: y[k]!, flag: flags[k]! }));
    rows.push({
      ...base,
      auc: auc(p, y),
      brier: brier(p, y),
      logLoss: logLoss(p, y),
      kappa: cohenKappaBinary(flags, y),
      aucInterval: interval(pts, (xs) => auc(xs.map((x) => x.p), xs.map((x) => x.y)), opts.resamples),
      kappaInterval: interval(pts, (xs) => cohenKappaBinary(xs.map((x) => x.flag), xs.map((x) => x.y)), opts.resamples),
      captureKappa: qid.startsWith("detect.") ? cohenKappaBinary(idx.map((i) => (unhappyWithReply(classify(items[i]!.exchange.prompt, { previousReply: items[i]!.exchange.reply_end })) ? 1 : 0)), y) : null,
      note: failed > 0 ? `${failed} fold(s) could not be fitted (one class)` : null,
    });
  }
  return rows;
}
