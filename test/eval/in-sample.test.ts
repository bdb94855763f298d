import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { splitBucket } from "../../runtime/engine/embedded/split.js";
import { parseWeights, serialiseWeights } from "../../runtime/engine/embedded/weights.js";
import { trainingOverlap } from "../../eval/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/**
 * `eval score` holds the engine's detectors to the training record of their weights: on
 * AB-ReDial (bundled), the shipped weights were trained on the 498 exchanges of the sessions
 * whose holdout/1 bucket is >= 20; scoring v4 there marks those items in-sample on every line
 * and fails its bars.
 */
const repo = join(import.meta.dirname, "..", "..");
const abExchanges = join(repo, "datasets", "ab-redial", "exchanges.jsonl");
const abLabels = join(repo, "datasets", "ab-redial", "labels.jsonl");
const shipped = join(repo, "datasets", "weights", "embedded.json");
const exchanges = readFileSync(abExchanges, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; session_id: string; corpus: string });
const trainedIds = new Set(exchanges.filter((e) => splitBucket("ab-redial", e.session_id) >= 20).map((e) => e.id));

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") }, cwd: dir });
  return { code: await run(argv, m.io), out: m.out(), err: m.err() };
}

/** A gold set of all 600 exchanges, and a v4 that flags what any rater called unhappy. */
async function setUp(): Promise<void> {
  expect((await cli(["eval", "sample", "--exchanges", abExchanges, "--items", "600", "--failure-items", "0", "--out", "."])).code).toBe(0);
  const unhappy = new Set(readFileSync(abLabels, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { exchange_id: string; question: string; value: unknown }).filter((l) => l.question === "detect.unhappy" && l.value === true).map((l) => l.exchange_id));
  writeFileSync(join(dir, "v4.jsonl"), exchanges.map((e) => JSON.stringify({ schema: "prediction/1", exchange_id: e.id, detector: "v4", detected: unhappy.has(e.id), class: null })).join("\n") + "\n");
}

const score = ["eval", "score", "--predictions", "v4.jsonl", "--gold", "gold.jsonl", "--labels", abLabels, "--split", "all"];

describe("eval score and the training record", () => {
  it("the split rule gives the 498 training items the shipped weights record, and the record's hashes are exactly them", () => {
    expect(trainedIds.size).toBe(498);
    const w = parseWeights(readFileSync(shipped, "utf8"));
    const ab = w.trainedOn.find((t) => t.set === "ab-redial")!;
    expect(ab.items).toBe(498);
    const o = trainingOverlap("shipped", w.trainedOn, exchanges.map((e) => ({ id: e.id, corpus: e.corpus })));
    expect(o.inSample.size).toBe(498);
    expect([...o.inSample].every((id) => trainedIds.has(id))).toBe(true);
    expect(o.perSet["ab-redial"]).toBe(498);
  });

  it("marks v4 in-sample on every line on the shipped weights over AB-ReDial, fails its bars, and warns", async () => {
    await setUp();
    writeFileSync(join(dir, "bars.json"), JSON.stringify({ schema: "eval-bars/1", bars: [{ id: "ISC-56", kind: "at_least", metric: "recall", detector: "v4", value: 0.6 }] }));
    const r = await cli([...score, "--check", "--bars", "bars.json"]);
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/warning: v4 is scored in-sample: its judge was trained on \d+ of the \d+ scored items \(the shipped weights/);
    expect(r.out).toMatch(/training record: v4: trained as recorded in the shipped weights \(datasets\/weights\/embedded\.json\): 498 of 600 gold items in its training sets/);
    const v4Lines = r.out.split("\n").filter((l) => /^\s*v4\b/.test(l));
    expect(v4Lines.length).toBeGreaterThanOrEqual(3);
    for (const l of v4Lines) expect(l).toMatch(/\[IN-SAMPLE \d+\/\d+\]/);
    expect(r.out).toMatch(/FAIL ISC-56 v4 recall >= 0.6: v4\.recall 1\.000 \[1\.000, 1\.000\] \(judged on the lower bound >= 0\.6\) — in-sample: v4 was trained on \d+ of these \d+ items/);
    const j = JSON.parse((await cli([...score, "--json"])).out) as { detectors: { name: string; scored: number; in_sample: { items: number; of: number } }[] };
    const v4 = j.detectors.find((d) => d.name === "v4")!;
    // Every scored item the split rule trained on is counted, and no other.
    expect(v4.in_sample.items).toBeGreaterThan(480);
    expect(v4.in_sample.items).toBeLessThanOrEqual(498);
  });

  it("--weights v4=none removes the mark; a record without itemHashes says the training items are unknown and, with --exchanges, marks the set's items possibly in-sample", async () => {
    await setUp();
    const none = await cli([...score, "--weights", "v4=none"]);
    expect(none.code, none.err).toBe(0);
    expect(none.out).not.toMatch(/IN-SAMPLE/);
    expect(none.out).toMatch(/training record: v4: no training record \(--weights v4=none\)/);

    const old = parseWeights(readFileSync(shipped, "utf8"));
    for (const t of old.trainedOn) delete t.itemHashes;
    writeFileSync(join(dir, "old.json"), serialiseWeights(old));
    const blind = await cli([...score, "--weights", "v4=old.json"]);
    expect(blind.out).toMatch(/training items unknown for ab-redial, synthetic-seed-101, ukp \(no itemHashes\): if the gold items come from those sets they may be in-sample \(--exchanges tells\)/);
    const told = await cli([...score, "--weights", "v4=old.json", "--exchanges", abExchanges]);
    expect(told.out).toMatch(/600 gold items are from those sets, possibly in-sample/);
    expect(told.out).toMatch(/\[POSSIBLY IN-SAMPLE \d+\/\d+\]/);
    expect(told.err).toMatch(/v4 may be scored in-sample: \d+ of the \d+ scored items are from ab-redial, synthetic-seed-101, ukp, whose training items are unknown/);
    expect((await cli([...score, "--weights", "v4"])).code).toBe(2);
  });
});
