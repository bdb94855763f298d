// Before/after rates of filed clusters: on synthetic histories where the applied fix works (the
// falsifier holds), does nothing (no evidence) and makes it worse (it fires), reported as synthetic; and
// upgrades filed by hand that cite exchange ids, rated in the bucket most of their ids fall in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ruleHistory } from "../../runtime/corpora/synthetic/rule-history.js";
import { filedRates, type QueueEntry } from "../../runtime/jobs/rules/filing.js";
import { beforeAfter, bucketItems, bucketOfCited, rateWindow } from "../../runtime/rules/index.js";
import type { Filing } from "../../schemas/recommendations.js";
import type { CoverageRecord } from "../../schemas/rules.js";

const RULE = "claude.tools.4e1a2b";
const BUCKET = `rule:${RULE}`;
const filing = (exchange_ids: string[]): Filing => ({ schema: "rule-filing/1", ts: "2026-11-01T00:00:00Z", upgrade_id: "up-20261101-aaaaaa", claim_hash: "0".repeat(16), recommendation_id: "rec-000000000000", cluster_id: BUCKET, bucket: BUCKET, exchange_ids });
const applied = (id: string, at: string | null, status = "applied"): QueueEntry => ({ id, schema: "rule-upgrade/1", source: "errata", status, applied_at: at, claim_hash: null, text: BUCKET, exchange_ids: [] });

describe("before/after rates of a filed cluster (synthetic history)", () => {
  for (const [name, after, verdict] of [["works", 0.03, "holds"], ["does nothing", 0.2, "no_evidence"], ["makes it worse", 0.4, "fires"]] as const) {
    it(`a fix that ${name}: the falsifier ${verdict}`, () => {
      const h = ruleHistory({ seed: 7, pivot: "2026-11-15", days: 14, perDay: 30, rateBefore: 0.2, rateAfter: after, ruleId: RULE });
      const { rows } = filedRates({ filings: [filing(h.coverage.slice(0, 5).map((c) => c.exchange_id))], queue: [applied("up-20261101-aaaaaa", "2026-11-15T09:00:00Z")], coverage: h.coverage, judged: h.judged, today: "2026-12-10", days: 14 });
      expect(rows).toHaveLength(1);
      const r = rows[0]!;
      expect(r).toMatchObject({ synthetic: true, hand: false, bucket: BUCKET, falsifier: verdict, pivot: "2026-11-15", pending_why: null });
      expect(r.before.denominator).toBe(14 * 30);
      expect(r.after?.denominator).toBe(14 * 30);
      const b = r.before;
      const a = r.after!;
      expect(b.low! <= b.rate! && b.rate! <= b.high!).toBe(true);
      expect(a.low! <= a.rate! && a.rate! <= a.high!).toBe(true);
      console.log(`synthetic history, fix ${name}: before ${b.rate} [${b.low}, ${b.high}] (${b.complaints}/${b.denominator}), after ${a.rate} [${a.low}, ${a.high}] (${a.complaints}/${a.denominator}): falsifier ${r.falsifier}`);
      if (verdict === "holds") expect(a.high!).toBeLessThan(b.low!);
      else if (verdict === "fires") expect(a.low!).toBeGreaterThan(b.high!);
      else expect(r.test).toMatchObject({ looks: 2, looks_taken: 2, crossed_at: null });
    });
  }

  it("pending while the fix is not applied or its after-window is still open", () => {
    const h = ruleHistory({ seed: 3, pivot: "2026-11-15", days: 14, perDay: 10, rateBefore: 0.2, rateAfter: 0.2, ruleId: RULE });
    const items = bucketItems(BUCKET, h.coverage, h.judged);
    expect(beforeAfter(items, null, "2026-11-20", 14)).toMatchObject({ falsifier: "pending", pending_why: "not applied yet", after: null });
    expect(beforeAfter(items, "2026-11-15", "2026-11-20", 14)).toMatchObject({ falsifier: "pending", pending_why: "look 0 of 2 (one a week after 2026-11-15): no change beyond this look's share of the 5% yet" });
    // A week over: one look taken, the rate unchanged, still pending.
    expect(beforeAfter(items, "2026-11-15", "2026-11-21", 14)).toMatchObject({ falsifier: "pending", test: { looks: 2, looks_taken: 1, crossed_at: null } });
  });

  it("rate bounds are ordered and within [0, 1] on any history (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 8 }), (seed, p, perDay) => {
        const h = ruleHistory({ seed, pivot: "2026-11-15", days: 3, perDay, rateBefore: p, rateAfter: p, ruleId: RULE });
        const w = rateWindow(bucketItems(BUCKET, h.coverage, h.judged), "2026-11-12", "2026-11-18");
        return w.low !== null && w.high !== null && w.rate !== null && 0 <= w.low && w.low <= w.rate && w.rate <= w.high && w.high <= 1;
      }),
      { numRuns: 40 },
    );
  });
});

describe("upgrades filed by hand that cite exchange ids", () => {
  const cov = (id: string, covering: string | null, component = "npm"): CoverageRecord => ({
    schema: "rule-coverage/1", exchange_id: id, session_id: `s-${id}`, date: "2026-11-10", failure_class: "fabrication", severity: 1, component, synthetic: true,
    candidates: [], covering, fix: covering === null ? "add_rule" : "enforce_rule", before_rule: false, cut: 0.5, cut_origin: "test", judge: { lane: "embedded", model: "m" },
  });
  const coverage = [cov("ex-1", RULE), cov("ex-2", RULE), cov("ex-3", null, "api"), cov("ex-4", RULE), cov("ex-9", null, "api")];

  it("get the row of the bucket most of their cited failures fall in; none when no cited id is bucketed; other sources are not read", () => {
    expect(bucketOfCited(["ex-1", "ex-2", "ex-3"], coverage)).toBe(BUCKET);
    expect(bucketOfCited(["ex-3", "ex-9", "ex-1"], coverage)).toBe("gap:fabrication×api");
    expect(bucketOfCited(["ex-77", "ex-78"], coverage)).toBeNull();
    const hand = (id: string, ids: string[], source = "errata"): QueueEntry => ({ id, schema: "upgrade/1", source, status: "applied", applied_at: "2026-11-12T00:00:00Z", claim_hash: null, text: "", exchange_ids: ids });
    const judged = ["ex-1", "ex-2", "ex-3", "ex-4", "ex-9", "ex-50"].map((id) => ({ exchange_id: id, session_id: `s-${id}`, date: "2026-11-10", synthetic: true }));
    const { rows, unbucketed } = filedRates({
      filings: [],
      queue: [hand("up-20261112-aaaaa1", ["ex-1", "ex-2", "ex-3"]), hand("up-20261112-aaaaa2", ["ex-3", "ex-9", "ex-4"]), hand("up-20261112-aaaaa3", ["ex-77"]), hand("up-20261112-aaaaa4", ["ex-1", "ex-2"], "manual")],
      coverage,
      judged,
      today: "2026-12-10",
      days: 14,
    });
    expect(rows.map((r) => [r.upgrade_id, r.bucket, r.hand])).toEqual([
      ["up-20261112-aaaaa1", BUCKET, true],
      ["up-20261112-aaaaa2", "gap:fabrication×api", true],
    ]);
    expect(rows[0]?.before).toMatchObject({ complaints: 3, denominator: 6 });
    expect(unbucketed).toEqual(["up-20261112-aaaaa3"]);
  });
});
