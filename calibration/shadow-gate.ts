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
 * `falseAlarmRate`.
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
  /** Upper bound on the false-alarm rate (null with no opportunities). */
  upperBound: number | null;
  /** Days from the first to the last eligible moment. */
  daysWatched: number;
  needed: number;
  earned: boolean;
  /** Why it has not earned its place yet (empty when it has). */
  reasons: string[];
}

/**
 * Reads a shadow log for one check. Convention: the unit is the session. A session with
 * clean eligible moments is one opportunity, and a false alarm when the check fired on any of
 * its clean moments, so many moments in one busy session cannot buy the bound. The check has
 * earned its place when the bound is below the target and it watched at least `minDays`
 * (the seed: "a week or 59 eligible opportunities, whichever is longer").
 *
 * Example: 59 sessions, one clean moment each, no firing, over 8 days, target 0.05 at 0.95:
 * {opportunities: 59, falseAlarmSessions: 0, upperBound: 0.0495, earned: true}.
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
  const needed = opportunitiesNeeded(options.falseAlarmRate, options.confidence, falseAlarmSessions);
  const reasons: string[] = [];
  if (upperBound === null || upperBound >= options.falseAlarmRate) {
    reasons.push(
      `false-alarm bound ${upperBound === null ? "n/a" : upperBound.toFixed(4)} is not below ${options.falseAlarmRate} ` +
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
    daysWatched,
    needed,
    earned: reasons.length === 0,
    reasons,
  };
}
