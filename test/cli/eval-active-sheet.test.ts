import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";

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
const hex = (i: number) => `ex-${i.toString(16).padStart(16, "0")}`;

function writeData() {
  const ex: string[] = [], preds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const p = 0.01 + (0.98 * i) / 59;
    ex.push(JSON.stringify({ schema: "exchange/1", id: hex(i), corpus: "synthetic", session_id: `s${i % 20}`, turn: 0, prompt: `p${i}`, prompt_ts: null, reply_end: null, reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null }));
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
