import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { fleissKappa, fnv1a32, mulberry32 } from "../../eval/index.js";
import { CLASS_IDS } from "../../questions/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { abRedialFiles } from "./ab-redial-files.js";
import { hasAbRedial } from "./datasets.js";

/**
 * The whole loop on plain files: AB-ReDial exchanges, synthetic detector predictions
 * (regex, v3, v4) whose v4 verdicts are the sampling strata, three labellers whose sheets
 * are filled from the first three real raters' ratings, then agreement and score --check.
 * Class labels are synthetic (AB-ReDial has none): a class per item from a hash.
 */
describe.skipIf(!hasAbRedial)("eval loop: sample -> export -> import -> agreement -> score", () => {
  // A skipped describe's body still runs at collection, and no afterAll runs after it: without
  // the data, make no folder and write nothing (the skip is said once, by test/helpers/skips.ts).
  if (!hasAbRedial) {
    it.skip("needs ../shared/datasets/ab-redial", () => {});
    return;
  }
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const f = abRedialFiles();
  const exFile = join(tmp.dir, "exchanges.jsonl");
  writeFileSync(exFile, f.exchanges.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const classOf = (id: string): string => CLASS_IDS[fnv1a32(id) % 4] as string;
  const truth = (id: string): boolean => {
    const rs = (f.ratings.get(id) ?? []).slice(0, 3).filter((v): v is number => v !== null);
    return rs.filter((v) => v <= 2).length >= 2;
  };
  // Synthetic detectors: v4 sees the truth with 15% noise, v3 with 35%, regex almost never fires.
  const r = mulberry32(99);
  const preds: string[] = [];
  for (const e of f.exchanges) {
    const t = truth(e.id);
    const v4 = r() < 0.15 ? !t : t;
    const v3 = r() < 0.35 ? !t : t;
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: e.id, detector: "v4", detected: v4, class: v4 ? (r() < 0.85 ? classOf(e.id) : "off_topic") : null, p_failure: v4 ? 0.8 : 0.2 }));
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: e.id, detector: "v3", detected: v3, class: v3 ? (r() < 0.5 ? classOf(e.id) : "off_topic") : null }));
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: e.id, detector: "regex", detected: r() < 0.05 ? null : r() < 0.03, class: null }));
  }
  const predFile = join(tmp.dir, "predictions.jsonl");
  writeFileSync(predFile, preds.join("\n") + "\n");
  const env = { ERRATA_DIR: join(tmp.dir, "ledger") };
  const goldFile = join(tmp.dir, "ledger", "eval", "gold.jsonl");
  const labelsFile = join(tmp.dir, "ledger", "eval", "labels.jsonl");
  const questions = "detect.unhappy,satisfaction:1-5,class";
  const cli = async (args: string[]): Promise<{ code: number; out: string; err: string }> => {
    const io = memoryIo({ env, cwd: tmp.dir });
    const code = await run(args, io.io);
    return { code, out: io.out(), err: io.err() };
  };

  it("samples 150 items with at most 3 per session, 60 composed failures, and a session split", async () => {
    const res = await cli(["eval", "sample", "--exchanges", exFile, "--failures", predFile, "--items", "150", "--failure-items", "60", "--seed", "5", "--monte-carlo", "400", "--json"]);
    expect(res.code, res.err).toBe(0);
    const m = JSON.parse(res.out) as { drawn: { failure: number }; split: { fit: number; holdout: number }; monte_carlo_check: { max_abs_z: number } };
    expect(m.drawn.failure).toBe(60);
    expect(m.split.fit + m.split.holdout).toBe(150);
    expect(m.monte_carlo_check.max_abs_z).toBeLessThan(5);
    const gold = readFileSync(goldFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { session_id: string; split: string });
    const per = new Map<string, number>();
    for (const g of gold) per.set(g.session_id, (per.get(g.session_id) ?? 0) + 1);
    expect(Math.max(...per.values())).toBeLessThanOrEqual(3);
    // A second draw over an existing gold set is refused (labels are keyed to it).
    expect((await cli(["eval", "sample", "--exchanges", exFile, "--failures", predFile])).code).toBe(2);
  });

  const sheets: Record<string, string> = {};
  it("exports blind sheets, shuffled per labeller", async () => {
    for (const l of ["r1", "r2", "r3"]) {
      const res = await cli(["eval", "label", "export", "--labeler", l, "--exchanges", exFile, "--questions", questions, "--out", join(tmp.dir, `${l}.csv`)]);
      expect(res.code, res.err).toBe(0);
      sheets[l] = readFileSync(join(tmp.dir, `${l}.csv`), "utf8");
    }
    const rows = (csv: string) => Papa.parse<Record<string, string>>(csv, { header: true }).data;
    const r1 = rows(sheets["r1"] as string);
    expect(Object.keys(r1[0] ?? {})).toEqual(["labeler", "item", "exchange_id", "previous_ask", "reply_end", "tool_calls", "prompt", "detect.unhappy", "satisfaction:1-5", "class", "note"]);
    expect(r1.every((x) => x["detect.unhappy"] === "" && x["satisfaction:1-5"] === "" && x["class"] === "")).toBe(true);
    expect(rows(sheets["r2"] as string).map((x) => x["exchange_id"])).not.toEqual(r1.map((x) => x["exchange_id"]));
    expect(sheets["r1"]).not.toMatch(/stratum|failure"|weight/);
  });

  it("rejects a bad sheet with row numbers and imports nothing", async () => {
    const data = Papa.parse<Record<string, string>>(sheets["r1"] as string, { header: true }).data;
    const bad: Record<string, string>[] = data.map((x) => ({ ...x, "detect.unhappy": "no", "satisfaction:1-5": "3", class: "none" }));
    (bad[0] as Record<string, string>)["detect.unhappy"] = "maybe";
    (bad[1] as Record<string, string>)["satisfaction:1-5"] = "";
    (bad[2] as Record<string, string>)["exchange_id"] = "ex-0000000000000000";
    bad.push({ ...(bad[3] as Record<string, string>) });
    const file = join(tmp.dir, "bad.csv");
    writeFileSync(file, Papa.unparse(bad));
    const res = await cli(["eval", "label", "import", file, "--questions", questions, "--json"]);
    expect(res.code).toBe(2);
    const out = JSON.parse(res.out) as { imported: number; errors: { row: number; code: string }[] };
    expect(out.imported).toBe(0);
    expect(out.errors.map((e) => [e.row, e.code])).toEqual([[2, "invalid_answer"], [3, "missing_answer"], [4, "unknown_item"], [bad.length + 1, "duplicate_row"]]);
    expect(res.err).toContain("row 2: detect.unhappy is \"maybe\"; expected yes or no");
    expect(() => readFileSync(labelsFile)).toThrow();
  });

  it("imports the three filled sheets (first three real raters)", async () => {
    ["r1", "r2", "r3"].forEach((l, k) => {
      const data = Papa.parse<Record<string, string>>(sheets[l] as string, { header: true }).data.map((x) => {
        const id = x["exchange_id"] as string;
        const v = f.ratings.get(id)?.[k] ?? null;
        if (v === null) return { ...x, note: "no rating in the source data" };
        return { ...x, "detect.unhappy": v <= 2 ? "yes" : "no", "satisfaction:1-5": String(v), class: v <= 2 ? classOf(id) : "none" };
      });
      writeFileSync(join(tmp.dir, `${l}-done.csv`), Papa.unparse(data));
    });
    for (const l of ["r1", "r2", "r3"]) {
      const res = await cli(["eval", "label", "import", join(tmp.dir, `${l}-done.csv`), "--questions", questions]);
      expect(res.code, res.err).toBe(0);
      expect(res.out).toMatch(new RegExp(`imported \\d+ labels from ${l}`));
    }
    expect((await cli(["eval", "label", "import", join(tmp.dir, "r1-done.csv"), "--questions", questions])).code).toBe(2);
  });

  it("agreement on the gold items matches Fleiss' kappa computed directly", async () => {
    const res = await cli(["eval", "agreement", "--resamples", "300", "--json"]);
    expect(res.code, res.err).toBe(0);
    const qs = (JSON.parse(res.out) as { questions: { question: string; fleiss_fixed: { value: number; items: number } }[] }).questions;
    const gold = readFileSync(goldFile, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { exchange_id: string }).exchange_id);
    const units = gold.map((id) => (f.ratings.get(id) ?? []).slice(0, 3)).filter((u) => u.every((v) => v !== null)) as number[][];
    const sat = qs.find((q) => q.question === "satisfaction");
    expect(sat?.fleiss_fixed.items).toBe(units.length);
    expect(sat?.fleiss_fixed.value).toBeCloseTo(fleissKappa(units).kappa as number, 10);
  });

  it("scores the detectors and gates them: exit 0 when the bars hold, 1 when one fails, 2 on bad bars", async () => {
    const res = await cli(["eval", "score", "--predictions", predFile, "--detectors", "regex,v3,v4", "--check", "--json"]);
    expect([0, 1]).toContain(res.code);
    const out = JSON.parse(res.out) as {
      bootstrap: { resamples: number; seed: number; sessions: number; method: string };
      detectors: { name: string; figures: { recall: { point: number } } }[];
      check: { pass: boolean; bars: { id: string }[] };
      ppi: { level: number; lower: number; upper: number };
    };
    expect(res.code).toBe(out.check.pass ? 0 : 1);
    expect(out.bootstrap).toMatchObject({ resamples: 2000, seed: 1, method: "session-block percentile bootstrap" });
    expect(out.check.bars.map((b) => b.id)).toEqual(["ISC-44-detection", "ISC-44-class", "ISC-56", "ISC-53", "coverage-v4", "class-coverage-v4", "coverage-v3", "class-coverage-v3"]);
    expect(out.ppi.level).toBeCloseTo(0.9, 12);
    const v4 = out.detectors.find((d) => d.name === "v4");
    expect(v4?.figures.recall.point).toBeGreaterThan(0.5);

    const easy = join(tmp.dir, "easy.json");
    writeFileSync(easy, JSON.stringify({ schema: "eval-bars/1", bars: [{ id: "low", kind: "at_least", metric: "recall", detector: "v4", value: 0.1 }] }));
    const ok = await cli(["eval", "score", "--predictions", predFile, "--check", "--bars", easy]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/PASS low v4 recall >= 0.1: v4.recall \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \(judged on the lower bound >= 0.1\)/);
    expect(ok.out).toMatch(/intervals: session-block percentile bootstrap, paired across detectors, 2000 resamples, seed 1, level 0.95, \d+ sessions/);

    const hard = join(tmp.dir, "hard.json");
    writeFileSync(hard, JSON.stringify({ schema: "eval-bars/1", bars: [{ id: "high", kind: "at_least", metric: "precision", detector: "regex", value: 1 }] }));
    expect((await cli(["eval", "score", "--predictions", predFile, "--check", "--bars", hard])).code).toBe(1);

    writeFileSync(join(tmp.dir, "broken.json"), JSON.stringify({ schema: "eval-bars/1", bars: [{ id: "x", kind: "at_most" }] }));
    expect((await cli(["eval", "score", "--predictions", predFile, "--check", "--bars", join(tmp.dir, "broken.json")])).code).toBe(2);
    expect((await cli(["eval", "score", "--predictions", predFile, "--resamples", "100"])).code).toBe(2);
  });
});
