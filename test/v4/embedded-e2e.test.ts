import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

// The v4 pass end to end with the real engine (embedded lane, shipped weights, offline) on
// bundled corpora: the real Claude Code exchanges (spotter) and the synthetic sessions.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const files = ["datasets/spotter/exchanges.jsonl", "datasets/synthetic/exchanges.jsonl"].map((f) => path.join(repoRoot, f));
const ready = files.every(existsSync) && existsSync(path.join(repoRoot, "datasets/weights/embedded.json"));

describe.skipIf(!ready)("v4 end to end on bundled corpora with the embedded engine", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => (tmp = tempDir()));
  afterAll(() => tmp.cleanup());
  const cli = async (argv: string[]) => {
    const m = memoryIo({ env: { ERRATA_DIR: tmp.dir, HOME: tmp.dir }, cwd: repoRoot });
    const code = await run(argv, m.io);
    return { code, out: m.out(), err: m.err() };
  };
  const planted = readFileSync(path.join(repoRoot, "datasets/synthetic/labels.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.includes('"detect.unhappy"') && l.includes('"value":true')).length;

  it("detect asks every exchange once, offline; a re-run asks nothing; report separates the synthetic plants", async () => {
    const exchanges = files.map((f) => readFileSync(f, "utf8").trim().split("\n").length).reduce((a, b) => a + b, 0);
    const first = await cli(["v4", "detect", "--exchanges", ...files, "--json"]);
    expect(first.code).toBe(0);
    const d = JSON.parse(first.out);
    expect(d.judge.lane).toBe("embedded");
    expect(d.asked).toBe(exchanges * 8);
    // The shipped weights answer detect.unhappy for every exchange; untrained questions are unscored, never "no".
    expect(d.scored).toBeGreaterThanOrEqual(exchanges);
    expect(d.scored + d.unscored).toBe(d.asked);
    expect(JSON.parse((await cli(["v4", "detect", "--exchanges", ...files, "--json"])).out)).toMatchObject({ asked: 0, already_answered: exchanges * 8 });
    expect((await cli(["v4", "diagnose", "--exchanges", ...files])).code).toBe(0);

    const rep = JSON.parse((await cli(["v4", "report", "--exchanges", ...files, "--json"])).out);
    expect(rep.exchanges).toBe(4); // the real (spotter) exchanges only
    expect(rep.composed).toBe(4);
    expect(rep.synthetic.exchanges).toBe(exchanges - 4);
    expect(rep.synthetic.planted).toBe(planted);
    expect(rep.synthetic.found + rep.synthetic.missed).toBe(planted);
    expect(rep.synthetic.by_mode).toHaveLength(15);
    const text = (await cli(["v4", "report", "--exchanges", ...files])).out;
    expect(text).toMatch(/SYNTHETIC \(generated sessions, not real failures\)/);
  });
});
