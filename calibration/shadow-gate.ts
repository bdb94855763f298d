import jStat from "jstat";
import { CalibrationError } from "./errors.js";

/**
 * The shadow gate's arithmetic. A new check watches live traffic without acting; it earns
 * its place when its false-alarm rate is bounded below the target with the stated
 * confidence. The bound is the one-sided exact (Clopper-Pearson) upper bound: with x false
 * alarms in n opportunities, the `confidence` quantile of Beta(x + 1, n − x) (1 when x = n).
 * With x = 0 it is 1 − (1 − confidence)^(1/n).
 *
 * Example: clopperPearsonUpper(0, 59, 0.95) = 0.049508 < 0.05, clopperPearsonUpper(0, 58,
 * 0.95) = 0.050339, so opportunitiesNeeded(0.05, 0.95) = 59.
 */
export function clopperPearsonUpper(falseAlarms: number, opportunities: number, confidence: number): number {
  if (!Number.isInteger(opportunities) || opportunities < 1) {
    throw new CalibrationError("EMPTY", "shadow gate", "at least one opportunity", String(opportunities));
  }
  if (!Number.isInteger(falseAlarms) || falseAlarms < 0 || falseAlarms > opportunities) {
    throw new CalibrationError("BAD_VALUE", "shadow gate", `false alarms in 0..${opportunities}`, String(falseAlarms));
  }
  checkConfidence(confidence);
  if (falseAlarms === opportunities) return 1;
  return jStat.beta.inv(confidence, falseAlarms + 1, opportunities - falseAlarms);
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new CalibrationError("BAD_OPTION", "shadow gate", "a confidence in (0, 1)", String(confidence));
}

/**
 * The fewest opportunities, all clean (no false alarm), whose upper bound is strictly below
 * `falseAlarmRate`, for ONE look: valid only when the verdict is taken once, at that count.
 * The gate is checked as the log grows, so it uses `sequentialEvidence` instead; this stays
 * as the single-look reference (59 at 5% and 95%).
 */
export function opportunitiesNeeded(falseAlarmRate: number, confidence: number, falseAlarms = 0): number {
  if (!(falseAlarmRate > 0 && falseAlarmRate < 1)) {
    throw new CalibrationError("BAD_OPTION", "shadow gate", "a false-alarm rate in (0, 1)", String(falseAlarmRate));
  }
  checkConfidence(confidence);
  // Closed form for zero alarms, then step to be exact at the boundary.
  let n = Math.max(falseAlarms + 1, Math.ceil(Math.log(1 - confidence) / Math.log(1 - falseAlarmRate)) - 1);
  while (clopperPearsonUpper(falseAlarms, n, confidence) >= falseAlarmRate) n++;
  while (n - 1 > falseAlarms && clopperPearsonUpper(falseAlarms, n - 1, confidence) < falseAlarmRate) n--;
  return n;
}

/**
 * Evidence that the false-alarm rate is below `rate`, valid however often it is looked at:
 * the mixture likelihood ratio (Robbins' method of mixtures, Ville's inequality)
 *   M(x, n) = (1/rate) ∫_0^rate (q/rate)^x ((1−q)/(1−rate))^(n−x) dq,
 * a uniform prior over the rates below the target against the target itself. Under any true
 * rate at or above the target, M is a nonnegative supermartingale with M_0 = 1, so the
 * chance that it EVER reaches 1/(1 − confidence) is at most 1 − confidence: a check that
 * passes when M ≥ 20 passes wrongly at most 5% of the time, checked after every session. In
 * closed form M = B(x+1, n−x+1) · I_rate(x+1, n−x+1) / (rate^(x+1) (1−rate)^(n−x)), with the
 * regularised incomplete beta from jstat (its Beta cdf), computed in logs.
 *
 * Example: sequentialEvidence(0, 88, 0.05) = 20.30 ≥ 20, sequentialEvidence(0, 87, 0.05) < 20;
 * so 88 clean sessions earn a check its place under repeated looks (one look needs 59).
 */
export function sequentialEvidence(falseAlarms: number, opportunities: number, rate: number): number {
  if (!Number.isInteger(opportunities) || opportunities < 0) throw new CalibrationError("BAD_VALUE", "shadow gate", "a whole number of opportunities", String(opportunities));
  if (!Number.isInteger(falseAlarms) || falseAlarms < 0 || falseAlarms > opportunities) {
    throw new CalibrationError("BAD_VALUE", "shadow gate", `false alarms in 0..${opportunities}`, String(falseAlarms));
  }
  if (!(rate > 0 && rate < 1)) throw new CalibrationError("BAD_OPTION", "shadow gate", "a false-alarm rate in (0, 1)", String(rate));
  if (opportunities === 0) return 1;
  const a = falseAlarms + 1;
  const b = opportunities - falseAlarms + 1;
  // The regularised incomplete beta is jstat's Beta(a, b) cdf.
  const inc = jStat.beta.cdf(rate, a, b);
  if (!(inc > 0)) return 0;
  return Math.exp(Math.log(inc) + logBetaIntegers(a, b) - a * Math.log(rate) - (b - 1) * Math.log(1 - rate));
}

/** ln B(a, b) for whole a, b ≥ 1: −ln(a+b−1) − ln C(a+b−2, a−1), summed over the smaller side (exact, no gamma function). */
function logBetaIntegers(a: number, b: number): number {
  const m = a + b - 2;
  const k = Math.min(a, b) - 1;
  let logChoose = 0;
  for (let i = 1; i <= k; i++) logChoose += Math.log((m - k + i) / i);
  return -Math.log(a + b - 1) - logChoose;
}

/** The fewest sessions with `falseAlarms` false alarms whose sequential evidence reaches 1/(1 − confidence). */
export function sequentialOpportunitiesNeeded(falseAlarmRate: number, confidence: number, falseAlarms = 0): number {
  checkConfidence(confidence);
  const threshold = 1 / (1 - confidence);
  // M falls as n grows past a point only when x/n passes the rate; with x fixed it rises in n.
  let n = Math.max(falseAlarms, opportunitiesNeeded(falseAlarmRate, confidence, falseAlarms));
  while (sequentialEvidence(falseAlarms, n, falseAlarmRate) < threshold) n++;
  return n;
}

/**
 * For each number of sessions n = 0..maxSessions, the most false alarms with which the
 * sequential gate passes (−1: none suffice). The gate passes after n sessions with x false
 * alarms exactly when x ≤ table[n]; a simulation can then check it after every session cheaply.
 */
export function sequentialPassTable(falseAlarmRate: number, confidence: number, maxSessions: number): Int32Array {
  checkConfidence(confidence);
  const threshold = 1 / (1 - confidence);
  const table = new Int32Array(maxSessions + 1).fill(-1);
  let x = -1;
  for (let n = 1; n <= maxSessions; n++) {
    // More sessions with the same alarms never lowers the evidence while x/n < rate, so the
    // allowance only grows: step it up while the next count still passes.
    while (x + 1 <= n && sequentialEvidence(x + 1, n, falseAlarmRate) >= threshold) x++;
    table[n] = x;
  }
  return table;
}

/** One line of a shadow log: a check watched one eligible moment without acting. */
export interface ShadowEvent {
  check: string;
  session_id: string;
  ts: string;
  /** The moment was one the check applies to. */
  eligible: boolean;
  /** A real violation happened (so a firing there is not a false alarm). */
  violation: boolean;
  /** The check would have fired. */
  fired: boolean;
}

export interface ShadowVerdict {
  check: string;
  /** Distinct sessions with at least one clean, eligible moment (the opportunities). */
  opportunities: number;
  /** Of those sessions, how many had the check fire on a clean moment. */
  falseAlarmSessions: number;
  /** Clean, eligible moments and false alarms counted per moment, for reference. */
  cleanMoments: number;
  falseAlarmMoments: number;
  /** Real violations seen and how many the check caught (detection, reported apart). */
  violations: number;
  caught: number;
  /** Single-look upper bound on the false-alarm rate (null with no opportunities), for reference only. */
  upperBound: number | null;
  /** The gate's evidence (`sequentialEvidence`), valid under repeated looks; it must reach `threshold`. */
  evidence: number;
  threshold: number;
  /** Days from the first to the last eligible moment. */
  daysWatched: number;
  /** Sessions needed with the false alarms seen so far (sequential design). */
  needed: number;
  /** The same for one look at a fixed count (the Clopper-Pearson figure, e.g. 59). */
  neededSingleLook: number;
  earned: boolean;
  /** Why it has not earned its place yet (empty when it has). */
  reasons: string[];
}

/**
 * Reads a shadow log for one check. Convention: the unit is the session. A session with
 * clean eligible moments is one opportunity, and a false alarm when the check fired on any of
 * its clean moments, so many moments in one busy session cannot buy the bound. The check has
 * earned its place when the sequential evidence reaches 1/(1 − confidence) and it watched at
 * least `minDays` (the seed: "a week or the eligible opportunities, whichever is longer").
 * The gate is meant to be read as the log grows, so the verdict is the sequential one: a
 * check whose true false-alarm rate is the target passes at most 1 − confidence of the time
 * however often it is read (simulated in the tests: after every session up to 2,000). The
 * single-look Clopper-Pearson bound is reported beside it, never used to decide.
 *
 * Example: 88 sessions, one clean moment each, no firing, over 8 days, target 0.05 at 0.95:
 * {opportunities: 88, falseAlarmSessions: 0, evidence: 20.3, needed: 88, earned: true}; 59
 * such sessions (enough for one look) do not earn it.
 */
export function judgeShadowLog(
  events: readonly ShadowEvent[],
  check: string,
  options: { falseAlarmRate: number; confidence: number; minDays?: number },
): ShadowVerdict {
  const minDays = options.minDays ?? 7;
  const sessions = new Map<string, boolean>();
  let cleanMoments = 0;
  let falseAlarmMoments = 0;
  let violations = 0;
  let caught = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (e.check !== check || !e.eligible) continue;
    const t = Date.parse(e.ts);
    if (Number.isNaN(t)) throw new CalibrationError("BAD_VALUE", "shadow gate", "an ISO timestamp", JSON.stringify(e.ts));
    first = Math.min(first, t);
    last = Math.max(last, t);
    if (e.violation) {
      violations++;
      if (e.fired) caught++;
      continue;
    }
    cleanMoments++;
    if (e.fired) falseAlarmMoments++;
    sessions.set(e.session_id, (sessions.get(e.session_id) ?? false) || e.fired);
  }
  const opportunities = sessions.size;
  let falseAlarmSessions = 0;
  for (const fired of sessions.values()) if (fired) falseAlarmSessions++;
  const upperBound = opportunities > 0 ? clopperPearsonUpper(falseAlarmSessions, opportunities, options.confidence) : null;
  const daysWatched = Number.isFinite(first) ? (last - first) / 86_400_000 : 0;
  const needed = sequentialOpportunitiesNeeded(options.falseAlarmRate, options.confidence, falseAlarmSessions);
  const neededSingleLook = opportunitiesNeeded(options.falseAlarmRate, options.confidence, falseAlarmSessions);
  const evidence = sequentialEvidence(falseAlarmSessions, opportunities, options.falseAlarmRate);
  const threshold = 1 / (1 - options.confidence);
  const reasons: string[] = [];
  if (!(evidence >= threshold)) {
    reasons.push(
      `false-alarm rate not below ${options.falseAlarmRate} yet under repeated looks: evidence ${evidence.toFixed(2)} < ${threshold.toFixed(0)} ` +
        `(${falseAlarmSessions} false alarms in ${opportunities} sessions; needs ${needed})`,
    );
  }
  if (daysWatched < minDays) reasons.push(`watched ${daysWatched.toFixed(1)} days, needs ${minDays}`);
  return {
    check,
    opportunities,
    falseAlarmSessions,
    cleanMoments,
    falseAlarmMoments,
    violations,
    caught,
    upperBound,
    evidence,
    threshold,
    daysWatched,
    needed,
    neededSingleLook,
    earned: reasons.length === 0,
    reasons,
  };
}
