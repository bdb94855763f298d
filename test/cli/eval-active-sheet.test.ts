import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";
import { exchangeLine, exId as hex } from "../helpers/synthetic-rows.js";

/**
 * An active round's sheet: `eval label export` writes the round's proposals in its order with
 * the round and each inclusion probability; `eval label import` takes it back with no flag and
 * refuses a sheet whose probabilities differ from active.jsonl.
 */
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());
const cli = (argv: string[]) => cliIn(dir, argv);

function writeData() {
  const ex: string[] = [], preds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const p = 0.01 + (0.98 * i) / 59;
    ex.push(exchangeLine(i, { session_id: `s${i % 20}` }));
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: hex(i), detector: "v4", detected: p > 0.5, class: null, p_failure: p }));
  }
  writeFileSync(join(dir, "ex.jsonl"), ex.join("\n") + "\n");
  writeFileSync(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
}

describe("an active round's sheet", () => {
  it("is exported in the round's order with its inclusion probabilities, re-imports without flags, and a changed probability imports nothing", async () => {
    writeData();
    const next = await cli(["eval", "sample", "--next", "12", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--json"]);
    expect(next.code, next.err).toBe(0);
    const proposed = (JSON.parse(next.out) as { proposed: { exchange_id: string; pi: number }[] }).proposed;
    const exp = await cli(["eval", "label", "export", "--labeler", "ana", "--exchanges", "ex.jsonl", "--questions", "detect.unhappy", "--json"]);
    expect(exp.code, exp.err).toBe(0);
    const info = JSON.parse(exp.out) as { out: string; items: number; active_round: number };
    expect(info).toMatchObject({ items: proposed.length, active_round: 1 });
    const sheet = Papa.parse<Record<string, string>>(readFileSync(info.out, "utf8"), { header: true, skipEmptyLines: true });
    expect(sheet.meta.fields).toEqual(["labeler", "item", "exchange_id", "previous_ask", "reply_end", "tool_calls", "prompt", "active_round", "pi", "detect.unhappy", "note"]);
    // The round's order (highest probability first), not ana's shuffle; each pi exactly as recorded.
    expect(sheet.data.map((r) => r["exchange_id"])).toEqual(proposed.map((p) => p.exchange_id));
    expect(sheet.data.map((r) => Number(r["pi"]))).toEqual(proposed.map((p) => p.pi));
    expect(sheet.data.every((r) => r["active_round"] === "1")).toBe(true);
    // Another labeller gets the same order.
    const ben = await cli(["eval", "label", "export", "--labeler", "ben", "--exchanges", "ex.jsonl", "--questions", "detect.unhappy", "--json"]);
    const benRows = Papa.parse<Record<string, string>>(readFileSync((JSON.parse(ben.out) as { out: string }).out, "utf8"), { header: true, skipEmptyLines: true }).data;
    expect(benRows.map((r) => r["exchange_id"])).toEqual(proposed.map((p) => p.exchange_id));

    const filled: Record<string, string>[] = sheet.data.map((r, k) => ({ ...r, "detect.unhappy": k % 2 === 0 ? "yes" : "no" }));
    const tampered: Record<string, string>[] = filled.map((r, k) => (k === 0 ? { ...r, pi: String(Number(r["pi"]) / 2) } : r));
    writeFileSync(join(dir, "bad.csv"), Papa.unparse({ fields: sheet.meta.fields!, data: tampered.map((r) => sheet.meta.fields!.map((f) => r[f] ?? "")) }));
    const bad = await cli(["eval", "label", "import", "bad.csv"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/inclusion probability differs from active\.jsonl; nothing imported/);
    writeFileSync(join(dir, "ana.csv"), Papa.unparse({ fields: sheet.meta.fields!, data: filled.map((r) => sheet.meta.fields!.map((f) => r[f] ?? "")) }));
    const ok = await cli(["eval", "label", "import", "ana.csv", "--json"]);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ imported: proposed.length, labeler: "ana" });
    const gold = await cli(["eval", "label", "export", "--labeler", "ana", "--exchanges", "ex.jsonl", "--items", "gold"]);
    expect(gold.code).toBe(2);
    expect((await cli(["eval", "label", "export", "--labeler", "ana", "--items", "some"])).code).toBe(2);
  });
});

describe("eval score with active labels", () => {
  it("reads active.jsonl: the round's estimate with its method once every drawn item has a majority, 'not yet' before", async () => {
    writeData();
    const gold = await cli(["eval", "sample", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--items", "15", "--failure-items", "0"]);
    expect(gold.code, gold.err).toBe(0);
    const next = await cli(["eval", "sample", "--next", "12", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--json"]);
    expect(next.code, next.err).toBe(0);
    const rows = readFileSync(join(dir, "ledger", "eval", "active.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { exchange_id: string; f: number; pi: number; drawn: boolean });
    const truth = (id: string): boolean => Number.parseInt(id.slice(3), 16) % 3 === 0;
    const goldIds = readFileSync(join(dir, "ledger", "eval", "gold.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { exchange_id: string }).exchange_id);
    const labelRows = (ids: string[]) => ids.flatMap((id) => ["a", "b", "c"].map((who) => JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "detect.unhappy", value: truth(id), origin: "t" }))).join("\n") + "\n";
    const drawn = rows.filter((r) => r.drawn).map((r) => r.exchange_id);
    const labelsFile = join(dir, "ledger", "eval", "labels.jsonl");
    writeFileSync(labelsFile, labelRows([...new Set([...goldIds, ...drawn.slice(1)])]));
    const early = await cli(["eval", "score", "--predictions", "preds.jsonl", "--split", "all"]);
    expect(early.code, early.err).toBe(0);
    expect(early.out).toMatch(/corpus failure rate by active labelling \(.*\): not yet: 1 of the \d+ drawn items have no majority label yet/);
    writeFileSync(labelsFile, labelRows([...new Set([...goldIds, ...drawn])]));
    const done = await cli(["eval", "score", "--predictions", "preds.jsonl", "--split", "all", "--json"]);
    expect(done.code, done.err).toBe(0);
    const a = (JSON.parse(done.out) as { active: { ok: boolean; estimate: number; standard_error: number; method: string; labelled: number; items: number } }).active;
    // One round: (1/N) sum_i [f_i + (y_i - f_i) drawn_i / pi_i], written out again here.
    const N = rows.length;
    const est = rows.reduce((s, r) => s + r.f + (r.drawn ? ((truth(r.exchange_id) ? 1 : 0) - r.f) / r.pi : 0), 0) / N;
    const v = rows.reduce((s, r) => s + (r.drawn ? ((1 - r.pi) * ((truth(r.exchange_id) ? 1 : 0) - r.f) ** 2) / r.pi ** 2 : 0), 0) / (N * N);
    expect(a).toMatchObject({ ok: true, labelled: drawn.length, items: 60 });
    expect(a.estimate).toBeCloseTo(est, 12);
    expect(a.standard_error).toBeCloseTo(Math.sqrt(v), 12);
    expect(a.method).toMatch(/inclusion probabilities/);
    const text = await cli(["eval", "score", "--predictions", "preds.jsonl", "--split", "all"]);
    expect(text.out).toMatch(/corpus failure rate by active labelling: 0\.\d{4} \[.*\] at 90%, \d+ items labelled of 60 in 1 round\(s\)\n  method: active labelling: difference estimator/);
    expect((await cli(["eval", "score", "--predictions", "preds.jsonl", "--active", "nope.jsonl"])).code).toBe(2);
  });
});
