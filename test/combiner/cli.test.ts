import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../calibration/random.js";
import { run } from "../../cli/main.js";
import { bank } from "../../questions/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: dir }, cwd: dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

/** Every bank question answered; detect.unhappy tracks the truth, mode.wrong_language the class. */
function writeData(n: number): void {
  const r = mulberry32(21);
  const sig = (z: number) => 1 / (1 + Math.exp(-z));
  const answers: string[] = [];
  const labels: string[] = [];
  const exchanges: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `ex-${i.toString(16).padStart(16, "0")}`;
    const latent = r() * 4 - 2;
    const fail = latent > 0;
    const cls = r() < 0.5 ? "wrong_language" : "fabrication";
    exchanges.push(JSON.stringify({ id, session_id: `s${Math.floor(i / 3)}` }));
    for (const q of bank) {
      let p = r();
      if (q.id === "detect.unhappy") p = sig(2 * latent);
      if (q.id === "mode.wrong_language") p = sig(cls === "wrong_language" ? 2 : -2);
      answers.push(JSON.stringify({ schema: "answer/1", exchange_id: id, question_id: q.id, question_version: q.version, lane: "replay", model: "m", prompt_hash: "h", status: "scored", p_yes: p, computed_from: "replay", reason: null, raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00Z" }));
    }
    for (const who of ["a", "b", "c"]) {
      labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "detect.unhappy", value: fail, origin: "t" }));
      if (fail) labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "class", value: cls, origin: "t" }));
    }
  }
  writeFileSync(join(dir, "answers.jsonl"), answers.join("\n") + "\n");
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
  writeFileSync(join(dir, "exchanges.jsonl"), exchanges.join("\n") + "\n");
}

describe("errata combiner fit|eval", () => {
  it("fits both heads on the fit split, reproducibly, and scores them on the holdout", async () => {
    writeData(180);
    const base = ["--answers", "answers.jsonl", "--labels", "labels.jsonl", "--exchanges", "exchanges.jsonl"];
    const fit = await cli(["combiner", "fit", ...base, "--seed", "3", "--out", "c1.json", "--json"]);
    expect(fit.code, fit.err).toBe(0);
    const again = await cli(["combiner", "fit", ...base, "--seed", "3", "--out", "c2.json"]);
    expect(again.code).toBe(0);
    const a = JSON.parse(readFileSync(join(dir, "c1.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(dir, "c2.json"), "utf8"));
    expect(b.detect).toEqual(a.detect);
    expect(b.class).toEqual(a.class);
    expect(a.class.classes).toEqual(["fabrication", "wrong_language"]);
    const ev = await cli(["combiner", "eval", "--model", "c1.json", ...base, "--predictions", "pred.jsonl", "--json"]);
    expect(ev.code, ev.err).toBe(0);
    const e = JSON.parse(ev.out);
    expect(e.evaluated_on).toBe("holdout");
    expect(e.detect.at_cut.kappa).toBeGreaterThan(0.7);
    expect(e.class.accuracy_given_gold_failure).toBeGreaterThan(0.9);
    const preds = readFileSync(join(dir, "pred.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(preds).toHaveLength(180);
    expect(preds[0]).toMatchObject({ schema: "prediction/1", detector: "combiner" });
  });
  it("refuses a combiner fitted under another bank (exit 2)", async () => {
    writeData(60);
    await cli(["combiner", "fit", "--answers", "answers.jsonl", "--labels", "labels.jsonl", "--out", "c.json"]);
    const model = JSON.parse(readFileSync(join(dir, "c.json"), "utf8"));
    writeFileSync(join(dir, "old.json"), JSON.stringify({ ...model, bank_hash: "0000000000000000" }));
    const r = await cli(["combiner", "eval", "--model", "old.json", "--answers", "answers.jsonl", "--labels", "labels.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/fitted under bank 0000000000000000, not the current bank/);
  });
});
