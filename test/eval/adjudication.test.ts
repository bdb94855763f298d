import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../helpers/fast-check-seed.js";
import { adjudicatedGold, adjudicationQueue, adjudicationReport, checkDecision, disputeOf, latestDecisions, majorityVote, resolveGold, type Decision, type Vote } from "../../eval/index.js";

const L = (exchange_id: string, labeler: string, value: boolean | number | string, question = "q") => ({ exchange_id, labeler, question, value });
const votes = (...vs: [string, boolean | number | string][]): Vote[] => vs.map(([labeler, value]) => ({ labeler, value }));
const decide = (exchange_id: string, seen: Vote[], decision: Decision["decision"], value: Decision["value"] = null, question = "q"): Decision => ({ exchange_id, question, adjudicator: "lee", decision, value, labels: seen });

// The worked example of adjudication-report.ts: ana/ben/cy = (y,y,n), (n,y,n), (y,n,n), (y,y,y).
const grid: [string, boolean, boolean, boolean][] = [["e1", true, true, false], ["e2", false, true, false], ["e3", true, false, false], ["e4", true, true, true]];
const example = grid.flatMap(([id, a, b, c]) => [L(id, "ana", a), L(id, "ben", b), L(id, "cy", c)]);
const e2Votes = votes(["ana", false], ["ben", true], ["cy", false]);

describe("disputes", () => {
  it("a 2-1 yes/no is a split, 1-1-1 and 1-1 are ties, unanimous and single labels are not disputed", () => {
    expect(disputeOf(votes(["a", true], ["b", true], ["c", false]))).toBe("split");
    expect(disputeOf(votes(["a", "x"], ["b", "y"], ["c", "z"]))).toBe("tie");
    expect(disputeOf(votes(["a", 1], ["b", 2]))).toBe("tie");
    expect(disputeOf(votes(["a", "x"], ["b", "x"], ["c", "x"]))).toBeNull();
    expect(disputeOf(votes(["a", "x"]))).toBeNull();
  });

  it("the queue puts ties first, keeps a decided item with its decision, and re-queues a stale one", () => {
    const rows = [...example, L("t1", "ana", "x", "cat"), L("t1", "ben", "y", "cat"), L("t1", "cy", "z", "cat")];
    const d = decide("e2", e2Votes, "label", true);
    const q = adjudicationQueue(rows, [d], { questions: ["q", "cat"] });
    expect(q.map((x) => [x.exchange_id, x.dispute, x.decision?.value ?? null, x.stale])).toEqual([["t1", "tie", null, false], ["e1", "split", null, false], ["e2", "split", true, false], ["e3", "split", null, false]]);
    expect(adjudicationQueue(rows, [d], { questions: ["q", "cat"], scope: "ties" }).map((x) => x.exchange_id)).toEqual(["t1"]);
    // the labels of e2 change: the decision saw other labels, so it is stale and not applied.
    const changed = rows.map((r) => (r.exchange_id === "e2" && r.labeler !== "ben" ? { ...r, value: true } : r));
    const again = adjudicationQueue(changed, [d], { questions: ["q"] });
    expect(again.find((x) => x.exchange_id === "e2")).toBeUndefined(); // now 3-0 yes: not disputed
    const ch2 = rows.map((r) => (r.exchange_id === "e2" && r.labeler === "cy" ? { ...r, value: true } : r)); // now (n,y,y): still a split
    const q2 = adjudicationQueue(ch2, [d], { questions: ["q"] }).find((x) => x.exchange_id === "e2")!;
    expect([q2.stale, q2.decision]).toEqual([true, null]);
    expect(resolveGold(q2.votes, d)).toEqual({ status: "majority", value: true, overturned: false });
  });

  it("the last row is in force; a withdrawal leaves the item pending", () => {
    const rows = [decide("e2", e2Votes, "label", true), decide("e2", e2Votes, "ambiguous"), decide("e1", e2Votes, "ambiguous"), decide("e1", e2Votes, "withdrawn")];
    const m = latestDecisions(rows);
    expect([...m.values()].map((d) => [d.exchange_id, d.decision])).toEqual([["e2", "ambiguous"]]);
  });

  it("a decision must settle a split with one of its labels", () => {
    expect(() => checkDecision(e2Votes, { exchange_id: "e2", question: "q", decision: "label", value: true })).not.toThrow();
    expect(() => checkDecision(e2Votes, { exchange_id: "e2", question: "q", decision: "label", value: "maybe" })).toThrow(/one of false, true/);
    expect(() => checkDecision(votes(["a", true], ["b", true]), { exchange_id: "e9", question: "q", decision: "ambiguous", value: null })).toThrow(/nothing to adjudicate/);
    expect(() => checkDecision(undefined, { exchange_id: "e9", question: "q", decision: "ambiguous", value: null })).toThrow(/no labels/);
  });
});

describe("agreement before and after (hand-computed reference)", () => {
  it("one overturned majority: ben's kappa with the gold 0.5 -> 1, cy's 0.5 -> 0.2; the raw labels unchanged", () => {
    const d = decide("e2", e2Votes, "label", true);
    const r = adjudicationReport(example, [d], "q", { resamples: 200, seed: 1 });
    expect(r.disputed).toEqual({ tie: 0, split: 3 });
    expect([r.decided, r.pending, r.stale, r.overturned, r.tiesResolved]).toEqual([{ label: 1, ambiguous: 0 }, 2, 0, 1, 0]);
    expect(r.goldBefore).toEqual({ gold: 4, tie: 0, insufficient: 0 });
    expect(r.goldAfter).toEqual({ gold: 4, ambiguous: 0, tie: 0, insufficient: 0 });
    const by = Object.fromEntries(r.labellers.map((l) => [l.labeler, l]));
    // ana y,n,y,y vs before y,n,n,y: po .75, pe .75*.5+.25*.5 = .5 -> .5; vs after y,y,n,y: po .5, pe .75*.75+.25*.25 = .625 -> -1/3.
    expect(by["ana"]!.before.kappa).toBeCloseTo(0.5, 10);
    expect(by["ana"]!.after.kappa).toBeCloseTo(-1 / 3, 10);
    expect(by["ben"]!.before.kappa).toBeCloseTo(0.5, 10);
    expect(by["ben"]!.after.kappa).toBeCloseTo(1, 10);
    expect(by["cy"]!.before.kappa).toBeCloseTo(0.5, 10);
    expect([by["cy"]!.after.kappa, by["cy"]!.after.po]).toEqual([expect.closeTo(0.2, 10), 0.5]);
    expect(by["cy"]!.before.lower).not.toBeNull();
  });

  it("an ambiguous decision takes an item out of the gold; a resolved tie adds one", () => {
    const rows = [L("a", "x", 1), L("a", "y", 2), L("a", "z", 3), L("b", "x", 1), L("b", "y", 1), L("b", "z", 2)];
    const av = votes(["x", 1], ["y", 2], ["z", 3]);
    const bv = votes(["x", 1], ["y", 1], ["z", 2]);
    const r = adjudicationReport(rows, [decide("a", av, "label", 3), decide("b", bv, "ambiguous")], "q", { resamples: 100, seed: 2 });
    expect(r.goldBefore).toEqual({ gold: 1, tie: 1, insufficient: 0 });
    expect(r.goldAfter).toEqual({ gold: 1, ambiguous: 1, tie: 0, insufficient: 0 });
    expect([r.tiesResolved, r.overturned, r.decided]).toEqual([1, 0, { label: 1, ambiguous: 1 }]);
    expect(adjudicatedGold(rows, [decide("a", av, "label", 3)], "q").get("a")).toEqual({ status: "adjudicated", value: 3, overturned: false });
  });
});

describe("invariants", () => {
  const arb = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 25 });
  it("every disputed item is decided, ambiguous or pending; undisputed items keep their majority; a decision never changes a label", () => {
    fc.assert(fc.property(arb, fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }), (items, pick) => {
      const rows = items.flatMap(([a, b, c], i) => [L(`i${i}`, "a", a), L(`i${i}`, "b", b), L(`i${i}`, "c", c)]);
      const frozen = JSON.stringify(rows);
      const queue = adjudicationQueue(rows, [], { questions: ["q"] });
      const decisions = queue.map((x, k) => decide(x.exchange_id, x.votes, pick[k] ? "label" : "ambiguous", pick[k] ? x.votes[k % x.votes.length]!.value : null));
      const r = adjudicationReport(rows, decisions, "q", { resamples: 10, seed: 1 });
      expect(r.decided.label + r.decided.ambiguous + r.pending).toBe(r.disputed.tie + r.disputed.split);
      expect(r.pending).toBe(0);
      const gold = adjudicatedGold(rows, decisions, "q");
      items.forEach(([a, b, c], i) => {
        if (a === b && b === c) expect(gold.get(`i${i}`)).toEqual({ status: "majority", value: a, overturned: false });
      });
      expect(r.goldAfter.tie).toBe(0);
      expect(r.goldAfter.gold + r.goldAfter.ambiguous).toBe(items.length);
      expect(JSON.stringify(rows)).toBe(frozen);
      const before = items.filter(([a, b, c]) => majorityVote([a, b, c]).status === "majority").length;
      expect(r.goldBefore.gold).toBe(before);
    }));
  });
});
