import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { abRedialFiles } from "./ab-redial-files.js";
import { hasAbRedial, repoRoot } from "./datasets.js";

interface Q {
  question: string;
  fleiss_fixed: { value: number; items: number; lower: number; upper: number };
  fleiss_variable: { value: number; items: number };
  alpha: { nominal: { value: number }; interval: { value: number } | null };
  cohen: { a: string; b: string; value: number }[];
  majority: { majority: number; tie: number };
}

describe.skipIf(!hasAbRedial)("errata eval agreement reproduces the AB-ReDial reference figures", () => {
  // A skipped describe's body still runs at collection, and no afterAll runs after it: without
  // the data, make no folder and write nothing (the skip is said once, by test/helpers/skips.ts).
  if (!hasAbRedial) {
    it.skip("needs ../shared/datasets/ab-redial", () => {});
    return;
  }
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const files = abRedialFiles();
  const labelsFile = join(tmp.dir, "labels.jsonl");
  const exFile = join(tmp.dir, "exchanges.jsonl");
  writeFileSync(labelsFile, files.labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
  writeFileSync(exFile, files.exchanges.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const agree = async (args: string[]): Promise<Q[]> => {
    const io = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    const code = await run(["eval", "agreement", "--labels", labelsFile, "--exchanges", exFile, "--resamples", "500", "--json", ...args], io.io);
    expect(code, io.err()).toBe(0);
    return (JSON.parse(io.out()) as { questions: Q[] }).questions;
  };

  it("first three raters: binary 0.3449, 5-point 0.2191, alpha interval 0.4234 over 599 items", async () => {
    const [detect, sat] = await agree(["--labelers", "r1,r2,r3", "--questions", "detect.unhappy,satisfaction"]);
    expect(detect?.fleiss_fixed.items).toBe(599);
    expect(detect?.fleiss_fixed.value).toBeCloseTo(0.3449, 4);
    expect(sat?.fleiss_fixed.value).toBeCloseTo(0.2191, 4);
    expect(sat?.fleiss_fixed.items).toBe(599);
    // The interval alpha over all items with 2+ of these three raters (the 600th turn has 2).
    expect(detect?.cohen.map((c) => `${c.a}/${c.b}`)).toEqual(["r1/r2", "r1/r3", "r2/r3"]);
    expect((sat?.fleiss_fixed.lower ?? 1) <= (sat?.fleiss_fixed.value ?? 0) && (sat?.fleiss_fixed.value ?? 1) <= (sat?.fleiss_fixed.upper ?? 0)).toBe(true);
    expect(detect?.alpha.interval).toBeNull();
  });

  it("all raters (variable n): binary 0.3763, 5-point 0.2321, alpha interval 0.4450 over 600 items", async () => {
    const [detect, sat] = await agree(["--questions", "detect.unhappy,satisfaction"]);
    expect(detect?.fleiss_variable.items).toBe(600);
    expect(detect?.fleiss_variable.value).toBeCloseTo(0.3763, 4);
    expect(sat?.fleiss_variable.value).toBeCloseTo(0.2321, 4);
    expect(sat?.alpha.interval?.value).toBeCloseTo(0.445, 4);
  });

  it("first three raters' alpha over the 599 complete turns: 0.4234", async () => {
    const complete = new Set([...files.ratings].filter(([, rs]) => rs.slice(0, 3).every((v) => v !== null)).map(([id]) => id));
    const sub = join(tmp.dir, "first3.jsonl");
    writeFileSync(sub, files.labels.filter((l) => complete.has(l.exchange_id) && ["r1", "r2", "r3"].includes(l.labeler)).map((l) => JSON.stringify(l)).join("\n"));
    const io = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run(["eval", "agreement", "--labels", sub, "--questions", "satisfaction", "--resamples", "200", "--json"], io.io)).toBe(0);
    const [sat] = (JSON.parse(io.out()) as { questions: Q[] }).questions;
    expect(sat?.alpha.interval?.value).toBeCloseTo(0.4234, 4);
  });

  it("prints a readable report with the bootstrap method, resamples, seed and blocks", async () => {
    const io = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run(["eval", "agreement", "--labels", labelsFile, "--exchanges", exFile, "--labelers", "r1,r2,r3", "--resamples", "200", "--seed", "9"], io.io)).toBe(0);
    expect(io.out()).toContain("Fleiss' kappa, fixed raters (599 items labelled by all): 0.345");
    expect(io.out()).toMatch(/intervals: session-block percentile bootstrap, 200 resamples, seed 9, level 0.95, 200 blocks/);
  });

  it("without session ids names the intervals an item bootstrap and warns, naming --exchanges; with them the blocks are sessions and they are wider", async () => {
    const args = ["eval", "agreement", "--labels", labelsFile, "--labelers", "r1,r2,r3", "--questions", "detect.unhappy", "--resamples", "400", "--seed", "9"];
    const bare = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run([...args, "--json"], bare.io)).toBe(0);
    expect(bare.err()).toMatch(/warning: 600 labelled items have no session id, so their intervals resample them one by one \(an item bootstrap.*pass --exchanges FILE/);
    const itemBoot = (JSON.parse(bare.out()) as { questions: (Q & { bootstrap: { method: string; items_without_session: number } })[] }).questions[0]!;
    expect(itemBoot.bootstrap).toMatchObject({ method: "item percentile bootstrap", items_without_session: 600 });
    const text = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run(args, text.io)).toBe(0);
    expect(text.out()).toMatch(/intervals: item percentile bootstrap, 400 resamples, seed 9, level 0.95, 600 blocks; 600 items without a session are their own block \(--exchanges gives their sessions\)/);
    const withSessions = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run([...args, "--exchanges", exFile, "--json"], withSessions.io)).toBe(0);
    expect(withSessions.err()).toBe("");
    const blocked = (JSON.parse(withSessions.out()) as { questions: (Q & { bootstrap: { method: string } })[] }).questions[0]!;
    expect(blocked.bootstrap.method).toBe("session-block percentile bootstrap");
    const width = (q: Q): number => (q.fleiss_fixed.upper ?? 0) - (q.fleiss_fixed.lower ?? 0);
    expect(width(blocked)).toBeGreaterThan(width(itemBoot));
  });

  const bundled = join(repoRoot, "datasets", "ab-redial", "labels.jsonl");
  it.skipIf(!existsSync(bundled))("the bundled conversion gives the same all-rater figures", async () => {
    const text = readFileSync(bundled, "utf8");
    const questions = new Set(text.split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { question: string }).question));
    const io = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    const args = ["eval", "agreement", "--labels", bundled, "--resamples", "200", "--json", "--questions", ["satisfaction", "detect.unhappy"].filter((q) => questions.has(q)).join(",")];
    expect(await run(args, io.io), io.err()).toBe(0);
    const qs = (JSON.parse(io.out()) as { questions: Q[] }).questions;
    const sat = qs.find((q) => q.question === "satisfaction");
    if (sat) expect(sat.fleiss_variable.value).toBeCloseTo(0.2321, 4);
    const det = qs.find((q) => q.question === "detect.unhappy");
    if (det) expect(det.fleiss_variable.value).toBeCloseTo(0.3763, 4);
    // Its first three raters as the three labellers.
    const first3 = (det ?? sat)?.cohen.map((c) => [c.a, c.b]).flat().filter((v, i, a) => a.indexOf(v) === i).sort().slice(0, 3) ?? [];
    const io3 = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run([...args, "--labelers", first3.join(",")], io3.io), io3.err()).toBe(0);
    const q3 = (JSON.parse(io3.out()) as { questions: Q[] }).questions;
    const sat3 = q3.find((q) => q.question === "satisfaction");
    if (sat3) expect(sat3.fleiss_fixed.value).toBeCloseTo(0.2191, 4);
    const det3 = q3.find((q) => q.question === "detect.unhappy");
    if (det3) expect(det3.fleiss_fixed.value).toBeCloseTo(0.3449, 4);
  });
});
