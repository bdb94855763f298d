/**
 * A cluster's complaint rate over a window, and each filed cluster's rate before and after its
 * upgrade was applied. The rate is the bucket's failures per judged exchange (per delivered
 * output when the caller joins outputs); its interval is a session-block percentile bootstrap
 * (95%, seeded: the same data give the same interval), since one session's exchanges are not
 * independent. The falsifier is calibration's group-sequential permutation test on sessions
 * (`rateChangeTest`: one look a week after the fix, alpha 0.05 spent quadratically, seeded), so
 * with no true change it ends in `holds` or `fires` at most 5% of the time however often the
 * report is read: `holds` the rate fell, `fires` it rose, `no_evidence` neither by the end of
 * the window, `pending` weeks remain and neither has crossed yet (docs/causal.md).
 *
 * Example: 12 complaints in 200 judged exchanges before, 2 in 190 after -> `{before: {rate:
 * 0.06, low: 0.03, high: 0.09}, after: {rate: 0.0105, …}, falsifier: "holds"}` once a look
 * crosses.
 */
import { sessionBlockBootstrap, type BlockStatistic } from "../../eval/index.js";
import { mulberry32, rateChangeTest, type RateChange, type RateChangeVerdict, type SessionCell } from "../../calibration/index.js";
import type { CoverageRecord } from "../../schemas/rules.js";
import type { RateWindow } from "../../schemas/recommendations.js";
import { bucketOf } from "./cluster.js";

export interface RateItem {
  exchange_id: string;
  session_id: string;
  /** YYYY-MM-DD. */
  date: string;
  /** The exchange is one of the bucket's failures. */
  complaint: boolean;
}

export const RATE_RESAMPLES = 2000;
export const RATE_SEED = 1;

/** `day` plus `n` days (YYYY-MM-DD, UTC). */
export function addDays(day: string, n: number): string {
  const t = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (YYYY-MM-DD, UTC). */
function daysFrom(a: string, b: string): number {
  const t = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
  return Math.round((t(b) - t(a)) / 86_400_000);
}

/** The rate over [since, until) with its interval; a window with nothing judged has rate null. */
export function rateWindow(items: readonly RateItem[], since: string, until: string, per: RateWindow["per"] = "judged_exchange"): RateWindow {
  const inside = items.filter((i) => i.date >= since && i.date < until);
  const complaints = inside.filter((i) => i.complaint).length;
  const sessions = new Set(inside.map((i) => i.session_id)).size;
  const base = { since, until, complaints, denominator: inside.length, per, sessions };
  if (inside.length === 0) return { ...base, rate: null, low: null, high: null };
  const stat: BlockStatistic = {
    names: ["rate"],
    width: 2,
    items: inside.length,
    addItem: (i, w, acc) => {
      acc[0] = (acc[0] ?? 0) + (inside[i]!.complaint ? w : 0);
      acc[1] = (acc[1] ?? 0) + w;
    },
    finish: (s) => [(s[1] ?? 0) > 0 ? (s[0] ?? 0) / (s[1] ?? 1) : null],
  };
  const boot = sessionBlockBootstrap(stat, inside.map((i) => i.session_id), { resamples: RATE_RESAMPLES, seed: RATE_SEED });
  const f = boot.figures[0];
  const r4 = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : Math.round(x * 1e4) / 1e4);
  return { ...base, rate: r4(complaints / inside.length), low: r4(f?.lower), high: r4(f?.upper) };
}

/** The items of one bucket: every judged exchange, marked when it is one of the bucket's failures. */
export function bucketItems(bucket: string, coverage: readonly CoverageRecord[], judged: readonly { exchange_id: string; session_id: string; date: string | null }[]): RateItem[] {
  const inBucket = new Set(coverage.filter((r) => r.fix !== null && !r.before_rule && bucketOf(r) === bucket).map((r) => r.exchange_id));
  return judged.filter((j): j is { exchange_id: string; session_id: string; date: string } => j.date !== null).map((j) => ({ exchange_id: j.exchange_id, session_id: j.session_id, date: j.date, complaint: inBucket.has(j.exchange_id) }));
}

/**
 * The bucket most of the cited exchanges fall in (ties: the first by name), or null when none
 * of them is a bucketed failure: a hand-filed upgrade is rated in that bucket, or not at all.
 */
export function bucketOfCited(cited: readonly string[], coverage: readonly CoverageRecord[]): string | null {
  const byId = new Map(coverage.filter((r) => r.fix !== null && !r.before_rule).map((r) => [r.exchange_id, bucketOf(r)]));
  const counts = new Map<string, number>();
  for (const id of new Set(cited)) {
    const b = byId.get(id);
    if (b !== undefined) counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  let best: string | null = null;
  let n = 0;
  for (const [b, c] of [...counts].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) {
    if (c > n) {
      best = b;
      n = c;
    }
  }
  return best;
}

export type FalsifierState = RateChangeVerdict;

/** Permutations a look, and the seed the falsifier draws them from (the same data give the same verdict). */
export const FALSIFIER_RESAMPLES = 999;
export const FALSIFIER_SEED = 1;

/**
 * The items as session cells: before the pivot (look 0) and after it, by week (look 1 for days
 * 0-6 after the pivot, …). A session with exchanges on both sides counts once on each side.
 */
export function sessionCells(items: readonly RateItem[], pivot: string, days: number): SessionCell[] {
  const cells = new Map<string, SessionCell>();
  const start = addDays(pivot, -days);
  const end = addDays(pivot, days);
  for (const i of items) {
    if (i.date < start || i.date >= end) continue;
    let look = 0;
    if (i.date >= pivot) look = Math.floor(daysFrom(pivot, i.date) / 7) + 1;
    const key = `${look}\u0000${i.session_id}`;
    const c = cells.get(key) ?? { incidents: 0, chances: 0, look };
    c.chances++;
    if (i.complaint) c.incidents++;
    cells.set(key, c);
  }
  return [...cells.values()];
}

export interface BeforeAfter {
  pivot: string | null;
  window_days: number;
  before: RateWindow;
  after: RateWindow | null;
  change: number | null;
  falsifier: FalsifierState;
  /** Why the falsifier is pending, in words. */
  pending_why: string | null;
  /** The sequential test behind the verdict (null while not applied or nothing judged). */
  test: { looks: number; looks_taken: number; crossed_at: number | null; per_look: RateChange["perLook"] } | null;
}

/**
 * Before and after a pivot (the day the upgrade was applied). Not applied yet: the before
 * window ends today and the falsifier is pending. The after window is cut at today while it
 * is still open, and the falsifier waits until it is whole.
 */
export function beforeAfter(items: readonly RateItem[], appliedAt: string | null, today: string, days: number): BeforeAfter {
  if (appliedAt === null) {
    return { pivot: null, window_days: days, before: rateWindow(items, addDays(today, -days), addDays(today, 1)), after: null, change: null, falsifier: "pending", pending_why: "not applied yet", test: null };
  }
  const pivot = appliedAt.slice(0, 10);
  const before = rateWindow(items, addDays(pivot, -days), pivot);
  const end = addDays(pivot, days);
  const after = rateWindow(items, pivot, end < addDays(today, 1) ? end : addDays(today, 1));
  const change = before.rate !== null && after.rate !== null ? Math.round((after.rate - before.rate) * 1e4) / 1e4 : null;
  if (before.rate === null || after.rate === null) {
    return { pivot, window_days: days, before, after, change, falsifier: "pending", pending_why: "nothing judged in one of the windows", test: null };
  }
  // One look a week; the days after the pivot that are over (today included) say how many are taken.
  const looks = Math.max(1, Math.ceil(days / 7));
  const over = Math.min(days, Math.max(0, daysFrom(pivot, today) + 1));
  const taken = over >= days ? looks : Math.min(looks, Math.floor(over / 7));
  const r = rateChangeTest([sessionCells(items, pivot, days)], { looks, look: taken, resamples: FALSIFIER_RESAMPLES, random: mulberry32(FALSIFIER_SEED) });
  const pending_why = r.verdict === "pending" ? `look ${taken} of ${looks} (one a week after ${pivot}): no change beyond this look's share of the 5% yet` : null;
  return { pivot, window_days: days, before, after, change, falsifier: r.verdict, pending_why, test: { looks, looks_taken: taken, crossed_at: r.crossedAt, per_look: r.perLook } };
}
