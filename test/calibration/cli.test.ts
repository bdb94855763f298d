import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { mulberry32 } from "../../calibration/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/**
 * The calibrate commands on plain files. The data are synthetic with a known truth: item i is
 * "yes" with probability q_i, the judge says p_i = q_i^2 (over-confident "no"), and three
 * labellers copy the truth with 10% noise each.
 */
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const hex = (i: number) => i.toString(16).padStart(16, "0");

function writeCorpus(n = 400): void {
  const r = mulberry32(11);
  const answers: string[] = [];
  const labels: string[] = [];
  const exchanges: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `ex-${hex(i)}`;
    const q = r();
    const truth = r() < q;
    exchanges.push(JSON.stringify({ id, session_id: `s${Math.floor(i / 4)}` }));
    answers.push(JSON.stringify({ schema: "answer/1", exchange_id: id, question_id: "detect.unhappy", question_version: 1, lane: "replay", model: "m", prompt_hash: "h", ...(i % 50 === 0 ? { status: "unscored", p_yes: null, computed_from: null, reason: "no reply" } : { status: "scored", p_yes: q * q, computed_from: "replay", reason: null }), raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00Z" }));
    for (const who of ["a", "b", "c"]) labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "detect.unhappy", value: r() < 0.1 ? !truth : truth, origin: "test" }));
  }
  writeFileSync(join(dir, "answers.jsonl"), answers.join("\n") + "\n");
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
  writeFileSync(join(dir, "exchanges.jsonl"), exchanges.join("\n") + "\n");
}

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: dir }, cwd: dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata calibrate cuts|probabilities", () => {
  it("writes a cuts candidate under v4/candidates with both cuts side by side, never promoted.json", async () => {
    writeCorpus();
    const r = await cli(["calibrate", "cuts", "--answers", "answers.jsonl", "--labels", "labels.jsonl", "--exchanges", "exchanges.jsonl", "--json"]);
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out);
    expect(v.file).toContain(join("v4", "candidates", "cuts-"));
    const q = v.candidate.questions[0];
    expect(q.question).toBe("detect.unhappy");
    expect(q.n).toBeGreaterThan(140);
    expect(q.n).toBeLessThan(260); // the holdout half of the sessions and unscored items left out
    expect(q.excluded.unscored).toBeGreaterThan(0);
    // The judge squares the truth's probability, so the best cut sits well below 0.5.
    expect(q.kappa_cut.cut).toBeLessThan(0.5);
    expect(q.kappa_cut.kappa).toBeGreaterThan(0.2);
    expect(v.candidate.cuts["detect.unhappy"]).toBe(q.kappa_cut.cut);
    expect(existsSync(join(dir, "promoted.json"))).toBe(false);
    expect(readdirSync(join(dir, "v4", "candidates"))).toHaveLength(1);
  });
  it("refuses to write to promoted.json and writes nothing on bad input", async () => {
    writeCorpus(40);
    const r = await cli(["calibrate", "cuts", "--answers", "answers.jsonl", "--labels", "labels.jsonl", "--out", "promoted.json"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/refusing to write the promoted configuration/);
    const bad = await cli(["calibrate", "cuts", "--answers", "nope.jsonl", "--labels", "labels.jsonl"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/no such file/);
    expect(existsSync(join(dir, "v4"))).toBe(false);
  });
  it("probabilities: Platt improves the over-confident judge on the holdout, with --dry-run writing nothing", async () => {
    writeCorpus(1600);
    const r = await cli(["calibrate", "probabilities", "--answers", "answers.jsonl", "--labels", "labels.jsonl", "--exchanges", "exchanges.jsonl", "--json", "--dry-run"]);
    expect(r.code, r.err).toBe(0);
    const q = JSON.parse(r.out).candidate.questions[0];
    expect(q.evaluated_on).toBe("holdout");
    expect(q.metrics.platt.log_loss).toBeLessThan(q.metrics.raw.log_loss);
    expect(q.metrics.platt.ece).toBeLessThan(q.metrics.raw.ece);
    expect(["platt", "isotonic"]).toContain(q.chosen.method);
    expect(existsSync(join(dir, "v4"))).toBe(false);
  });
});

describe("errata calibrate shadow", () => {
  it("says 88 for 5% at 95% under repeated looks, with the single-look 59 beside it", async () => {
    const r = await cli(["calibrate", "shadow", "--false-alarm", "0.05", "--confidence", "0.95"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^88 clean, eligible opportunities from distinct sessions show the false-alarm rate below 5% however often the log is read \(sequential evidence 20\.30 >= 20/);
    expect(r.out).toMatch(/one look at exactly 59 would bound it at 4\.95%/);
    const j = JSON.parse((await cli(["calibrate", "shadow", "--json"])).out);
    expect(j.needed).toBe(88);
    expect(j.single_look.needed).toBe(59);
  });
  it("judges a shadow log per check; exit 1 while a check has not earned its place", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 90; i++) lines.push(JSON.stringify({ schema: "shadow/1", check: "good", session_id: `s${i}`, ts: new Date(Date.UTC(2026, 10, 1 + (i % 10))).toISOString(), eligible: true, violation: false, fired: false }));
    for (let i = 0; i < 60; i++) lines.push(JSON.stringify({ schema: "shadow/1", check: "noisy", session_id: `s${i}`, ts: new Date(Date.UTC(2026, 10, 1 + (i % 10))).toISOString(), eligible: true, violation: false, fired: i < 3 }));
    writeFileSync(join(dir, "shadow.jsonl"), lines.join("\n") + "\n");
    const r = await cli(["calibrate", "shadow", "--log", "shadow.jsonl", "--json"]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.checks.map((c: { check: string; earned: boolean }) => [c.check, c.earned])).toEqual([["good", true], ["noisy", false]]);
    const good = await cli(["calibrate", "shadow", "--log", "shadow.jsonl", "--check", "good"]);
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/good: earned its place: 0 false alarms in 90 sessions, evidence 2\d\.\d\d \(needs 20; 88 sessions at this alarm count\), single-look bound 3\.27%/);
  });
});

describe("errata calibrate draw|brief|agreement|fit (any yes/no question)", () => {
  it("runs the loop for a question outside the bank, blind, and writes a candidate", async () => {
    const r = mulberry32(5);
    const items: string[] = [];
    const truth = new Map<string, boolean>();
    for (let i = 0; i < 300; i++) {
      const p = r();
      truth.set(`pair-${i}`, r() < p);
      items.push(JSON.stringify({ schema: "calib-item/1", item_id: `pair-${i}`, session_id: `s${i % 97}`, question: "rules.rule_covers", p_yes: p, shown: { failure: `failure ${i}`, rule: `rule ${i % 7}` } }));
    }
    writeFileSync(join(dir, "items.jsonl"), items.join("\n") + "\n");
    writeFileSync(join(dir, "q.json"), JSON.stringify({ id: "rules.rule_covers", text: "Does the rule cover the failure?", guidance: "Yes when obeying the rule would have prevented the failure." }));
    const d = await cli(["calibrate", "draw", "--items", "items.jsonl", "--question", "rules.rule_covers", "--n", "60", "--dir", "loop", "--seed", "3", "--json"]);
    expect(d.code, d.err).toBe(0);
    expect(JSON.parse(d.out)).toMatchObject({ drawn: 60, per_band: { 0: 12, 1: 12, 2: 12, 3: 12, 4: 12 } });
    const b = await cli(["calibrate", "brief", "--dir", "loop", "--question-file", "q.json"]);
    expect(b.code, b.err).toBe(0);
    const brief = readFileSync(join(dir, "loop", "brief.md"), "utf8");
    expect(brief).toContain("Does the rule cover the failure?");
    expect(brief).not.toMatch(/p_yes|0\.\d{3}/); // blind: no probabilities
    // Three labellers fill their sheets: the truth with one in ten flipped.
    for (const [k, who] of ["ana", "ben", "cai"].entries()) {
      const sheet = readFileSync(join(dir, "loop", `sheet-${k + 1}.csv`), "utf8").trim().split("\r\n");
      const filled = [sheet[0], ...sheet.slice(1).map((line) => {
        const id = line.split(",")[0]!;
        const yes = truth.get(id)! !== (r() < 0.1);
        return `${line}${yes ? "yes" : "no"}`;
      })];
      writeFileSync(join(dir, "loop", `${who}.csv`), filled.join("\r\n") + "\r\n");
    }
    const a = await cli(["calibrate", "agreement", "--dir", "loop", "--json", "--resamples", "200"]);
    expect(a.code, a.err).toBe(0);
    const ag = JSON.parse(a.out);
    expect(ag.agreement.labelers).toEqual(["ana", "ben", "cai"]);
    expect(ag.agreement.fleiss_fixed.value).toBeGreaterThan(0.4);
    expect(ag.agreement.majority.majority).toBe(60);
    const f = await cli(["calibrate", "fit", "--dir", "loop", "--precision", "0.8", "--json"]);
    expect(f.code, f.err).toBe(0);
    const c = JSON.parse(f.out).candidate;
    expect(c.schema).toBe("calibration-question/1");
    expect(c.cuts.n).toBe(60);
    expect(c.cuts.kappa_cut.cut).toBeGreaterThan(0.2);
    expect(c.cuts.kappa_cut.cut).toBeLessThan(0.8);
    expect(JSON.parse(f.out).file).toContain(join("v4", "candidates", "rules.rule_covers-"));
  });
  it("a bad answer cell is bad input naming the sheet and row", async () => {
    writeFileSync(join(dir, "items.jsonl"), JSON.stringify({ schema: "calib-item/1", item_id: "x1", session_id: "s", question: "rules.same_root_cause", p_yes: 0.4, shown: { a: "b" } }) + "\n");
    await cli(["calibrate", "draw", "--items", "items.jsonl", "--question", "rules.same_root_cause", "--n", "1", "--dir", "loop"]);
    writeFileSync(join(dir, "loop", "ana.csv"), "item_id,a,answer\r\nx1,b,maybe\r\n");
    writeFileSync(join(dir, "loop", "ben.csv"), "item_id,a,answer\r\nx1,b,yes\r\n");
    const a = await cli(["calibrate", "agreement", "--dir", "loop"]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/bad answer at .*ana\.csv row 2 \(expected yes, no or empty; found "maybe"\)/);
  });
});
