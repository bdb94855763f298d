/**
 * The holdout's interval: incidents per chance in the sessions a rule acted (treated) and in
 * the sessions it was held out, each with a session-cluster Wilson interval, and their
 * difference with Newcombe's hybrid score interval (his method 10) built from the two.
 *
 * Chances in one session are not independent, so each arm's Wilson interval is taken on an
 * effective sample: n / deff chances with the same rate, where the design effect deff is the
 * ratio estimator's cluster variance over the binomial variance (at least 1):
 *   v_cluster = m/(m−1) · Σ_i (x_i − p·n_i)² / n²,  v_binomial = p(1−p)/n.
 * With no incident (p = 0 or 1) deff is 1: nothing to estimate it from.
 *
 * Example: treated 1/240 chances in 120 sessions, held out 9/60 in 30 sessions (one chance of
 * each session slipping at most once, so deff = 1): treated 0.0042 [0.0007, 0.0232], held out
 * 0.15 [0.0811, 0.2611], difference −0.1458 [−0.2578, −0.0733].
 */
import jStat from "jstat";
import { CalibrationError } from "./errors.js";

export interface ClusterCount {
  incidents: number;
  chances: number;
}

export interface ArmInterval {
  incidents: number;
  chances: number;
  sessions: number;
  rate: number;
  low: number;
  high: number;
  designEffect: number;
}

export interface HoldoutInterval {
  treated: ArmInterval;
  heldOut: ArmInterval;
  /** Treated minus held out. */
  difference: number;
  low: number;
  high: number;
  confidence: number;
}

/** Wilson's score interval for x of n (n may be fractional: an effective sample). */
export function wilson(x: number, n: number, z: number): { low: number; high: number } {
  if (!(n > 0)) throw new CalibrationError("EMPTY", "wilson", "at least one chance", String(n));
  const p = x / n;
  const z2 = z * z;
  const mid = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, mid - half), high: Math.min(1, mid + half) };
}

/** One arm: pooled rate, design effect from its sessions, Wilson on the effective sample. */
export function clusterWilson(sessions: readonly ClusterCount[], confidence = 0.95): ArmInterval {
  const z = jStat.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  let x = 0;
  let n = 0;
  for (const s of sessions) {
    if (!Number.isInteger(s.chances) || s.chances < 0 || !Number.isInteger(s.incidents) || s.incidents < 0 || s.incidents > s.chances) {
      throw new CalibrationError("BAD_VALUE", "holdout interval", "whole incidents in 0..chances", JSON.stringify(s));
    }
    x += s.incidents;
    n += s.chances;
  }
  if (n === 0) throw new CalibrationError("EMPTY", "holdout interval", "at least one chance in the arm", "none");
  const p = x / n;
  const m = sessions.filter((s) => s.chances > 0).length;
  let deff = 1;
  if (p > 0 && p < 1 && m > 1) {
    let ss = 0;
    for (const s of sessions) ss += (s.incidents - p * s.chances) ** 2;
    const vCluster = ((m / (m - 1)) * ss) / (n * n);
    deff = Math.max(1, vCluster / ((p * (1 - p)) / n));
  }
  const w = wilson(p * (n / deff), n / deff, z);
  return { incidents: x, chances: n, sessions: m, rate: p, low: w.low, high: w.high, designEffect: deff };
}

/** Treated minus held out, Newcombe's interval from the two arms' cluster Wilson intervals. */
export function holdoutInterval(treated: readonly ClusterCount[], heldOut: readonly ClusterCount[], confidence = 0.95): HoldoutInterval {
  if (!(confidence > 0 && confidence < 1)) throw new CalibrationError("BAD_OPTION", "holdout interval", "a confidence in (0, 1)", String(confidence));
  const t = clusterWilson(treated, confidence);
  const h = clusterWilson(heldOut, confidence);
  return { treated: t, heldOut: h, ...newcombeDifference(t, h), confidence };
}

/**
 * Newcombe's hybrid score interval for a − b from each rate's own interval (method 10).
 * Example: 56/70 − 48/80 with plain Wilson intervals -> 0.2 [0.0524, 0.3339] (Newcombe 1998).
 */
export function newcombeDifference(a: { rate: number; low: number; high: number }, b: { rate: number; low: number; high: number }): { difference: number; low: number; high: number } {
  const d = a.rate - b.rate;
  const low = d - Math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2);
  const high = d + Math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2);
  return { difference: d, low: Math.max(-1, low), high: Math.min(1, high) };
}
