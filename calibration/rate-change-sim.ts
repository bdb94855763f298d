/**
 * Simulated rule histories for the falsifier and the holdout interval: how often the
 * group-sequential permutation test fires on no change, how often it sees a real change, and
 * how often the holdout's interval covers the true difference. Synthetic by construction;
 * every assumption is a field of `HistoryAssumptions` (defaults: the seed's pilot, as
 * runtime/ladder/pilot.ts simulates it):
 *
 * - `rules` rules, `sessionsPerDay` sessions a day, `weeksBefore` weeks before the repair and
 *   `weeksAfter` after, one look a week after it;
 * - each session offers each rule 1 or 2 chances (equally likely);
 * - a chance slips with probability `slip` times the session's multiplier, and a slip becomes
 *   an incident with probability `noticed`; the multiplier is 1 − `spread` or 1 + `spread`
 *   (equally likely) per session and rule, so chances in one session are correlated
 *   (sessions differ: some tasks tempt the slip more);
 * - after the repair the slip probability is multiplied by `factorAfter` (1: no change; 0.5: a
 *   halving; 2: a regression).
 *
 * Example: simulateFalsifier({reps: 200, factorAfter: 1, seed: 1}) -> per-rule and pooled
 * fractions of histories ending in `holds` or `fires`, each with a Wilson 95% interval.
 */
import jStat from "jstat";
import type { RandomSource } from "../core/random-source.js";
import { mulberry32 } from "../core/mulberry32.js";
import { randomIndex } from "../core/shuffle.js";
import { rateChangeTest, type RateChangeVerdict, type SessionCell } from "./rate-change.js";
import { holdoutInterval, wilson, type ClusterCount } from "./holdout-interval.js";

export interface HistoryAssumptions {
  rules: number;
  sessionsPerDay: number;
  weeksBefore: number;
  weeksAfter: number;
  slip: number;
  noticed: number;
  spread: number;
}

export const PILOT_ASSUMPTIONS: HistoryAssumptions = { rules: 6, sessionsPerDay: 6, weeksBefore: 4, weeksAfter: 4, slip: 0.06, noticed: 0.8, spread: 0.5 };

function sessionCell(a: HistoryAssumptions, factor: number, look: number, rand: RandomSource): SessionCell {
  const chances = 1 + randomIndex(rand, 2);
  const mult = rand() < 0.5 ? 1 - a.spread : 1 + a.spread;
  const p = Math.min(1, a.slip * mult * factor);
  let incidents = 0;
  for (let k = 0; k < chances; k++) if (rand() < p && rand() < a.noticed) incidents++;
  return { incidents, chances, look };
}

/** One history: per rule, its sessions before (look 0) and after (look = week). */
export function simulateHistory(a: HistoryAssumptions, factorAfter: number, rand: RandomSource): SessionCell[][] {
  const strata: SessionCell[][] = [];
  for (let r = 0; r < a.rules; r++) {
    const cells: SessionCell[] = [];
    for (let s = 0; s < a.weeksBefore * 7 * a.sessionsPerDay; s++) cells.push(sessionCell(a, 1, 0, rand));
    for (let w = 1; w <= a.weeksAfter; w++) for (let s = 0; s < 7 * a.sessionsPerDay; s++) cells.push(sessionCell(a, factorAfter, w, rand));
    strata.push(cells);
  }
  return strata;
}

export interface SimRate {
  hits: number;
  of: number;
  rate: number;
  low: number;
  high: number;
}

function simRate(hits: number, of: number): SimRate {
  const w = wilson(hits, of, jStat.normal.inv(0.975, 0, 1));
  return { hits, of, rate: hits / of, low: w.low, high: w.high };
}

export interface FalsifierSim {
  factorAfter: number;
  reps: number;
  resamples: number;
  /** (history, rule) pairs ending in each verdict after the last look. */
  perRule: Record<"holds" | "fires" | "no_evidence", SimRate>;
  /** Histories whose pooled test (the rules as strata) ends in each verdict. */
  pooled: Record<"holds" | "fires" | "no_evidence", SimRate>;
  assumptions: HistoryAssumptions;
  seed: number;
}

type Final = Exclude<RateChangeVerdict, "pending">;

export function simulateFalsifier(o: { reps: number; factorAfter: number; seed: number; resamples?: number; alpha?: number; assumptions?: Partial<HistoryAssumptions> }): FalsifierSim {
  const a = { ...PILOT_ASSUMPTIONS, ...o.assumptions };
  const resamples = o.resamples ?? 999;
  const rand = mulberry32(o.seed);
  const per = { holds: 0, fires: 0, no_evidence: 0 };
  const pooled = { holds: 0, fires: 0, no_evidence: 0 };
  const opts = { looks: a.weeksAfter, look: a.weeksAfter, resamples, random: rand, ...(o.alpha !== undefined ? { alpha: o.alpha } : {}) };
  for (let rep = 0; rep < o.reps; rep++) {
    const strata = simulateHistory(a, o.factorAfter, rand);
    for (const s of strata) per[rateChangeTest([s], opts).verdict as Final]++;
    pooled[rateChangeTest(strata, opts).verdict as Final]++;
  }
  const n = o.reps * a.rules;
  return {
    factorAfter: o.factorAfter,
    reps: o.reps,
    resamples,
    perRule: { holds: simRate(per.holds, n), fires: simRate(per.fires, n), no_evidence: simRate(per.no_evidence, n) },
    pooled: { holds: simRate(pooled.holds, o.reps), fires: simRate(pooled.fires, o.reps), no_evidence: simRate(pooled.no_evidence, o.reps) },
    assumptions: a,
    seed: o.seed,
  };
}

export interface HoldoutSim {
  reps: number;
  oneIn: number;
  trueDifference: number;
  /** Histories whose interval covers the true difference (histories with an empty arm are skipped and counted). */
  covered: SimRate;
  skipped: number;
  meanWidth: number;
  assumptions: HistoryAssumptions;
  seed: number;
}

/**
 * The holdout's coverage: one rule over `weeksAfter` weeks, each session held out with
 * probability 1/`oneIn`; treated sessions slip at `slip · factorTreated`, held-out ones at
 * `slip`; the true difference is noticed · slip · (factorTreated − 1) (the session multiplier
 * has mean 1).
 */
export function simulateHoldout(o: { reps: number; oneIn: number; factorTreated: number; seed: number; assumptions?: Partial<HistoryAssumptions> }): HoldoutSim {
  const a = { ...PILOT_ASSUMPTIONS, ...o.assumptions };
  const rand = mulberry32(o.seed);
  const truth = a.noticed * a.slip * (o.factorTreated - 1);
  let covered = 0;
  let skipped = 0;
  let width = 0;
  for (let rep = 0; rep < o.reps; rep++) {
    const treated: ClusterCount[] = [];
    const held: ClusterCount[] = [];
    for (let s = 0; s < a.weeksAfter * 7 * a.sessionsPerDay; s++) {
      const out = rand() < 1 / o.oneIn;
      const c = sessionCell(a, out ? 1 : o.factorTreated, 1, rand);
      (out ? held : treated).push({ incidents: c.incidents, chances: c.chances });
    }
    if (treated.length === 0 || held.length === 0) {
      skipped++;
      continue;
    }
    const h = holdoutInterval(treated, held);
    width += h.high - h.low;
    if (h.low <= truth && truth <= h.high) covered++;
  }
  const n = o.reps - skipped;
  return { reps: o.reps, oneIn: o.oneIn, trueDifference: truth, covered: simRate(covered, n), skipped, meanWidth: n > 0 ? width / n : NaN, assumptions: a, seed: o.seed };
}
