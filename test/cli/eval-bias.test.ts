import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scriptOf } from "../../cli/commands/eval/bias.js";
import { judgeBias } from "../../eval/index.js";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";
import { exchangeLine, exId as hex } from "../helpers/synthetic-rows.js";

/**
 * `errata eval bias` on data with a planted bias: 240 exchanges in 60 sessions, three labellers
 * copy the truth; v4 is wrong on every long prompt (> 200 characters) and right elsewhere,
 * except a few misses spread evenly over the two corpora.
 */
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const cli = (argv: string[]) => cliIn(dir, argv);

function writeData() {
  const ex: string[] = [], labels: string[] = [], preds: string[] = [];
  for (let i = 0; i < 240; i++) {
    const fail = i % 5 === 0;
    const long = i % 6 === 0;
    const prompt = (i % 4 === 0 ? "これはテストです" : "please fix it ").repeat(long ? 30 : 1 + (i % 3));
    ex.push(exchangeLine(i, { corpus: i < 120 ? "alpha" : "beta", session_id: `s${i % 60}`, turn: Math.floor(i / 60), prompt, reply_end: "ok" }));
    for (const who of ["a", "b", "c"]) labels.push(JSON.stringify({ schema: "label/1", exchange_id: hex(i), labeler: who, question: "detect.unhappy", value: fail, origin: "t" }));
    const wrong = long || i % 17 === 0;
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: hex(i), detector: "v4", detected: wrong ? !fail : fail, class: null }));
  }
  writeFileSync(join(dir, "ex.jsonl"), ex.join("\n") + "\n");
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
  writeFileSync(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
}

describe("errata eval bias", () => {
  it("finds the planted prompt-length bias (Holm-adjusted), not one by corpus; table and --json agree with judgeBias; bad input exits 2", async () => {
    writeData();
    const s = await cli(["eval", "sample", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--items", "240", "--per-session", "4", "--failure-items", "0", "--out", "gold"]);
    expect(s.code, s.err).toBe(0);
    const args = ["eval", "bias", "--predictions", "preds.jsonl", "--exchanges", "ex.jsonl", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl"];
    const j = await cli([...args, "--json"]);
    expect(j.code, j.err).toBe(0);
    const out = JSON.parse(j.out) as { items: number; errors: number; tests: { covariate: string; p: number; p_holm: number; p_b_h: number; effect: number }[]; skipped: { covariate: string }[] };
    expect(out.items).toBe(240);
    expect(out.errors).toBe(40 + 15 - 3); // 40 long prompts, 15 multiples of 17, 3 both (0, 102, 204)
    const len = out.tests.find((t) => t.covariate === "prompt_length")!;
    expect(len.effect).toBeGreaterThan(0.5);
    expect(len.p_holm).toBeLessThan(1e-6);
    expect(out.tests.find((t) => t.covariate === "corpus")!.p).toBeGreaterThan(0.05);
    // reply_end is "ok" everywhere: a numeric covariate with one value still tests (p = 1).
    expect(out.tests.find((t) => t.covariate === "reply_length")!.p).toBe(1);
    const text = await cli(args);
    expect(text.out).toMatch(/prompt_length\s+Mann-Whitney U/);
    expect(text.out).toMatch(/script\s+chi-square/);
    expect(text.out).toMatch(/optimistic when errors cluster in sessions/);
    const none = await cli(["eval", "bias", "--predictions", "preds.jsonl", "--exchanges", "ex.jsonl", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--detector", "nosuch"]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no predictions of nosuch/);
    expect((await cli([...args, "--split", "sideways"])).code).toBe(2);
  });

  it("reads the script of a prompt: kana wins over Han, letters only", () => {
    expect(scriptOf("これは漢字")).toBe("kana");
    expect(scriptOf("修复这个错误")).toBe("han");
    expect(scriptOf("исправь это")).toBe("cyrillic");
    expect(scriptOf("fix 123 !!")).toBe("latin");
    expect(scriptOf("123 !!")).toBeNull();
    expect(judgeBias([], ["x"]).skipped).toEqual([{ covariate: "x", why: "0 errors and 0 right items with a value" }]);
  });
});
