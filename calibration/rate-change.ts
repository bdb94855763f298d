/**
 * Did a rule's slip rate change after its repair? A group-sequential permutation test on
 * sessions, with a bounded false-alarm rate however many of the planned looks are taken.
 *
 * The unit is a session (its incidents and its chances for the rule), since one session's
 * chances are not independent. Sessions before the repair are look 0; those after it carry the
 * look (1..`looks`, e.g. the week after the repair) at which they were first seen. At look k
 * the statistic is the difference of incidents per chance, after minus before, over every
 * session seen so far; its null distribution comes from reassigning the before/after labels
 * among those sessions at random (`resamples` times, the random source passed in), within each
 * stratum when several rules are pooled (each rule keeps its own before and after counts). The
 * pooled statistic is the difference of the pooled rates.
 *
 * The error is spent by a quadratic spending function per side, alpha/2 · (k/K)²: at look k a
 * side crosses when its one-sided permutation p-value is at most that side's increment,
 * alpha/2 · ((k/K)² − ((k−1)/K)²). The increments of both sides sum to alpha, so by the union
 * bound a history with no true change ends in `holds` or `fires` with probability at most
 * alpha, whatever looks were taken (conservative: the bound ignores the looks' correlation).
 * Assumption: with no true change, the sessions before and after are exchangeable (no trend
 * in the slip rate that the repair did not cause); a drift in the owner's work shows as a change.
 *
 * Verdicts (a closed union): `holds` the rate fell (the repair's claim survived its test),
 * `fires` the rate rose, `no_evidence` the last planned look is taken and neither crossed,
 * `pending` looks remain and neither has crossed yet.
 *
 * Example: 6 sessions of 10 chances before with 2 incidents each, 6 after with 0 each, one look
 * (`looks: 1, look: 1`), alpha 0.05, 999 resamples: the after rate is 0 against 0.2, only the
 * permutations that put all 6 incident sessions before reach it (1 in C(12,6) = 924), so
 * p_low ≈ 0.002 ≤ 0.025 and the verdict is `holds`.
 */
import type { RandomSource } from "../core/random-source.js";
import { randomIndex } from "../core/shuffle.js";
import { CalibrationError } from "./errors.js";

export type RateChangeVerdict = "holds" | "fires" | "no_evidence" | "pending";

/** One session of one rule: look 0 before the repair, 1..K after it. */
export interface SessionCell {
  incidents: number;
  chances: number;
  look: number;
}

export interface RateChangeOptions {
  /** Planned looks after the repair (K). */
  looks: number;
  /** Looks taken so far (0..K): the verdict reads looks 1..look. */
  look: number;
  /** Two-sided false-alarm rate; default 0.05. */
  alpha?: number;
  /** Permutations per look; default 999. */
  resamples?: number;
  random: RandomSource;
}

export interface LookResult {
  look: number;
  /** After minus before, incidents per chance (pooled over strata). */
  difference: number | null;
  pLow: number | null;
  pHigh: number | null;
  /** Permutations drawn: fewer than the resamples once neither side can cross any more. */
  permutations: number;
  /** This look's spend per side: a p-value at or below it crosses. */
  spend: number;
}

export interface RateChange {
  verdict: RateChangeVerdict;
  /** The look at which a side crossed, or null. */
  crossedAt: number | null;
  perLook: LookResult[];
  alpha: number;
  looks: number;
}

/** The quadratic spending function: the error spent by information fraction t in [0, 1]. */
export function quadraticSpend(alpha: number, t: number): number {
  const c = Math.min(1, Math.max(0, t));
  return alpha * c * c;
}

/** Per side, the error spent at look k of K: alpha/2 · ((k/K)² − ((k−1)/K)²). */
export function lookSpend(alpha: number, k: number, looks: number): number {
  return quadraticSpend(alpha / 2, k / looks) - quadraticSpend(alpha / 2, (k - 1) / looks);
}

function checkCells(strata: readonly (readonly SessionCell[])[], looks: number): void {
  for (const s of strata) {
    for (const c of s) {
      if (!Number.isInteger(c.chances) || c.chances < 0 || !Number.isInteger(c.incidents) || c.incidents < 0 || c.incidents > c.chances) {
        throw new CalibrationError("BAD_VALUE", "rate change", "whole incidents in 0..chances", JSON.stringify(c));
      }
      if (!Number.isInteger(c.look) || c.look < 0 || c.look > looks) throw new CalibrationError("BAD_VALUE", "rate change", `a look in 0..${looks}`, String(c.look));
    }
  }
}

/** One look's arrays: per stratum, the sessions seen by look k and how many of them are after. */
interface LookData {
  inc: Int32Array[];
  ch: Int32Array[];
  nAfter: number[];
}

function lookData(strata: readonly (readonly SessionCell[])[], k: number): LookData {
  const inc: Int32Array[] = [];
  const ch: Int32Array[] = [];
  const nAfter: number[] = [];
  for (const s of strata) {
    const seen = s.filter((c) => c.look <= k);
    // After sessions first: the observed labelling is "the first nAfter are after".
    seen.sort((a, b) => (a.look === 0 ? 1 : 0) - (b.look === 0 ? 1 : 0));
    inc.push(Int32Array.from(seen, (c) => c.incidents));
    ch.push(Int32Array.from(seen, (c) => c.chances));
    nAfter.push(seen.filter((c) => c.look > 0).length);
  }
  return { inc, ch, nAfter };
}

/** Pooled after-minus-before rate when the first nAfter[s] of each stratum's order are after; null when a side has no chance. */
function statistic(d: LookData, order: Int32Array[] | null, tot: { inc: number; ch: number }): number | null {
  let ia = 0;
  let ca = 0;
  for (let s = 0; s < d.inc.length; s++) {
    const inc = d.inc[s]!;
    const ch = d.ch[s]!;
    const o = order?.[s];
    for (let i = 0; i < d.nAfter[s]!; i++) {
      const j = o ? o[i]! : i;
      ia += inc[j]!;
      ca += ch[j]!;
    }
  }
  const cb = tot.ch - ca;
  if (ca === 0 || cb === 0) return null;
  return ia / ca - (tot.inc - ia) / cb;
}

function evaluateLook(d: LookData, resamples: number, spend: number, random: RandomSource): { difference: number | null; pLow: number | null; pHigh: number | null; permutations: number } {
  const tot = { inc: 0, ch: 0 };
  for (let s = 0; s < d.inc.length; s++) {
    for (let i = 0; i < d.inc[s]!.length; i++) {
      tot.inc += d.inc[s]![i]!;
      tot.ch += d.ch[s]![i]!;
    }
  }
  const obs = statistic(d, null, tot);
  if (obs === null) return { difference: null, pLow: null, pHigh: null, permutations: 0 };
  // A side crosses when 1 + exceedances <= spend · (1 + resamples); once both sides have at least
  // that many exceedances (and one), no later permutation can make either cross, so the draw stops there
  // and each p-value is Besag and Clifford's sequential one (exceedances / permutations drawn),
  // which is itself a valid p-value; the verdict is the one all resamples would give.
  const enough = Math.max(1, Math.floor(spend * (1 + resamples)));
  const order = d.inc.map((a) => Int32Array.from({ length: a.length }, (_, i) => i));
  let le = 0;
  let ge = 0;
  const eps = 1e-12;
  for (let r = 0; r < resamples; r++) {
    if (le >= enough && ge >= enough) return { difference: obs, pLow: le / r, pHigh: ge / r, permutations: r };
    // A partial Fisher-Yates per stratum: the first nAfter positions are a uniform draw of the after labels.
    for (let s = 0; s < order.length; s++) {
      const o = order[s]!;
      const n = o.length;
      for (let i = 0; i < d.nAfter[s]!; i++) {
        const j = i + randomIndex(random, n - i);
        const t = o[i]!;
        o[i] = o[j]!;
        o[j] = t;
      }
    }
    const v = statistic(d, order, tot);
    if (v === null) continue;
    if (v <= obs + eps) le++;
    if (v >= obs - eps) ge++;
  }
  return { difference: obs, pLow: (1 + le) / (1 + resamples), pHigh: (1 + ge) / (1 + resamples), permutations: resamples };
}

/**
 * The verdict after looks 1..`look` of `looks`, over one rule (one stratum) or several pooled
 * (strata permuted apart). Throws for a bad count, a look out of range or an alpha outside (0, 1).
 */
export function rateChangeTest(strata: readonly (readonly SessionCell[])[], o: RateChangeOptions): RateChange {
  const alpha = o.alpha ?? 0.05;
  const resamples = o.resamples ?? 999;
  if (!(alpha > 0 && alpha < 1)) throw new CalibrationError("BAD_OPTION", "rate change", "an alpha in (0, 1)", String(alpha));
  if (!Number.isInteger(o.looks) || o.looks < 1) throw new CalibrationError("BAD_OPTION", "rate change", "at least one planned look", String(o.looks));
  if (!Number.isInteger(o.look) || o.look < 0 || o.look > o.looks) throw new CalibrationError("BAD_OPTION", "rate change", `looks taken in 0..${o.looks}`, String(o.look));
  if (!Number.isInteger(resamples) || resamples < 1) throw new CalibrationError("BAD_OPTION", "rate change", "at least one resample", String(resamples));
  if (strata.length === 0) throw new CalibrationError("EMPTY", "rate change", "at least one stratum", "none");
  checkCells(strata, o.looks);
  const perLook: LookResult[] = [];
  for (let k = 1; k <= o.look; k++) {
    const spend = lookSpend(alpha, k, o.looks);
    const r = evaluateLook(lookData(strata, k), resamples, spend, o.random);
    perLook.push({ look: k, ...r, spend });
    if (r.pLow !== null && r.pLow <= spend) return { verdict: "holds", crossedAt: k, perLook, alpha, looks: o.looks };
    if (r.pHigh !== null && r.pHigh <= spend) return { verdict: "fires", crossedAt: k, perLook, alpha, looks: o.looks };
  }
  return { verdict: o.look === o.looks ? "no_evidence" : "pending", crossedAt: null, perLook, alpha, looks: o.looks };
}
