import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { built } from "../helpers/built.js";

const repoRoot = resolve(import.meta.dirname, "../..");
// `npm run demo` runs the compiled CLI; `npm test` builds dist/ before vitest runs.

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-demo-daily-");
});
afterEach(() => t.cleanup());

if (!built) console.log(`skipped: test/daily/demo.test.ts needs a build (npm run build; npm test builds first)`);
describe.skipIf(!built)("npm run demo: the daily run on bundled data", () => {
  it("writes a triage report, a v4 report and a state file, offline; a second run files nothing twice", () => {
    const env = { ...process.env, OPENAI_API_KEY: "", ERRATA_OPENAI_API_KEY: "" };
    const out = execFileSync(process.execPath, [join(repoRoot, "scripts", "demo.js"), "--dir", t.dir, "--json", "--daily"], { encoding: "utf8", env });
    const r = JSON.parse(out) as {
      added: number;
      daily: { ok: boolean; files: Record<string, string>; filed: number; second_run: Record<string, number>; first: { stages: Array<{ name: string; counts: Record<string, number> }> } };
    };
    expect(r.added).toBe(30);
    expect(r.daily.ok).toBe(true);
    for (const f of Object.values(r.daily.files)) expect(existsSync(f)).toBe(true);
    expect(readFileSync(r.daily.files["triage_report"]!, "utf8").startsWith("---\nreferences: historical\n---")).toBe(true);
    const v4 = r.daily.first.stages.find((s) => s.name === "v4")!;
    expect(v4.counts["new_exchanges"]).toBeGreaterThan(400); // the spotter sessions and the synthetic corpus
    expect(r.daily.second_run).toEqual({ enriched: 0, triaged: 0, new_exchanges: 0, asked: 0, filed_by_second_triage: 0 });
  });
});
