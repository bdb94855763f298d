import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  capRefusal,
  drawWithPlan,
  inclusionMonteCarlo,
  inclusionProbabilities,
  mulberry32,
  planSample,
  resolveSampleOptions,
  sampleGold,
  splitOfSession,
  STRATA,
  type GoldCandidate,
} from "../../eval/index.js";

/** A corpus with sessions of uneven length and failures concentrated in some sessions. */
function corpus(seed: number, sessions: number, maxLen: number, failureRate: number, unscoredRate = 0): GoldCandidate[] {
  const r = mulberry32(seed);
  const out: GoldCandidate[] = [];
  for (let s = 0; s < sessions; s++) {
    const len = 1 + Math.floor(r() * maxLen);
    const hot = r() < 0.3;
    for (let t = 0; t < len; t++) {
      const u = r();
      const failure = u < unscoredRate ? null : r() < (hot ? failureRate * 3 : failureRate);
      out.push({ id: `s${s}-t${t}`, session: `s${s}`, failure });
    }
  }
  return out;
}

describe("sampleGold", () => {
  const c = corpus(11, 120, 14, 0.08, 0.05);

  it("draws N items, M failures, at most k per session, deterministically", () => {
    const g = sampleGold(c, { seed: 5, n: 60, failures: 30, perSession: 3 });
    expect(g.items).toHaveLength(60);
    expect(g.items.filter((i) => i.stratum === "failure")).toHaveLength(30);
    const per = new Map<string, number>();
    for (const i of g.items) per.set(i.session, (per.get(i.session) ?? 0) + 1);
    expect(Math.max(...per.values())).toBeLessThanOrEqual(3);
    expect(sampleGold(c, { seed: 5, n: 60, failures: 30 }).items).toEqual(g.items);
    // Input order does not matter: sessions and items are sorted by id first.
    expect(sampleGold([...c].reverse(), { seed: 5, n: 60, failures: 30 }).items).toEqual(g.items);
    expect(sampleGold(c, { seed: 6, n: 60, failures: 30 }).items).not.toEqual(g.items);
  });

  it("exact inclusion probabilities sum to the drawn count in each stratum", () => {
    const opts = resolveSampleOptions({ seed: 1, n: 60, failures: 30 });
    const plan = planSample(c, opts);
    const pi = inclusionProbabilities(plan);
    for (const h of STRATA) {
      const sum = c.filter((x) => (x.failure === null ? "unscored" : x.failure ? "failure" : "other") === h).reduce((s, x) => s + (pi.get(x.id) as number), 0);
      expect(sum).toBeCloseTo(plan.drawn[h], 9);
    }
    expect([...pi.values()].every((p) => p > 0 && p <= 1)).toBe(true);
  });

  it("Monte Carlo over the seeded sampler agrees with the exact probabilities within their standard errors", () => {
    const opts = resolveSampleOptions({ seed: 1, n: 60, failures: 30 });
    const plan = planSample(c, opts);
    const pi = inclusionProbabilities(plan);
    const mc = inclusionMonteCarlo(c.map((x) => x.id), (seed) => drawWithPlan(plan, mulberry32(seed)).map((d) => d.id), { replicates: 2000, seed: 42 });
    let maxZ = 0;
    let sumSq = 0;
    let k = 0;
    for (const [id, e] of mc.estimates) {
      const p = pi.get(id) as number;
      const se = Math.sqrt((p * (1 - p)) / mc.replicates);
      if (se === 0) {
        expect(e.estimate).toBe(p);
        continue;
      }
      const z = (e.estimate - p) / se;
      maxZ = Math.max(maxZ, Math.abs(z));
      sumSq += z * z;
      k++;
    }
    expect(maxZ).toBeLessThan(4.5);
    // Mean squared z near 1 (chi-square / k): the estimator is centred on the exact values.
    expect(sumSq / k).toBeGreaterThan(0.8);
    expect(sumSq / k).toBeLessThan(1.2);
  });

  it("reports a shortfall when the capped corpus has too few failures, and fills with others", () => {
    const few = corpus(3, 40, 6, 0.02);
    const g = sampleGold(few, { seed: 2, n: 50, failures: 40 });
    expect(g.shortfall.failure).toBeGreaterThan(0);
    expect(g.items).toHaveLength(50);
    expect(g.drawn.failure + g.drawn.other + g.drawn.unscored).toBe(50);
  });

  it("refuses a cap below 2, more failures than items, and an empty corpus", () => {
    expect(() => sampleGold(c, { seed: 1, perSession: 1 })).toThrow(/per-session cap/);
    expect(() => sampleGold(c, { seed: 1, n: 10, failures: 20 })).toThrow(/failures to draw/);
    expect(() => sampleGold([], { seed: 1 })).toThrow(/no exchanges/);
  });

  it("property: never exceeds the session cap; calibrated weights sum to the corpus size", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 1, max: 80 }),
        fc.double({ min: 0, max: 0.6, noNaN: true }),
        (seed, sessions, cap, n, rate) => {
          const cc = corpus(seed, sessions, 10, rate, 0.1);
          const m = Math.min(n, Math.floor(n / 2));
          // A cap that starves a requested stratum is refused; the smallest cap it names works.
          let k = cap;
          const refusal = capRefusal(planSample(cc, resolveSampleOptions({ seed, n, failures: m, perSession: k })), resolveSampleOptions({ seed, n, failures: m, perSession: k }));
          if (refusal) {
            expect(() => sampleGold(cc, { seed, n, failures: m, perSession: k })).toThrow(/inclusion probability 0/);
            expect(refusal.smallestCap).toBeGreaterThan(k);
            k = refusal.smallestCap;
          }
          const g = sampleGold(cc, { seed, n, failures: m, perSession: k });
          const per = new Map<string, number>();
          for (const i of g.items) per.set(i.session, (per.get(i.session) ?? 0) + 1);
          for (const v of per.values()) expect(v).toBeLessThanOrEqual(k);
          expect(new Set(g.items.map((i) => i.id)).size).toBe(g.items.length);
          const covered = STRATA.every((h) => g.corpus[h] === 0 || g.drawn[h] > 0);
          if (covered) expect(g.items.reduce((s, i) => s + i.weight, 0)).toBeCloseTo(g.corpus.items, 6);
          for (const i of g.items) expect(i.designWeight).toBeCloseTo(1 / i.inclusionProbability, 9);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe("split by session", () => {
  it("puts about half of many sessions in the holdout, stably", () => {
    const ids = Array.from({ length: 10000 }, (_, i) => `session-${i}`);
    const holdout = ids.filter((s) => splitOfSession(s) === "holdout").length;
    expect(Math.abs(holdout / ids.length - 0.5)).toBeLessThan(0.02);
    expect(ids.slice(0, 50).map((s) => splitOfSession(s))).toEqual(ids.slice(0, 50).map((s) => splitOfSession(s)));
    expect(ids.filter((s) => splitOfSession(s, { holdoutShare: 0.2 }) === "holdout").length / ids.length).toBeCloseTo(0.2, 1);
  });
  it("never puts one session on both sides of a gold set", () => {
    const g = sampleGold(corpus(9, 200, 8, 0.1), { seed: 3 });
    const side = new Map<string, string>();
    for (const i of g.items) {
      const s = splitOfSession(i.session);
      expect(side.get(i.session) ?? s).toBe(s);
      side.set(i.session, s);
    }
    expect(new Set(side.values()).size).toBe(2);
  });
});
