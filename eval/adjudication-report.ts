import { adjudicatedGold, disputeOf, latestDecisions, decisionKey, sameVotes, votesByItem, type Decision } from "./adjudication.js";
import { categoriesOf, valueKey, type LabelValue } from "./categories.js";
import { cohenStatistic } from "./cohen-kappa.js";
import { combineStatistics } from "./combine-statistics.js";
import { EvalInputError } from "./errors.js";
import { majorityVote } from "./majority.js";
import { sessionBlockBootstrap, sumItems, type BlockStatistic } from "./session-block-bootstrap.js";

/**
 * Agreement before and after adjudication, for one question. The labellers' agreement with
 * each other (Fleiss, alpha, Cohen per pair) is computed on the raw labels and does not change;
 * what adjudication changes is the gold. So this reports:
 *
 * - the queue: disputed items (ties, splits), decided (a label, ambiguous), pending, stale;
 *   decisions that overturned a raw majority, ties given a gold;
 * - the gold before (the raw 2-of-3 majority: items with one, ties, too few labels) and after
 *   (majority or decision; ambiguous and unresolved ties have none);
 * - each labeller's agreement with the gold before and after: raw share and Cohen's kappa,
 *   with session-block intervals from one paired bootstrap. The labeller's own vote is part
 *   of the gold, so these read high; their change is what adjudication did.
 *
 * Example: 3 labellers, 4 items: ana/ben/cy = (y,y,n), (n,y,n), (y,n,n), (y,y,y); one decision
 * "yes" on the second item -> gold before y,n,n,y; after y,y,n,y; cy's kappa with the gold
 * before 0.5 (po 0.75), after 0.2 (po 0.5); ben's before 0.5, after 1.0.
 */
export interface LabellerVsGold {
  labeler: string;
  before: { kappa: number | null; po: number | null; lower: number | null; upper: number | null; items: number };
  after: { kappa: number | null; po: number | null; lower: number | null; upper: number | null; items: number };
}

export interface AdjudicationReport {
  question: string;
  disputed: { tie: number; split: number };
  decided: { label: number; ambiguous: number };
  pending: number;
  stale: number;
  overturned: number;
  tiesResolved: number;
  goldBefore: { gold: number; tie: number; insufficient: number };
  goldAfter: { gold: number; ambiguous: number; tie: number; insufficient: number };
  labellers: LabellerVsGold[];
  bootstrap: { resamples: number; seed: number; level: number; sessions: number } | null;
}

export interface AdjudicationReportOptions {
  labelers?: readonly string[];
  minVotes?: number;
  sessionOf?: ReadonlyMap<string, string>;
  resamples: number;
  seed: number;
  level?: number;
}

export function adjudicationReport(labels: readonly { exchange_id: string; labeler: string; question: string; value: LabelValue }[], decisions: readonly Decision[], question: string, opts: AdjudicationReportOptions): AdjudicationReport {
  const minVotes = opts.minVotes ?? 2;
  const votes = votesByItem(labels, question, opts.labelers);
  if (votes.size === 0) throw new EvalInputError("EMPTY", `no labels for question ${question}`, "labels of the question", "none");
  const latest = latestDecisions(decisions);
  const after = adjudicatedGold(labels, decisions, question, { minVotes, ...(opts.labelers ? { labelers: opts.labelers } : {}) });
  const r: AdjudicationReport = {
    question,
    disputed: { tie: 0, split: 0 },
    decided: { label: 0, ambiguous: 0 },
    pending: 0,
    stale: 0,
    overturned: 0,
    tiesResolved: 0,
    goldBefore: { gold: 0, tie: 0, insufficient: 0 },
    goldAfter: { gold: 0, ambiguous: 0, tie: 0, insufficient: 0 },
    labellers: [],
    bootstrap: null,
  };
  const ids = [...votes.keys()].sort();
  const before = new Map<string, LabelValue | null>();
  for (const id of ids) {
    const vs = votes.get(id)!;
    const m = majorityVote(vs.map((v) => v.value), minVotes);
    before.set(id, m.status === "majority" ? m.value : null);
    if (m.status === "majority") r.goldBefore.gold++;
    else r.goldBefore[m.status]++;
    const g = after.get(id)!;
    if (g.status === "majority" || g.status === "adjudicated") r.goldAfter.gold++;
    else r.goldAfter[g.status]++;
    const dispute = disputeOf(vs, minVotes);
    if (dispute === null) continue;
    r.disputed[dispute]++;
    const d = latest.get(decisionKey(id, question));
    if (d && !sameVotes(d.labels, vs)) r.stale++;
    if (g.status === "adjudicated") {
      r.decided.label++;
      if (g.overturned) r.overturned++;
      if (dispute === "tie") r.tiesResolved++;
    } else if (g.status === "ambiguous") r.decided.ambiguous++;
    else r.pending++;
  }

  const labelers = opts.labelers ? [...opts.labelers] : [...new Set([...votes.values()].flatMap((vs) => vs.map((v) => v.labeler)))].sort();
  const afterValue = (id: string): LabelValue | null => after.get(id)?.value ?? null;
  const { values: cats, index } = categoriesOf(ids.map((id) => votes.get(id)!.map((v) => v.value)));
  const idx = (v: LabelValue | null | undefined): number | null => (v === null || v === undefined ? null : index.get(valueKey(v)) ?? null);
  const parts: [string, BlockStatistic][] = [];
  labelers.forEach((l, k) => {
    const own = ids.map((id) => idx(votes.get(id)!.find((v) => v.labeler === l)?.value));
    parts.push([`before${k}`, cohenStatistic(own, ids.map((id) => idx(before.get(id))), cats.length)]);
    parts.push([`after${k}`, cohenStatistic(own, ids.map((id) => idx(afterValue(id))), cats.length)]);
  });
  if (parts.length === 0) return r;
  const stat = combineStatistics(parts);
  const point = stat.finish(sumItems(stat));
  const boot = sessionBlockBootstrap(stat, ids.map((id) => opts.sessionOf?.get(id) ?? `item:${id}`), { resamples: opts.resamples, seed: opts.seed, ...(opts.level !== undefined ? { level: opts.level } : {}) });
  const at = (name: string) => ({ value: point[stat.names.indexOf(name)] ?? null, f: boot.figures.find((x) => x.name === name) });
  const shared = (k: number, gold: (id: string) => LabelValue | null): number => ids.filter((id) => gold(id) !== null && votes.get(id)!.some((v) => v.labeler === labelers[k])).length;
  r.labellers = labelers.map((labeler, k) => {
    const side = (which: "before" | "after", gold: (id: string) => LabelValue | null) => {
      const kappa = at(`${which}${k}.kappa`);
      return { kappa: kappa.value, po: at(`${which}${k}.po`).value, lower: kappa.f?.lower ?? null, upper: kappa.f?.upper ?? null, items: shared(k, gold) };
    };
    return { labeler, before: side("before", (id) => before.get(id) ?? null), after: side("after", afterValue) };
  });
  r.bootstrap = { resamples: boot.resamples, seed: boot.seed, level: boot.level, sessions: boot.sessions };
  return r;
}
