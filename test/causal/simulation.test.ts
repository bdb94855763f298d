/**
 * The falsifier and the holdout interval on simulated histories (calibration/rate-change-sim.ts
 * states the assumptions: the seed's pilot, six rules, six sessions a day, four weeks each side,
 * a weekly look, sessions that differ in how much they tempt a slip). Fewer histories than the
 * full run (scripts/causal-sim.ts, whose output docs/causal.md quotes), so the counts here are
 * reference values for these seeds and the bounds are loose enough for 100 histories.
 */
import { describe, expect, it } from "vitest";
import { simulateFalsifier, simulateHoldout } from "../../calibration/rate-change-sim.js";

describe("the falsifier on simulated histories (synthetic)", () => {
  it("no change: holds or fires in at most the nominal 5% under four looks, per rule and pooled", () => {
    const s = simulateFalsifier({ reps: 80, factorAfter: 1, seed: 11 });
    const perRule = s.perRule.holds.hits + s.perRule.fires.hits;
    const pooled = s.pooled.holds.hits + s.pooled.fires.hits;
    console.log(`no change: per rule ${perRule}/${s.perRule.holds.of}, pooled ${pooled}/${s.pooled.holds.of}`);
    expect([perRule, pooled]).toEqual([18, 3]);
    // The union bound makes the test conservative: the per-rule rate sits under 5%.
    expect(perRule / s.perRule.holds.of).toBeLessThan(0.05);
  });
  it("a halving: the pooled test sees it in most histories, one rule alone seldom", () => {
    const s = simulateFalsifier({ reps: 25, factorAfter: 0.5, seed: 12 });
    console.log(`halving: per rule holds ${s.perRule.holds.hits}/${s.perRule.holds.of}, pooled ${s.pooled.holds.hits}/${s.pooled.holds.of}`);
    expect([s.perRule.holds.hits, s.pooled.holds.hits, s.perRule.fires.hits + s.pooled.fires.hits]).toEqual([37, 23, 0]);
    expect(s.pooled.holds.rate).toBeGreaterThan(0.8);
    expect(s.perRule.holds.rate).toBeLessThan(0.4);
  });
  it("a regression (the slip rate doubles): fires, never holds", () => {
    const s = simulateFalsifier({ reps: 15, factorAfter: 2, seed: 13 });
    console.log(`doubling: per rule fires ${s.perRule.fires.hits}/${s.perRule.fires.of}, pooled ${s.pooled.fires.hits}/${s.pooled.fires.of}`);
    expect([s.perRule.fires.hits, s.pooled.fires.hits, s.perRule.holds.hits + s.pooled.holds.hits]).toEqual([42, 15, 0]);
  });
});

describe("the holdout interval on simulated histories (synthetic)", () => {
  it("covers the true difference at about its nominal 95%, 1-in-5 sessions held out, check removes 90% of slips", () => {
    const h = simulateHoldout({ reps: 400, oneIn: 5, factorTreated: 0.1, seed: 14 });
    console.log(`holdout coverage ${h.covered.hits}/${h.covered.of} [${h.covered.low.toFixed(3)}, ${h.covered.high.toFixed(3)}], mean width ${h.meanWidth.toFixed(3)}`);
    expect(h.covered.hits).toBe(379);
    expect(h.covered.low).toBeLessThan(0.95);
    expect(h.covered.high).toBeGreaterThan(0.95);
  });
});
