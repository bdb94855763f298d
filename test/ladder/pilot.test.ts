// The seed's pilot, simulated (synthetic): six rules, three carried by a check, three kept as
// text, four weeks before and after. Prints the table docs/ladder.md quotes.
import { describe, expect, it } from "vitest";
import { runPilot } from "../../runtime/ladder/pilot.js";

// Reference values of the seeded run (synthetic).
const VERDICTS_SEED_22 = { pnpm: "holds", "no-force-push": "holds", "no-sudo": "holds", finnish: "no_evidence", "small-commits": "no_evidence", "tests-first": "no_evidence" };
const HOLDOUT_SEED_22: unknown[] = [[0, 200, 2, 52], [0, 197, 2, 48], [0, 193, 2, 52], null, null, null];
const LINE_HOLDOUT_SEED_22: unknown[] = [["finnish", 10, 136, 4, 32], ["small-commits", 9, 134, 7, 34], ["tests-first", 8, 133, 4, 35]];

describe("the simulated pilot", () => {
  it("check-carried rules fall by the checks' measured detection; text rules (the control) stay within noise", () => {
    const p = runPilot({ seed: 22 });
    expect(p.data).toBe("synthetic");
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    const lines = p.rows.map((r) => {
      const d = r.detection ? `, check blocked ${r.detection.blocked}/${r.detection.planted} planted, fired on ${r.detection.falseFires}/${r.detection.clean} clean` : "";
      return `  ${r.rule.padEnd(14)} ${r.carried.padEnd(5)} before ${String(r.before.incidents).padStart(3)}/${r.before.chances} ${pct(r.before.rate)} [${pct(r.before.lo)}, ${pct(r.before.hi)}]  after ${String(r.after.incidents).padStart(3)}/${r.after.chances} ${pct(r.after.rate)} [${pct(r.after.lo)}, ${pct(r.after.hi)}]${d}`;
    });
    process.stdout.write(`pilot (synthetic; ${JSON.stringify(p.assumptions)}):\n${lines.join("\n")}\n`);
    for (const r of p.rows) {
      if (r.carried === "check") {
        expect(r.detection!.falseFires).toBe(0);
        expect(r.after.rate).toBeLessThan(r.before.rate);
      } else {
        expect(r.after.lo).toBeLessThan(r.before.hi); // the intervals overlap: nothing changed for text
        expect(r.before.lo).toBeLessThan(r.after.hi);
      }
    }
    // Pooled over the three check rules the intervals separate (one rule alone, four weeks, need not).
    const pool = (k: "before" | "after") => p.rows.filter((r) => r.carried === "check").reduce((a, r) => ({ x: a.x + r[k].incidents, n: a.n + r[k].chances }), { x: 0, n: 0 });
    const b = pool("before");
    const a = pool("after");
    process.stdout.write(`  pooled check rules: before ${b.x}/${b.n}, after ${a.x}/${a.n}\n`);
    expect(a.x / a.n).toBeLessThan((b.x / b.n) * 0.3);
    // The force-push check misses one planted form (git push origin +main): measured, not hidden.
    const fp = p.rows.find((r) => r.rule === "no-force-push")!;
    expect(fp.detection!.blocked).toBeLessThan(fp.detection!.planted);
    expect(fp.after.incidents).toBeGreaterThan(0);
  });

  it("the falsifier (group-sequential permutation test, weekly looks): the pooled check rules hold, the pooled text rules show no evidence", () => {
    const p = runPilot({ seed: 22 });
    const verdicts = Object.fromEntries(p.rows.map((r) => [r.rule, r.falsifier]));
    process.stdout.write(`pilot falsifier (synthetic, seed 22): ${JSON.stringify(verdicts)}, pooled ${JSON.stringify(p.pooled)}\n`);
    expect(p.pooled).toEqual({ check: "holds", text: "no_evidence" });
    for (const r of p.rows) if (r.carried === "text") expect(r.falsifier).toBe("no_evidence");
    expect(verdicts).toEqual(VERDICTS_SEED_22);
  });

  it("with the randomised holdout (1 in 5 sessions, the hook's draw): acting vs held out per check rule, with the cluster interval", () => {
    const p = runPilot({ seed: 22, holdoutOneIn: 5 });
    const f = (x: number) => (100 * x).toFixed(1);
    for (const r of p.rows.filter((x) => x.carried === "check")) {
      const h = r.holdout!;
      process.stdout.write(`  holdout ${r.rule}: acting ${h.treated.incidents}/${h.treated.chances} (${h.treated.sessions} sessions) ${f(h.treated.rate)}% [${f(h.treated.low)}, ${f(h.treated.high)}], held out ${h.heldOut.incidents}/${h.heldOut.chances} (${h.heldOut.sessions} sessions) ${f(h.heldOut.rate)}% [${f(h.heldOut.low)}, ${f(h.heldOut.high)}], difference ${f(h.difference)} [${f(h.low)}, ${f(h.high)}] points\n`);
      expect(h.low).toBeLessThanOrEqual(h.difference);
      expect(h.difference).toBeLessThanOrEqual(h.high);
      expect(h.heldOut.sessions + h.treated.sessions).toBe(4 * 7 * 6);
    }
    for (const r of p.rows.filter((x) => x.carried === "text")) expect(r.holdout).toBeNull();
    expect(p.rows.map((r) => r.holdout && [r.holdout.treated.incidents, r.holdout.treated.chances, r.holdout.heldOut.incidents, r.holdout.heldOut.chances])).toEqual(HOLDOUT_SEED_22);
    // The holdout draws nothing from the pilot's generator (the hook's hash decides), so the first
    // rule's before period is the same; a held-out slip's "noticed" draw shifts the later rules' stream.
    expect(p.rows[0]!.before).toEqual(runPilot({ seed: 22 }).rows[0]!.before);
  });

  it("with the line holdout too (1 in 5 sessions, the mod's draw; a withheld line's chance slips twice as often, an assumption): in force vs held out per text rule, a session a chance", () => {
    const p = runPilot({ seed: 22, holdoutOneIn: 5, lineWithheldFactor: 2 });
    const f = (x: number) => (100 * x).toFixed(1);
    // The check rules come first and the line draws take nothing from the generator: their rows are unchanged.
    expect(p.rows.map((r) => r.holdout && [r.holdout.treated.incidents, r.holdout.treated.chances, r.holdout.heldOut.incidents, r.holdout.heldOut.chances])).toEqual(HOLDOUT_SEED_22);
    for (const r of p.rows.filter((x) => x.carried === "check")) expect(r.lineHoldout).toBeNull();
    const rows: Array<[string, number, number, number, number]> = [];
    for (const r of p.rows.filter((x) => x.carried === "text")) {
      const h = r.lineHoldout!;
      process.stdout.write(`  line holdout ${r.rule}: in force ${h.treated.incidents}/${h.treated.chances} sessions ${f(h.treated.rate)}% [${f(h.treated.low)}, ${f(h.treated.high)}], held out ${h.heldOut.incidents}/${h.heldOut.chances} ${f(h.heldOut.rate)}% [${f(h.heldOut.low)}, ${f(h.heldOut.high)}], difference ${f(h.difference)} [${f(h.low)}, ${f(h.high)}] points\n`);
      expect(h.treated.chances + h.heldOut.chances).toBe(4 * 7 * 6);
      expect(h.low).toBeLessThanOrEqual(h.difference);
      expect(h.difference).toBeLessThanOrEqual(h.high);
      rows.push([r.rule, h.treated.incidents, h.treated.chances, h.heldOut.incidents, h.heldOut.chances]);
    }
    expect(rows).toEqual(LINE_HOLDOUT_SEED_22);
    expect(p.assumptions).toMatchObject({ holdoutOneIn: 5, lineWithheldFactor: 2 });
  });

  it("is a pure function of its seed", () => {
    expect(runPilot({ seed: 5 })).toEqual(runPilot({ seed: 5 }));
  });
});
