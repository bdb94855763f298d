import { describe, expect, it } from "vitest";
import fc from "fast-check";
import "../helpers/fast-check-seed.js";
import { clusterWilson, holdoutInterval, lookSpend, mulberry32, newcombeDifference, quadraticSpend, rateChangeTest, wilson, type SessionCell } from "../../calibration/index.js";

const cells = (n: number, incidents: number, chances: number, look: number): SessionCell[] => Array.from({ length: n }, () => ({ incidents, chances, look }));

describe("the quadratic spending function", () => {
  it("spends alpha/2 per side by the last look, in increments (k² − (k−1)²)/K²", () => {
    expect(quadraticSpend(0.05, 1)).toBeCloseTo(0.05, 12);
    expect(quadraticSpend(0.05, 0.5)).toBeCloseTo(0.0125, 12);
    const inc = [1, 2, 3, 4].map((k) => lookSpend(0.05, k, 4));
    expect(inc.map((x) => x * 16 / 0.025)).toEqual([1, 3, 5, 7].map((x) => expect.closeTo(x, 9)));
    expect(inc.reduce((a, b) => a + b, 0)).toBeCloseTo(0.025, 12);
  });
});

describe("rateChangeTest", () => {
  it("the doc comment's example: 6 sessions with 2/10 before, 6 with 0/10 after: only 1 in C(12,6)=924 labellings is as low", () => {
    const r = rateChangeTest([[...cells(6, 2, 10, 0), ...cells(6, 0, 10, 1)]], { looks: 1, look: 1, resamples: 999, random: mulberry32(1) });
    expect(r.verdict).toBe("holds");
    expect(r.perLook[0]!.difference).toBeCloseTo(-0.2, 12);
    // Exact p = 1/924 = 0.00108; the Monte Carlo estimate (1 + hits)/1000 is near it.
    expect(r.perLook[0]!.pLow!).toBeLessThan(0.006);
    expect(r.perLook[0]!.pHigh).toBe(1);
  });
  it("mirrored, the rate rose: fires; no difference at all: no_evidence at the last look, pending before it", () => {
    const up = rateChangeTest([[...cells(6, 0, 10, 0), ...cells(6, 2, 10, 1)]], { looks: 1, look: 1, random: mulberry32(2) });
    expect(up.verdict).toBe("fires");
    const flat = [...cells(20, 1, 10, 0), ...cells(10, 1, 10, 1), ...cells(10, 1, 10, 2)];
    expect(rateChangeTest([flat], { looks: 2, look: 2, random: mulberry32(3) }).verdict).toBe("no_evidence");
    expect(rateChangeTest([flat], { looks: 2, look: 1, random: mulberry32(3) }).verdict).toBe("pending");
    expect(rateChangeTest([flat], { looks: 2, look: 0, random: mulberry32(3) }).perLook).toEqual([]);
  });
  it("a first look spends little: the same drop crosses at look 1 of 1 but not at look 1 of 4", () => {
    const data = [...cells(8, 2, 10, 0), ...cells(8, 0, 10, 1)];
    expect(rateChangeTest([data], { looks: 1, look: 1, random: mulberry32(4) }).verdict).toBe("holds");
    const early = rateChangeTest([data], { looks: 4, look: 1, random: mulberry32(4) });
    expect(early.perLook[0]!.spend).toBeCloseTo(0.025 / 16, 12);
    // p ≥ 1/C(16,8) = 1/12870 exactly, but the Monte Carlo floor is 1/1000 < 0.0016: it may cross; with 999 draws it does.
    expect(["holds", "pending"]).toContain(early.verdict);
  });
  it("pooled strata are permuted apart: a rule with no after sessions adds nothing but its own before rate stays out of the after side", () => {
    const a = [...cells(6, 2, 10, 0), ...cells(6, 0, 10, 1)];
    const b = cells(10, 5, 10, 0);
    const r = rateChangeTest([a, b], { looks: 1, look: 1, random: mulberry32(5) });
    expect(r.verdict).toBe("holds");
  });
  it("zero incidents: the statistic never moves, no verdict but no_evidence", () => {
    expect(rateChangeTest([[...cells(30, 0, 2, 0), ...cells(30, 0, 2, 1)]], { looks: 1, look: 1, random: mulberry32(6) }).verdict).toBe("no_evidence");
  });
  it("refuses nonsense with what it expected", () => {
    const r = mulberry32(1);
    expect(() => rateChangeTest([], { looks: 1, look: 1, random: r })).toThrow(/at least one stratum/);
    expect(() => rateChangeTest([[{ incidents: 3, chances: 2, look: 0 }]], { looks: 1, look: 1, random: r })).toThrow(/incidents in 0..chances/);
    expect(() => rateChangeTest([[{ incidents: 0, chances: 2, look: 5 }]], { looks: 1, look: 1, random: r })).toThrow(/a look in 0..1/);
    expect(() => rateChangeTest([[]], { looks: 2, look: 3, random: r })).toThrow(/looks taken in 0..2/);
    expect(() => rateChangeTest([[]], { looks: 1, look: 1, alpha: 1, random: r })).toThrow(/alpha in \(0, 1\)/);
  });
  it("property: the same seed gives the same verdict; p-values are in (0, 1]", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ incidents: fc.nat(2), extra: fc.nat(3), look: fc.nat(2) }), { minLength: 2, maxLength: 30 }), fc.integer(), (xs, seed) => {
        const s = xs.map((x) => ({ incidents: x.incidents, chances: x.incidents + x.extra, look: x.look }));
        const a = rateChangeTest([s], { looks: 2, look: 2, resamples: 99, random: mulberry32(seed) });
        const b = rateChangeTest([s], { looks: 2, look: 2, resamples: 99, random: mulberry32(seed) });
        expect(a).toEqual(b);
        for (const l of a.perLook) for (const p of [l.pLow, l.pHigh]) if (p !== null) expect(p > 0 && p <= 1).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe("the holdout interval", () => {
  it("Wilson's interval: 81/263 -> [0.2553, 0.3662] (Newcombe 1998, single proportion)", () => {
    const w = wilson(81, 263, 1.959964);
    expect(w.low).toBeCloseTo(0.2553, 4);
    expect(w.high).toBeCloseTo(0.3662, 4);
  });
  it("Newcombe's method 10: 56/70 − 48/80 -> 0.2 [0.0524, 0.3339]", () => {
    const a = { rate: 56 / 70, ...wilson(56, 70, 1.959964) };
    const b = { rate: 48 / 80, ...wilson(48, 80, 1.959964) };
    const d = newcombeDifference(a, b);
    expect(d.difference).toBeCloseTo(0.2, 12);
    expect(d.low).toBeCloseTo(0.0524, 4);
    expect(d.high).toBeCloseTo(0.3339, 4);
  });
  it("clustered slips widen the interval: 10 sessions with 5/5 and 40 with 0/5 against 50 slips spread one a session", () => {
    const clumped = [...Array.from({ length: 10 }, () => ({ incidents: 5, chances: 5 })), ...Array.from({ length: 40 }, () => ({ incidents: 0, chances: 5 }))];
    const spread = Array.from({ length: 50 }, () => ({ incidents: 1, chances: 5 }));
    const c = clusterWilson(clumped);
    const s = clusterWilson(spread);
    expect(c.rate).toBeCloseTo(0.2, 12);
    // Every chance of a session agrees: deff = m/(m−1) · 5 (the cluster size) = 5.102.
    expect(c.designEffect).toBeCloseTo((50 / 49) * 5, 6);
    expect(s.designEffect).toBe(1);
    expect(c.high - c.low).toBeGreaterThan(2 * (s.high - s.low));
  });
  it("the issue's shape: 1/240 treated vs 9/60 held out, one chance per session", () => {
    const h = holdoutInterval(Array.from({ length: 240 }, (_, i) => ({ incidents: i === 0 ? 1 : 0, chances: 1 })), Array.from({ length: 60 }, (_, i) => ({ incidents: i < 9 ? 1 : 0, chances: 1 })));
    expect(h.difference).toBeCloseTo(1 / 240 - 0.15, 12);
    expect(h.low).toBeLessThan(h.difference);
    expect(h.high).toBeLessThan(0);
    expect(h.heldOut.designEffect).toBeCloseTo(60 / 59, 9);
  });
  it("property: bounds are ordered and inside [−1, 1]; each arm's interval holds its rate", () => {
    const arm = fc.array(fc.record({ incidents: fc.nat(3), extra: fc.nat(3) }), { minLength: 1, maxLength: 40 }).map((xs) => xs.map((x) => ({ incidents: x.incidents, chances: x.incidents + x.extra + 1 })));
    fc.assert(
      fc.property(arm, arm, (t, o) => {
        const h = holdoutInterval(t, o);
        expect(h.low).toBeLessThanOrEqual(h.difference + 1e-12);
        expect(h.difference).toBeLessThanOrEqual(h.high + 1e-12);
        expect(h.low).toBeGreaterThanOrEqual(-1);
        expect(h.high).toBeLessThanOrEqual(1);
        for (const a of [h.treated, h.heldOut]) expect(a.low <= a.rate + 1e-12 && a.rate <= a.high + 1e-12).toBe(true);
      }),
    );
  });
  it("refuses an arm with no chance", () => {
    expect(() => holdoutInterval([{ incidents: 0, chances: 0 }], [{ incidents: 0, chances: 1 }])).toThrow(/at least one chance in the arm/);
  });
});
