import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../calibration/random.js";
import { run } from "../../cli/main.js";
import { bankHash } from "../../questions/index.js";
import { PromotedSchema } from "../../schemas/promoted.js";
import { memoryIo, tempDir } from "../helpers/io.js";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: dir }, cwd: dir });
  return { code: await run(argv, m.io), out: m.out(), err: m.err() };
}

/**
 * A gold holdout of 160 exchanges in 80 sessions, 40% failures. v4 finds 90% of failures with
 * the right class `v4ClassRight` of the time; v3 finds half with a coin-flip class.
 */
function writeEval(v4ClassRight: number): void {
  const r = mulberry32(8);
  const gold: string[] = [];
  const labels: string[] = [];
  const preds: string[] = [];
  const classes = ["fabrication", "off_topic", "wrong_language"];
  for (let i = 0; i < 160; i++) {
    const id = `ex-${i.toString(16).padStart(16, "0")}`;
    const fail = r() < 0.4;
    const cls = classes[i % 3]!;
    gold.push(JSON.stringify({ schema: "gold-item/1", exchange_id: id, session_id: `s${Math.floor(i / 2)}`, stratum: fail ? "failure" : "other", inclusion_probability: 0.5, inclusion_method: "exact", inclusion_se: 0, design_weight: 2, weight: 2, split: "holdout" }));
    for (const who of ["a", "b", "c"]) {
      labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "detect.unhappy", value: fail, origin: "t" }));
      if (fail) labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "class", value: cls, origin: "t" }));
    }
    const v4 = fail ? r() < 0.9 : r() < 0.05;
    const v3 = fail ? r() < 0.5 : r() < 0.3;
    const wrong = classes[(i + 1) % 3]!;
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "v4", detected: v4, class: v4 ? (r() < v4ClassRight ? cls : wrong) : null }));
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "v3", detected: v3, class: v3 ? (r() < 0.33 ? cls : wrong) : null }));
  }
  writeFileSync(join(dir, "gold.jsonl"), gold.join("\n") + "\n");
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
  writeFileSync(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
  writeFileSync(join(dir, "cuts.json"), JSON.stringify({ schema: "calibration-cuts/1", created_at: "2026-11-30T00:00:00Z", bank_hash: bankHash, rule: "kappa", cuts: { "detect.unhappy": 0.41 }, questions: [], inputs: {} }));
}

const base = ["promote", "--predictions", "preds.jsonl", "--gold", "gold.jsonl", "--labels", "labels.jsonl", "--cuts", "cuts.json"];

describe("errata promote", () => {
  it("writes <ledger>/promoted.json only when every bar passes, with the check's figures", async () => {
    writeEval(0.95);
    const r = await cli([...base, "--json"]);
    expect(r.code, r.err + r.out).toBe(0);
    const file = join(dir, "promoted.json");
    const p = PromotedSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    expect(p.bank_hash).toBe(bankHash);
    expect(p.cuts).toEqual({ "detect.unhappy": 0.41 });
    expect(p.check.bars.map((b) => b.id)).toEqual(["ISC-44-detection", "ISC-44-class", "ISC-56", "ISC-53", "coverage-v4", "class-coverage-v4", "coverage-v3", "class-coverage-v3"]);
    expect(p.check.bootstrap.resamples).toBe(2000);
    expect(p.class_level).toBe("composer");
    expect(readFileSync(file, "utf8")).not.toMatch(/\.tmp/);
  });
  it("refuses when a bar fails, naming it, and writes nothing (exit 1)", async () => {
    writeEval(0.6);
    const r = await cli(base);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/not promoted: 1 of 8 bars failed/);
    expect(r.out).toMatch(/FAIL ISC-53 v4 class accuracy given detection: v4\.classAccuracy 0\.\d+ \(lower bound must reach 0\.8\)/);
    expect(existsSync(join(dir, "promoted.json"))).toBe(false);
  });
  it("refuses cuts calibrated under another bank (exit 2) and --dry-run writes nothing", async () => {
    writeEval(0.95);
    const cuts = JSON.parse(readFileSync(join(dir, "cuts.json"), "utf8"));
    writeFileSync(join(dir, "old-cuts.json"), JSON.stringify({ ...cuts, bank_hash: "sha256:old" }));
    const bad = await cli(["promote", "--predictions", "preds.jsonl", "--gold", "gold.jsonl", "--labels", "labels.jsonl", "--cuts", "old-cuts.json"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/another bank/);
    const dry = await cli([...base, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/dry run: nothing written/);
    expect(existsSync(join(dir, "promoted.json"))).toBe(false);
  });
});
