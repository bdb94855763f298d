import { EvalInputError } from "./errors.js";
import { mulberry32 } from "../core/mulberry32.js";
import type { RandomSource } from "../core/random-source.js";
import { sampleIndices } from "../core/shuffle.js";

/**
 * The gold-set draw: N items (default 300), at most k per session (default 3), M of them
 * composed failures (default 180), seeded, with every item's inclusion probability exact.
 *
 * Design (two stages, chosen so the probabilities are exact rather than simulated):
 * 1. Cap. Within each session, keep `keep_h` of its `m_h` items of stratum h by simple
 *    random sampling, where keep is a fixed function of the session's counts: strata in
 *    order failure, other, unscored; each takes as many as the cap allows while leaving one
 *    slot for each later stratum the session has. So every item has a chance, a session
 *    never passes the cap, and the pool's stratum sizes P_h are fixed numbers.
 * 2. Draw. From the pool, a simple random sample of n_h per stratum: n_failure = min(M,
 *    P_failure); the other N - n_failure split between "other" and "unscored" in
 *    proportion to their pools (largest remainder); a short stratum's slots go to the
 *    others. Also fixed numbers.
 * Hence   pi_i = (keep_h(s) / m_h(s)) * (n_h / P_h)   exactly, for every item of the corpus,
 * and sum_i pi_i over stratum h equals n_h. `inclusionMonteCarlo` re-runs the seeded sampler
 * to check this (tests do).
 *
 * Strata: "failure" (the v4 composition says failure), "other" (it says no failure) and
 * "unscored" (no composition: a missing answer is never counted as "no").
 *
 * Refusal: a cap under which some item of a requested stratum could never be drawn is refused
 * (BAD_OPTION, naming the stratum, the cap and the smallest cap that works; `capRefusal`),
 * never drawn around with a shortfall note.
 *
 * Why k = 3: a gold set's precision comes from sessions, not items (items of one session are
 * correlated); with k = 3 the 300 items span at least 100 sessions, enough for the
 * session-block bootstrap, and the design effect stays at most 1 + 2 rho (about 1.2-1.4 for
 * a within-session correlation of 0.1-0.2), while one session can still contribute a
 * failure, the reply that caused it and an ordinary turn. k must be at least 2 (one slot
 * per stratum present).
 *
 * Weights: `designWeight` = 1 / pi; `weight` = design weight calibrated within its stratum
 * so the weights of a stratum sum to that stratum's corpus count (Hajek), hence all weights
 * sum to the corpus size whenever every non-empty stratum has a drawn item.
 *
 * Example: AB-ReDial's 600 exchanges in 200 sessions with 148 composed failures (synthetic
 * v4 verdicts), `sampleGold(c, {seed: 1, failures: 100})` → 300 items (100 failures, 200
 * other), inclusion probabilities from 0.4425 to 0.6757, no session with more than 3.
 */
export type Stratum = "failure" | "other" | "unscored";
export const STRATA: readonly Stratum[] = ["failure", "other", "unscored"];

export interface GoldCandidate {
  id: string;
  session: string;
  /** The composed verdict: true failure, false not, null no composition. */
  failure: boolean | null;
}

export interface SampleOptions {
  seed: number;
  /** Items to draw (default 300). */
  n?: number;
  /** At most this many items per session (default 3, at least 2). */
  perSession?: number;
  /** Composed failures to draw (default 180). */
  failures?: number;
}

export interface GoldItem {
  id: string;
  session: string;
  stratum: Stratum;
  inclusionProbability: number;
  designWeight: number;
  weight: number;
}

export interface StratumCounts {
  failure: number;
  other: number;
  unscored: number;
}

export interface GoldSample {
  items: GoldItem[];
  options: Required<SampleOptions>;
  method: "exact";
  /** Corpus: items and sessions. */
  corpus: StratumCounts & { items: number; sessions: number };
  /** Items in the capped pool per stratum (P_h). */
  pool: StratumCounts;
  /** Items drawn per stratum (n_h). */
  drawn: StratumCounts;
  /** Requested minus drawn, when the capped corpus had too few. */
  shortfall: { failure: number; total: number };
}

export const stratumOf = (failure: boolean | null): Stratum => (failure === null ? "unscored" : failure ? "failure" : "other");

/** keep_h for one session: strata in order, each leaving one slot per later stratum present. */
export function capAllocation(m: StratumCounts, perSession: number): StratumCounts {
  const keep: StratumCounts = { failure: 0, other: 0, unscored: 0 };
  let used = 0;
  STRATA.forEach((h, i) => {
    const later = STRATA.slice(i + 1).filter((g) => m[g] > 0).length;
    keep[h] = Math.max(0, Math.min(m[h], perSession - used - later));
    used += keep[h];
  });
  return keep;
}

/** n_h from pool sizes: failures first, the rest split by largest remainder, shortages moved. */
export function drawAllocation(pool: StratumCounts, n: number, failures: number): StratumCounts {
  const drawn: StratumCounts = { failure: Math.min(failures, pool.failure, n), other: 0, unscored: 0 };
  let rest = n - drawn.failure;
  const restPool = pool.other + pool.unscored;
  if (restPool > 0 && rest > 0) {
    const take = Math.min(rest, restPool);
    const ideal = Math.round((take * pool.other) / restPool);
    drawn.other = Math.min(pool.other, Math.max(take - pool.unscored, ideal));
    drawn.unscored = take - drawn.other;
    rest -= take;
  }
  // Too few non-failures: fill with failures.
  if (rest > 0) drawn.failure = Math.min(pool.failure, drawn.failure + rest);
  return drawn;
}

export interface SamplePlan {
  /** Sessions sorted by id, each with its items per stratum sorted by id. */
  sessions: { session: string; items: Record<Stratum, string[]>; keep: StratumCounts }[];
  pool: StratumCounts;
  drawn: StratumCounts;
  corpus: StratumCounts & { items: number; sessions: number };
}

/** The deterministic part of the design: counts, caps and allocations, independent of the seed. */
export function planSample(candidates: readonly GoldCandidate[], opts: Required<SampleOptions>): SamplePlan {
  const bySession = new Map<string, Record<Stratum, string[]>>();
  const seen = new Set<string>();
  const corpus = { failure: 0, other: 0, unscored: 0, items: 0, sessions: 0 };
  for (const c of candidates) {
    if (seen.has(c.id)) throw new EvalInputError("BAD_VALUE", "duplicate candidate", "each exchange once", c.id);
    seen.add(c.id);
    let s = bySession.get(c.session);
    if (!s) {
      s = { failure: [], other: [], unscored: [] };
      bySession.set(c.session, s);
    }
    const h = stratumOf(c.failure);
    s[h].push(c.id);
    corpus[h]++;
    corpus.items++;
  }
  corpus.sessions = bySession.size;
  const pool: StratumCounts = { failure: 0, other: 0, unscored: 0 };
  const sessions = [...bySession.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([session, items]) => {
      for (const h of STRATA) items[h].sort();
      const keep = capAllocation({ failure: items.failure.length, other: items.other.length, unscored: items.unscored.length }, opts.perSession);
      for (const h of STRATA) pool[h] += keep[h];
      return { session, items, keep };
    });
  return { sessions, pool, drawn: drawAllocation(pool, opts.n, opts.failures), corpus };
}

/** One run of the seeded sampler: the ids drawn (stage 1 then stage 2, one random stream). */
export function drawWithPlan(plan: SamplePlan, random: RandomSource): { id: string; session: string; stratum: Stratum }[] {
  const pools: Record<Stratum, { id: string; session: string }[]> = { failure: [], other: [], unscored: [] };
  for (const s of plan.sessions) {
    for (const h of STRATA) {
      const ids = s.items[h];
      for (const j of sampleIndices(ids.length, s.keep[h], random)) pools[h].push({ id: ids[j]!, session: s.session });
    }
  }
  const out: { id: string; session: string; stratum: Stratum }[] = [];
  for (const h of STRATA) {
    const pool = pools[h];
    for (const j of sampleIndices(pool.length, plan.drawn[h], random)) {
      const p = pool[j]!;
      out.push({ ...p, stratum: h });
    }
  }
  return out;
}

export function resolveSampleOptions(opts: SampleOptions): Required<SampleOptions> {
  const o = { seed: opts.seed, n: opts.n ?? 300, perSession: opts.perSession ?? 3, failures: opts.failures ?? 180 };
  const int = (v: number, name: string, min: number): void => {
    if (!Number.isInteger(v) || v < min) throw new EvalInputError("BAD_OPTION", name, `an integer >= ${min}`, String(v));
  };
  int(o.n, "items to draw", 1);
  int(o.perSession, "per-session cap", 2);
  int(o.failures, "failures to draw", 0);
  if (o.failures > o.n) throw new EvalInputError("BAD_OPTION", "failures to draw", `at most the items to draw (${o.n})`, String(o.failures));
  if (!Number.isInteger(o.seed)) throw new EvalInputError("BAD_OPTION", "seed", "an integer", String(o.seed));
  return o;
}

/**
 * Why a plan cannot draw what was asked: a per-session cap so tight that some item of a
 * requested stratum can never be kept (inclusion probability 0), e.g. `--per-session 2` in
 * sessions holding a failure, an other item and an unscored one, where the two slots go to
 * the later strata and no failure of those sessions can be drawn. Requested strata: failure
 * when failures are asked for, other and unscored when the rest of the items are, and any
 * stratum the allocation draws from. Null when every eligible item of those strata has a
 * chance.
 */
export interface CapRefusal {
  stratum: Stratum;
  cap: number;
  /** Sessions where the stratum keeps no item. */
  sessions: number;
  /** Items of the stratum given probability 0. */
  items: number;
  /** The smallest cap under which every requested stratum keeps an item in every session. */
  smallestCap: number;
}

function starved(m: StratumCounts, keep: StratumCounts, requested: ReadonlySet<Stratum>): Stratum | null {
  for (const h of STRATA) if (requested.has(h) && m[h] > 0 && keep[h] === 0) return h;
  return null;
}

export function capRefusal(plan: SamplePlan, opts: Required<SampleOptions>): CapRefusal | null {
  const requested = new Set<Stratum>(STRATA.filter((h) => plan.drawn[h] > 0 || (h === "failure" ? opts.failures > 0 : opts.n > opts.failures)));
  const counts = plan.sessions.map((s) => ({ failure: s.items.failure.length, other: s.items.other.length, unscored: s.items.unscored.length }));
  let first: Stratum | null = null;
  let sessions = 0;
  let items = 0;
  for (let i = 0; i < plan.sessions.length; i++) {
    const h = starved(counts[i]!, plan.sessions[i]!.keep, requested);
    if (h === null) continue;
    first ??= h;
    if (h === first) {
      sessions++;
      items += counts[i]![h];
    }
  }
  if (first === null) return null;
  // One slot per stratum present always suffices (capAllocation leaves one for each later stratum).
  let smallestCap = opts.perSession + 1;
  while (counts.some((m) => starved(m, capAllocation(m, smallestCap), requested) !== null)) smallestCap++;
  return { stratum: first, cap: opts.perSession, sessions, items, smallestCap };
}

/** Exact inclusion probability of every corpus item under the plan, by id. */
export function inclusionProbabilities(plan: SamplePlan): Map<string, number> {
  const pi = new Map<string, number>();
  for (const s of plan.sessions) {
    for (const h of STRATA) {
      const m = s.items[h].length;
      if (m === 0) continue;
      const p = plan.pool[h] > 0 ? (s.keep[h] / m) * (plan.drawn[h] / plan.pool[h]) : 0;
      for (const id of s.items[h]) pi.set(id, p);
    }
  }
  return pi;
}

export function sampleGold(candidates: readonly GoldCandidate[], options: SampleOptions): GoldSample {
  const opts = resolveSampleOptions(options);
  if (candidates.length === 0) throw new EvalInputError("EMPTY", "no exchanges to sample from", "at least one exchange", "0");
  const plan = planSample(candidates, opts);
  const refusal = capRefusal(plan, opts);
  if (refusal) {
    const r = refusal;
    throw new EvalInputError(
      "BAD_OPTION",
      `a cap of ${r.cap} per session gives the ${r.stratum} items of ${r.sessions} session${r.sessions === 1 ? "" : "s"} (${r.items} item${r.items === 1 ? "" : "s"}) inclusion probability 0`,
      `a per-session cap of at least ${r.smallestCap} (the smallest that gives every eligible item a chance)`,
      String(r.cap),
    );
  }
  const pi = inclusionProbabilities(plan);
  const drawn = drawWithPlan(plan, mulberry32(opts.seed));
  const htTotal: StratumCounts = { failure: 0, other: 0, unscored: 0 };
  for (const d of drawn) htTotal[d.stratum] += 1 / (pi.get(d.id) as number);
  const items = drawn.map((d): GoldItem => {
    const p = pi.get(d.id) as number;
    const designWeight = 1 / p;
    return {
      id: d.id,
      session: d.session,
      stratum: d.stratum,
      inclusionProbability: p,
      designWeight,
      weight: (designWeight * plan.corpus[d.stratum]) / htTotal[d.stratum],
    };
  });
  return {
    items,
    options: opts,
    method: "exact",
    corpus: plan.corpus,
    pool: plan.pool,
    drawn: plan.drawn,
    shortfall: { failure: Math.max(0, opts.failures - plan.drawn.failure), total: Math.max(0, opts.n - items.length) },
  };
}
