import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { capRefusal, planSample, resolveSampleOptions, sampleGold, type GoldCandidate } from "../../eval/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/**
 * A draw refuses what it cannot do (issue 18): with `--per-session 2` in sessions holding a
 * failure, an other item and an unscored item, the two slots go to the later strata and no
 * failure can be drawn. The old draw returned 0 of 30 failures with a "shortfall" note; now it
 * is bad input naming the stratum, the cap and the smallest cap that works.
 */
const hex = (n: number): string => `ex-${n.toString(16).padStart(16, "0")}`;
function threeStrata(sessions: number): GoldCandidate[] {
  return Array.from({ length: sessions }, (_, s) => [
    { id: hex(3 * s), session: `s${s}`, failure: true },
    { id: hex(3 * s + 1), session: `s${s}`, failure: false },
    { id: hex(3 * s + 2), session: `s${s}`, failure: null },
  ]).flat();
}

describe("the gold draw refuses a cap that starves a stratum", () => {
  const c = threeStrata(60);

  it("names the stratum, the cap and the smallest cap (3)", () => {
    const opts = resolveSampleOptions({ seed: 1, n: 60, failures: 30, perSession: 2 });
    expect(capRefusal(planSample(c, opts), opts)).toEqual({ stratum: "failure", cap: 2, sessions: 60, items: 60, smallestCap: 3 });
    expect(() => sampleGold(c, { seed: 1, n: 60, failures: 30, perSession: 2 })).toThrow(/a cap of 2 per session gives the failure items of 60 sessions \(60 items\) inclusion probability 0.*at least 3/s);
    const ok = sampleGold(c, { seed: 1, n: 60, failures: 30, perSession: 3 });
    expect(ok.drawn.failure).toBe(30);
    expect(ok.items.every((i) => i.inclusionProbability > 0)).toBe(true);
  });

  it("accepts a cap of 2 where sessions hold at most two strata, or when the starved stratum is not asked for", () => {
    const two = c.filter((x) => x.failure !== null);
    expect(sampleGold(two, { seed: 1, n: 40, failures: 20, perSession: 2 }).drawn.failure).toBe(20);
    // No failures asked, and none needed to fill: the failure stratum is not requested.
    const opts = resolveSampleOptions({ seed: 1, n: 60, failures: 0, perSession: 2 });
    expect(capRefusal(planSample(c, opts), opts)).toBeNull();
  });

  it("errata eval sample exits 2 and writes nothing; --monte-carlo compares every eligible item", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, "ex.jsonl"), c.map((x, i) => JSON.stringify({ schema: "exchange/1", id: x.id, corpus: "t", session_id: x.session, turn: i % 3, prompt: "p", prompt_ts: null, reply_end: "r", reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: "t" })).join("\n") + "\n");
      writeFileSync(join(dir, "v4.jsonl"), c.map((x) => JSON.stringify({ schema: "prediction/1", exchange_id: x.id, detector: "v4", detected: x.failure, class: null })).join("\n") + "\n");
      const m = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") }, cwd: dir });
      const code = await run(["eval", "sample", "--exchanges", "ex.jsonl", "--failures", "v4.jsonl", "--items", "60", "--failure-items", "30", "--per-session", "2", "--out", "."], m.io);
      expect(code).toBe(2);
      expect(m.err()).toMatch(/failure items of 60 sessions .* inclusion probability 0/);
      expect(m.err()).toMatch(/at least 3/);
      const m2 = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") }, cwd: dir });
      const ok = await run(["eval", "sample", "--exchanges", "ex.jsonl", "--failures", "v4.jsonl", "--items", "60", "--failure-items", "30", "--per-session", "3", "--monte-carlo", "300", "--dry-run", "--json"], m2.io);
      expect(ok, m2.err()).toBe(0);
      const j = JSON.parse(m2.out()) as { monte_carlo_check: { items: number; zero_probability: number; max_abs_z: number } };
      expect(j.monte_carlo_check.items).toBe(180);
      expect(j.monte_carlo_check.zero_probability).toBe(0);
      expect(j.monte_carlo_check.max_abs_z).toBeLessThan(6);
    } finally {
      cleanup();
    }
  });
});
