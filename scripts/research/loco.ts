// Leave-one-corpus-out: for each corpus, the embedded lane's `detect.unhappy` recipe trained on
// the OTHER trainable corpora only (each corpus weighted to the same total, so 5,000 DBDC3
// turns do not drown 600 AB-ReDial ones), scored on the left-out one; USS (never trainable)
// is scored by a model of all the trainable corpora. L2 and the cut are chosen without the
// left-out corpus: inner leave-one-corpus-out over the training corpora (the L2 with the best
// mean inner AUC; the cut that maximises kappa on the pooled inner out-of-corpus predictions).
// Beside it, on the same items, the capture classifier (`unhappyWithReply`), which nothing is
// fitted to here, and the crowd's own agreement.
//
// Example: `locoRun(corpora, {features: hashed}).rows[0]` -> `{target: "ab-redial", trainedOn:
// ["conture", "dbdc3"], judge: {auc: 0.71, kappa: 0.2, …}, capture: {f1: 0.29, …}, …}`.
import { fitLogistic, predictLogistic, type Row } from "../../learn/index.js";
import { classify, unhappyWithReply } from "../../runtime/classifier/index.js";
import type { Item } from "../../runtime/engine/embedded/items.js";
import { interval } from "../../runtime/engine/embedded/interval-row.js";
import type { Interval } from "../../runtime/engine/embedded/interval.js";
import { auc, bestKappaCut, cohenKappaBinary } from "../../runtime/engine/embedded/metrics.js";
import { splitBucket } from "../../runtime/engine/embedded/split.js";
import type { LocoCorpus } from "./loco-data.js";

export interface Flags {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  kappa: number | null;
  flagged: number;
  f1Interval: Interval;
  kappaInterval: Interval;
}

export interface LocoRow {
  target: string;
  trainedOn: string[];
  items: number;
  positives: number;
  l2: number;
  cut: number;
  judge: Flags & { auc: number | null; aucInterval: Interval };
  capture: Flags;
  crowdKappa: number | null;
  crowdNote: string;
}

export interface LocoOptions {
  /** Features of one item (sparse, indexes below `dim`). */
  features: (it: Item) => Row & { idx: Int32Array; val: Float64Array };
  dim: number;
  l2Grid?: readonly number[];
  resamples?: number;
  /** Only these corpora train (default: every trainable one). */
  trainOn?: readonly string[];
  /** At most this many items of one training corpus (the first by session order of a seeded hash), to keep fits small. */
  capPerCorpus?: number;
}

type Point = { session: string; p: number; y: 0 | 1; flag: 0 | 1; capture: 0 | 1 };

function flagsOf(points: readonly Point[], key: "flag" | "capture", resamples: number): Flags {
  const score = (xs: readonly Point[]): { p: number | null; r: number | null; f1: number | null; k: number | null; n: number } => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const x of xs) {
      if (x[key] === 1 && x.y === 1) tp++;
      else if (x[key] === 1) fp++;
      else if (x.y === 1) fn++;
    }
    const p = tp + fp > 0 ? tp / (tp + fp) : null;
    const r = tp + fn > 0 ? tp / (tp + fn) : null;
    const f1 = tp > 0 && p !== null && r !== null ? (2 * p * r) / (p + r) : tp + fp + fn > 0 ? 0 : null;
    return { p, r, f1, k: cohenKappaBinary(xs.map((x) => x[key]), xs.map((x) => x.y)), n: tp + fp };
  };
  const s = score(points);
  return {
    precision: s.p,
    recall: s.r,
    f1: s.f1,
    kappa: s.k,
    flagged: s.n,
    f1Interval: interval(points, (xs) => score(xs).f1, resamples),
    kappaInterval: interval(points, (xs) => score(xs).k, resamples),
  };
}

const session = (it: Item): string => `${it.exchange.corpus}\u0000${it.exchange.session_id}`;

/** A fit over the training corpora, each weighted to the same total. */
function fit(train: readonly { name: string; items: readonly Item[] }[], opts: LocoOptions, l2: number) {
  const rows: Row[] = [];
  const y: number[] = [];
  const w: number[] = [];
  const total = train.reduce((n, c) => n + c.items.length, 0);
  for (const c of train) {
    const weight = total / (train.length * c.items.length);
    for (const it of c.items) {
      rows.push(opts.features(it));
      y.push(it.yes / it.total);
      w.push(weight);
    }
  }
  return fitLogistic(rows, y, { l2, dim: opts.dim, sampleWeights: w, maxIter: 50 });
}

const decided = (items: readonly Item[]): Item[] => items.filter((it) => it.majority !== null);

/** The L2 and cut chosen on the training corpora alone (inner leave-one-corpus-out). */
function choose(given: readonly { name: string; items: readonly Item[] }[], opts: LocoOptions): { l2: number; cut: number } {
  const grid = opts.l2Grid ?? [1];
  // One training corpus: three session folds of it stand in for the inner corpora.
  const train = given.length >= 2 ? given : given.flatMap((c) => [0, 1, 2].map((f) => ({ name: `${c.name}#${f}`, items: c.items.filter((it) => splitBucket(it.exchange.corpus, it.exchange.session_id) % 3 === f) })));
  if (train.length < 2) return { l2: grid[0]!, cut: 0.5 };
  let best = { l2: grid[0]!, score: -Infinity, p: [] as number[], y: [] as (0 | 1)[] };
  for (const l2 of grid) {
    const aucs: number[] = [];
    const p: number[] = [];
    const y: (0 | 1)[] = [];
    for (const held of train) {
      const m = fit(train.filter((c) => c !== held), opts, l2);
      const d = decided(held.items);
      const ps = d.map((it) => predictLogistic(m, opts.features(it)));
      const ys = d.map((it) => it.majority as 0 | 1);
      aucs.push(auc(ps, ys) ?? 0.5);
      p.push(...ps);
      y.push(...ys);
    }
    const mean = aucs.reduce((a, b) => a + b, 0) / aucs.length;
    if (mean > best.score) best = { l2, score: mean, p, y };
  }
  return { l2: best.l2, cut: bestKappaCut(best.p, best.y) };
}

/** Every `step`-th session (by a stable order) until `cap` items: a deterministic subsample that keeps sessions whole. */
export function capItems(items: readonly Item[], cap: number | undefined): Item[] {
  if (cap === undefined || items.length <= cap) return [...items];
  const bySession = new Map<string, Item[]>();
  for (const it of items) bySession.set(session(it), [...(bySession.get(session(it)) ?? []), it]);
  const keys = [...bySession.keys()].sort();
  const step = items.length / cap;
  const out: Item[] = [];
  for (let k = 0; k < keys.length && out.length < cap; k += Math.max(1, Math.floor(step))) out.push(...bySession.get(keys[k]!)!);
  return out;
}

export function locoRun(corpora: readonly LocoCorpus[], opts: LocoOptions, log: (line: string) => void = () => {}): LocoRow[] {
  const resamples = opts.resamples ?? 1000;
  const trainable = corpora.filter((c) => c.trainable && (opts.trainOn === undefined || opts.trainOn.includes(c.name))).map((c) => ({ name: c.name, items: capItems(c.items, opts.capPerCorpus) }));
  const rows: LocoRow[] = [];
  for (const target of corpora) {
    const train = trainable.filter((c) => c.name !== target.name);
    if (train.length === 0) continue;
    log(`loco: ${target.name} <- ${train.map((c) => `${c.name} ${c.items.length}`).join(" + ")}`);
    const { l2, cut } = choose(train, opts);
    const model = fit(train, opts, l2);
    const d = decided(target.items);
    const points: Point[] = d.map((it) => {
      const p = predictLogistic(model, opts.features(it));
      return { session: session(it), p, y: it.majority as 0 | 1, flag: p >= cut ? 1 : 0, capture: unhappyWithReply(classify(it.exchange.prompt, { previousReply: it.exchange.reply_end })) ? 1 : 0 };
    });
    const aucOf = (xs: readonly Point[]): number | null => auc(xs.map((x) => x.p), xs.map((x) => x.y));
    rows.push({
      target: target.name,
      trainedOn: train.map((c) => c.name),
      items: points.length,
      positives: points.filter((x) => x.y === 1).length,
      l2,
      cut,
      judge: { ...flagsOf(points, "flag", resamples), auc: aucOf(points), aucInterval: interval(points, aucOf, resamples) },
      capture: flagsOf(points, "capture", resamples),
      crowdKappa: target.crowdKappa,
      crowdNote: target.crowdNote,
    });
  }
  return rows;
}
