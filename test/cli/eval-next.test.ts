import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";
import { exchangeLine, exId as hex } from "../helpers/synthetic-rows.js";

/** `eval sample --next K` on 100 exchanges whose judge P(yes) runs from 0.01 to 0.99, 20 labelled. */
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());
const cli = (argv: string[]) => cliIn(dir, argv);
interface Rec { round: number; exchange_id: string; pi: number; p_yes: number; drawn: boolean }

function writeData() {
  const ex: string[] = [], preds: string[] = [], labels: string[] = [];
  for (let i = 0; i < 100; i++) {
    const p = 0.01 + (0.98 * i) / 99;
    ex.push(exchangeLine(i, { session_id: `s${i % 25}` }));
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: hex(i), detector: "v4", detected: p > 0.5, class: null, p_failure: p }));
    if (i % 5 === 0) for (const who of ["a", "b", "c"]) labels.push(JSON.stringify({ schema: "label/1", exchange_id: hex(i), labeler: who, question: "detect.unhappy", value: p > 0.4, origin: "t" }));
  }
  writeFileSync(join(dir, "ex.jsonl"), ex.join("\n") + "\n");
  writeFileSync(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
}

describe("errata eval sample --next K", () => {
  it("records every open item's inclusion probability (summing to K), proposes the drawn ones by probability, appends rounds; --dry-run writes nothing; bad input exits 2", async () => {
    writeData();
    const args = ["eval", "sample", "--next", "10", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--labels", "labels.jsonl", "--out", "act"];
    const dry = await cli([...args, "--dry-run"]);
    expect(dry.code, dry.err).toBe(0);
    expect(existsSync(join(dir, "act", "active.jsonl"))).toBe(false);
    const one = await cli([...args, "--json"]);
    expect(one.code, one.err).toBe(0);
    const out = JSON.parse(one.out) as { round: number; open: number; labelled: number; proposed: { exchange_id: string; pi: number }[] };
    expect(out).toMatchObject({ round: 1, open: 80, labelled: 20 });
    const recs = readFileSync(join(dir, "act", "active.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Rec);
    expect(recs).toHaveLength(100);
    const labelledIds = new Set(Array.from({ length: 20 }, (_, k) => hex(k * 5)));
    const open = recs.filter((r) => !labelledIds.has(r.exchange_id));
    expect(open.reduce((s, r) => s + r.pi, 0)).toBeCloseTo(10, 6);
    expect(recs.filter((r) => labelledIds.has(r.exchange_id)).every((r) => r.pi === 1 && r.drawn)).toBe(true);
    // Doubtful items (P(yes) near the middle) get more probability than confident ones.
    const piOf = (i: number) => recs.find((r) => r.exchange_id === hex(i))!.pi;
    expect(piOf(51)).toBeGreaterThan(piOf(1));
    expect(out.proposed.map((p) => p.exchange_id).sort()).toEqual(open.filter((r) => r.drawn).map((r) => r.exchange_id).sort());
    expect(out.proposed.every((p, i) => i === 0 || out.proposed[i - 1]!.pi >= p.pi)).toBe(true);
    expect(out.proposed.some((p) => labelledIds.has(p.exchange_id))).toBe(false);
    const two = await cli([...args, "--json"]);
    expect(JSON.parse(two.out).round).toBe(2);
    expect(readFileSync(join(dir, "act", "active.jsonl"), "utf8").trim().split("\n")).toHaveLength(200);
    expect((await cli(["eval", "sample", "--next", "0", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--out", "act"])).code).toBe(2);
    const noJudge = await cli(["eval", "sample", "--next", "5", "--exchanges", "ex.jsonl", "--out", "act"]);
    expect(noJudge.code).toBe(2);
    expect(noJudge.err).toMatch(/--next needs the judge's P\(yes\)/);
    expect((await cli(["eval", "sample", "--next", "500", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--labels", "labels.jsonl", "--out", "act"])).err).toMatch(/at most the 80 open items/);
  });
});
