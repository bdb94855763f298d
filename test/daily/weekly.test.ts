import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { run } from "../../cli/main.js";
import { bankHash } from "../../questions/index.js";
import { runDaily } from "../../runtime/daily/daily.js";
import { stageOutput } from "../../runtime/daily/context.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { NOW, seedLedger, stageCtx } from "./fixtures.js";

const spotter = resolve(import.meta.dirname, "../../datasets/claude-code/spotter");

describe("weekly and the promoted configuration", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("errata weekly runs the report over seven days with its own receipts", async () => {
    seedLedger(t.dir, [{ complaint: "x", ageHours: 24 * 6 }, { complaint: "y", ageHours: 24 * 8 }]);
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    expect(await run(["weekly", "--json"], io.io)).toBe(0);
    const out = JSON.parse(io.out()) as { ok: boolean; stages: Array<{ name: string; counts: Record<string, number> }> };
    expect(out.stages.map((s) => s.name)).toEqual(["report"]);
    expect(out.stages[0]?.counts["total"]).toBe(1);
    const runs = readFileSync(join(t.dir, ".state", "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { loop: string; stage: string });
    expect(runs.map((r) => `${r.loop}/${r.stage}`)).toEqual(["weekly/report", "weekly/run"]);
  });

  it("with nothing promoted v4 runs in shadow and says so; with a promoted configuration it names it", async () => {
    seedLedger(t.dir, [{ complaint: "x" }]);
    const seen: boolean[] = [];
    const deps = (promoted: string | null) => ({
      mine: null,
      embedded: async () => null,
      classJudge: async () => null,
      prose: null,
      promoted,
      v4: async (req: { shadow: boolean }) => {
        seen.push(req.shadow);
        return stageOutput({ exchanges: 0 });
      },
    });
    const shadow = await runDaily(stageCtx(t.dir), deps(null), { skipMine: true });
    expect(shadow.stages.find((s) => s.name === "v4")?.notes[0]).toBe("v4 ran in shadow: no promoted configuration");
    const live = await runDaily(stageCtx(t.dir), deps("bank 3f2a9c1b"), { skipMine: true });
    expect(live.stages.find((s) => s.name === "v4")?.notes[0]).toContain("promoted configuration (bank 3f2a9c1b)");
    expect(seen).toEqual([true, false]);
  });

  it("the CLI reads a valid promoted.json and the v4 stage runs on it; an invalid one is shadow, said on stderr", async () => {
    seedLedger(t.dir, [{ complaint: "x" }]);
    const promoted = {
      schema: "promoted/1",
      promoted_at: "2026-11-29T00:00:00Z",
      bank_hash: bankHash,
      cuts: { "detect.unhappy": 0.7 },
      heads: { detect: null, class: null },
      class_level: "composer",
      second_look: false,
      prompt_hashes: {},
      check: { pass: true, split: "holdout", bars_source: "defaults", bars: [], detectors: [], items: 0, gold_failures: 0, bootstrap: { method: "session-block", resamples: 2000, seed: 1, level: 0.95, sessions: 1 } },
      sources: {},
    };
    writeFileSync(join(t.dir, "promoted.json"), JSON.stringify(promoted));
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    await run(["daily", "--skip-mine", "--root", spotter, "--json"], io.io);
    const v4 = (JSON.parse(io.out()) as { stages: Array<{ name: string; notes: string[]; ok: boolean }> }).stages.find((s) => s.name === "v4")!;
    expect(v4.ok).toBe(true);
    expect(v4.notes[0]).toBe(`v4 on the promoted configuration (bank ${bankHash.replace(/^sha256:/, "").slice(0, 8)}, class level composer)`);

    writeFileSync(join(t.dir, "promoted.json"), JSON.stringify({ ...promoted, bank_hash: "sha256:0000" }));
    const io2 = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    await run(["daily", "--skip-mine", "--root", spotter, "--json"], io2.io);
    const v4b = (JSON.parse(io2.out()) as { stages: Array<{ name: string; notes: string[] }> }).stages.find((s) => s.name === "v4")!;
    expect(v4b.notes[0]).toBe("v4 ran in shadow: no promoted configuration");
    expect(io2.err()).toContain("promoted under another question bank");
  });
});
