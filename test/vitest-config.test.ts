import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestSpecification } from "vitest/node";
import { describe, expect, it } from "vitest";
import { ISOLATED } from "./helpers/isolated.js";
import LongestFirst from "./helpers/sequencer.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const measured = (JSON.parse(readFileSync(join(root, "test", "durations.json"), "utf8")) as { files: Record<string, number> }).files;

/** A vitest context with just what the sequencers read: the root, and a results cache holding `cached` (ms, failed). */
function sequencer(cached: Record<string, { duration: number; failed: boolean }>, sizes: Record<string, number>): LongestFirst {
  const ctx = {
    config: { root },
    cache: {
      getFileTestResults: (key: string) => cached[key.replace(/^[^:]*:/, "")],
      getFileStats: (key: string) => (sizes[key.replace(/^[^:]*:/, "")] === undefined ? undefined : { size: sizes[key.replace(/^[^:]*:/, "")] }),
    },
  };
  return new LongestFirst(ctx as never);
}
const spec = (rel: string, isolate = true) => ({ moduleId: join(root, rel), project: { name: isolate ? "isolated" : "shared", config: { sequence: { groupOrder: 0 }, isolate } } }) as unknown as TestSpecification;
const names = (files: TestSpecification[]) => files.map((f) => f.moduleId.slice(root.length));

describe("the test files' order (test/helpers/sequencer.ts)", () => {
  const [slowest, second] = Object.keys(measured);
  const quick = "test/core/fnv1a.test.ts";

  it("without a results cache (a fresh clone): the measured slow files first, longest first, then the rest by vitest's own order (larger first)", async () => {
    expect(measured[quick]).toBeUndefined();
    const files = [quick, "test/architecture.test.ts", second!, slowest!].map((f) => spec(f));
    const sorted = await sequencer({}, { [quick]: 10, "test/architecture.test.ts": 20, [second!]: 1, [slowest!]: 1 }).sort(files);
    expect(names(sorted)).toEqual([slowest, second, "test/architecture.test.ts", quick]);
  });

  it("this machine's cache wins over the measured times, and a file that failed last time goes first", async () => {
    const files = [slowest!, second!, quick].map((f) => spec(f));
    const cached = { [slowest!]: { duration: 10, failed: false }, [second!]: { duration: 20, failed: false }, [quick]: { duration: 30_000_000, failed: false } };
    expect(names(await sequencer(cached, {}).sort(files))).toEqual([quick, second, slowest]);
    const failed = { ...cached, [slowest!]: { duration: 10, failed: true } };
    expect(names(await sequencer(failed, {}).sort(files))).toEqual([slowest, quick, second]);
  });

  it("every isolated file starts before the shared ones (a shared worker is ended when an isolated file is next in line), each longest first", async () => {
    const files = [spec(quick, false), spec("test/a-isolated-quick.test.ts"), spec(slowest!, false), spec("test/b-isolated-slow.test.ts"), spec(second!, false)];
    const cached = { [quick]: { duration: 5, failed: false }, "test/a-isolated-quick.test.ts": { duration: 1, failed: false }, [slowest!]: { duration: 900, failed: false }, "test/b-isolated-slow.test.ts": { duration: 50, failed: false }, [second!]: { duration: 600, failed: false } };
    expect(names(await sequencer(cached, {}).sort(files))).toEqual(["test/b-isolated-slow.test.ts", "test/a-isolated-quick.test.ts", slowest, second, quick]);
    // Without a cache (a fresh clone): the same, from test/durations.json.
    expect(names(await sequencer({}, {}).sort([spec(second!, false), spec(quick), spec(slowest!, false)]))).toEqual([quick, slowest, second]);
  });

  it("test/durations.json names test files that exist, each with a time in seconds, longest first", () => {
    const entries = Object.entries(measured);
    expect(entries.length).toBeGreaterThan(10);
    for (const [file, s] of entries) {
      expect(existsSync(join(root, file)), file).toBe(true);
      expect(file).toMatch(/^test\/.*\.test\.ts$/);
      expect(s).toBeGreaterThan(0);
    }
    expect(entries.map(([, s]) => s)).toEqual([...entries.map(([, s]) => s)].sort((a, b) => b - a));
  });
});

describe("the files that share a process (vitest.config.ts, project shared)", () => {
  // What a file in a shared process must not leave changed: the environment, the working folder, the clock, the module registry, mocks.
  const CHANGES_PROCESS = /process\.chdir\(|vi\.(stubEnv|stubGlobal|mock|doMock|useFakeTimers|resetModules|spyOn)\(|process\.env\[[^\]]+\]\s*=[^=]|process\.env\.\w+\s*=[^=]|delete process\.env/;

  it("every test file that stubs, mocks, fakes the clock or changes the folder or environment runs isolated", () => {
    const files = readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })
      .map((f) => `test/${f.split(sep).join("/")}`)
      .filter((f) => f.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(100);
    const isolated = files.filter((f) => ISOLATED.some((g) => (g.endsWith("/**/*.test.ts") ? f.startsWith(g.slice(0, -"**/*.test.ts".length)) : f === g)));
    expect(isolated).toContain("test/cli/first-hour.test.ts");
    const changes = files.filter((f) => CHANGES_PROCESS.test(readFileSync(join(root, f), "utf8")));
    expect(changes).toContain("test/cli/first-hour.test.ts");
    expect(changes.filter((f) => !isolated.includes(f))).toEqual([]);
  });
});

describe("the parts npm test measures and .ci/run measures whole (test/helpers/full-run.ts)", () => {
  it("every test file that takes a part (itself or through a helper of test/privacy) runs again whole in .ci/run under ERRATA_TEST_FULL=1", () => {
    const files = readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" }).map((f) => `test/${f.split(sep).join("/")}`);
    const takesPart = (f: string): boolean => /\binTestPart\(|\bFULL_RUN\b/.test(readFileSync(join(root, f), "utf8"));
    // A helper that takes a part (held-out-report.ts) makes every test file importing it take one.
    const helpers = files.filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "test/helpers/full-run.ts" && takesPart(f)).map((f) => f.slice(f.lastIndexOf("/") + 1, -".ts".length));
    const parts = files.filter((f) => f.endsWith(".test.ts") && (takesPart(f) || helpers.some((h) => readFileSync(join(root, f), "utf8").includes(`/${h}.js"`))));
    expect(parts).toContain("test/privacy/prefilter.test.ts");
    expect(parts).toContain("test/privacy/held-out-doors-8.test.ts");
    const full = readFileSync(join(root, ".ci", "run"), "utf8").split("\n").filter((l) => /^[^#]*ERRATA_TEST_FULL=1 npx vitest run /.test(l));
    expect(full).toHaveLength(1);
    const filters = full[0]!.slice(full[0]!.indexOf("vitest run ") + "vitest run ".length).trim().split(/\s+/);
    expect(parts.filter((f) => !filters.some((x) => f.includes(x)))).toEqual([]);
  });
});
