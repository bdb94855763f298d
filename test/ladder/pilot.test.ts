// The seed's pilot, simulated (synthetic): six rules, three carried by a check, three kept as
// text, four weeks before and after. Prints the table docs/ladder.md quotes.
import { describe, expect, it } from "vitest";
import { runPilot } from "../../runtime/ladder/pilot.js";

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

  it("is a pure function of its seed", () => {
    expect(runPilot({ seed: 5 })).toEqual(runPilot({ seed: 5 }));
  });
});
