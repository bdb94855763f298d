import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../calibration/random.js";
import { classTierQuestions } from "../../classtier/index.js";
import { run } from "../../cli/main.js";
import { bank } from "../../questions/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/** The calibrate, combiner, classtier and promote flags no other test names, on data with a known truth. */
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: dir, HOME: dir }, cwd: dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}
const json = async (argv: string[], exit = 0) => {
  const r = await cli([...argv, "--json"]);
  expect(r.code, r.err + r.out).toBe(exit);
  return JSON.parse(r.out);
};

const hex = (i: number) => `ex-${i.toString(16).padStart(16, "0")}`;
const answerRow = (id: string, q: string, p: number) =>
  JSON.stringify({ schema: "answer/1", exchange_id: id, question_id: q, question_version: bank.find((b) => b.id === q)?.version ?? 1, lane: "replay", model: "m", prompt_hash: "h", status: "scored", p_yes: p, computed_from: "replay", reason: null, raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00Z" });
const labelRow = (id: string, who: string, question: string, value: boolean | string) => JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question, value, origin: "t" });
const write = (file: string, rows: string[]) => writeFileSync(join(dir, file), rows.join("\n") + "\n");

/**
 * 600 exchanges in 150 sessions: item i is a failure with probability q_i, the judge says
 * q_i^2 for detect.unhappy (over-confident "no"), three labellers copy the truth with 10% noise.
 */
function writeCalibration(): void {
  const r = mulberry32(11);
  const answers: string[] = [];
  const labels: string[] = [];
  const exchanges: string[] = [];
  for (let i = 0; i < 600; i++) {
    const id = hex(i);
    const q = r();
    const truth = r() < q;
    exchanges.push(JSON.stringify({ id, session_id: `s${Math.floor(i / 4)}` }));
    answers.push(answerRow(id, "detect.unhappy", q * q));
    for (const who of ["a", "b", "c"]) labels.push(labelRow(id, who, "detect.unhappy", r() < 0.1 ? !truth : truth));
  }
  write("answers.jsonl", answers);
  write("labels.jsonl", labels);
  write("exchanges.jsonl", exchanges);
}

describe("errata calibrate cuts --rule --split-salt, probabilities --platt-input", () => {
  const base = ["--answers", "answers.jsonl", "--labels", "labels.jsonl", "--exchanges", "exchanges.jsonl", "--dry-run"];
  it("--rule picks which cut fills the registry", async () => {
    writeCalibration();
    const kappa = (await json(["calibrate", "cuts", ...base])).candidate;
    const precision = (await json(["calibrate", "cuts", ...base, "--rule", "precision", "--precision", "0.8"])).candidate;
    const q = precision.questions[0];
    expect(kappa.rule).toBe("kappa");
    expect(kappa.cuts["detect.unhappy"]).toBe(kappa.questions[0].kappa_cut.cut);
    expect(precision.rule).toBe("precision");
    expect(precision.cuts["detect.unhappy"]).toBe(q.precision_cut.cut);
    expect(q.precision_cut.cut).not.toBe(q.kappa_cut.cut);
    expect((await cli(["calibrate", "cuts", ...base, "--rule", "recall"])).code).toBe(2);
  });

  it("--split-salt draws another session split: other fit items, the salt recorded", async () => {
    writeCalibration();
    const plain = (await json(["calibrate", "cuts", ...base])).candidate;
    const salted = (await json(["calibrate", "cuts", ...base, "--split-salt", "another-salt"])).candidate;
    expect(plain.inputs.split).toContain("salt errata-split/1");
    expect(salted.inputs.split).toContain("salt another-salt");
    expect(salted.questions[0].n).not.toBe(plain.questions[0].n);
  });

  it("--platt-input probability fits Platt on P(yes) itself, not its logit", async () => {
    writeCalibration();
    const logit = (await json(["calibrate", "probabilities", ...base])).candidate;
    const prob = (await json(["calibrate", "probabilities", ...base, "--platt-input", "probability"])).candidate;
    expect(logit.platt_input).toBe("logit");
    expect(prob.platt_input).toBe("probability");
    expect(prob.questions[0].platt).not.toEqual(logit.questions[0].platt);
    // Both repair the over-confident judge on the holdout.
    for (const c of [logit, prob]) expect(c.questions[0].metrics.platt.log_loss).toBeLessThan(c.questions[0].metrics.raw.log_loss);
    expect((await cli(["calibrate", "probabilities", ...base, "--platt-input", "odds"])).code).toBe(2);
  });
});

describe("errata calibrate shadow --min-days", () => {
  it("a check with enough clean sessions still waits for the days it must watch", async () => {
    const start = Date.parse("2026-11-01T00:00:00Z");
    const events = Array.from({ length: 90 }, (_, i) =>
      JSON.stringify({ schema: "shadow/1", check: "reply_language", session_id: `s${i}`, ts: new Date(start + i * 3_600_000).toISOString(), eligible: true, violation: false, fired: false }),
    );
    write("shadow.jsonl", events); // 90 sessions over 89 hours: 3.7 days (88 earn it under repeated looks)
    const strict = await json(["calibrate", "shadow", "--log", "shadow.jsonl"], 1);
    expect(strict.checks[0]).toMatchObject({ check: "reply_language", earned: false });
    const lenient = await json(["calibrate", "shadow", "--log", "shadow.jsonl", "--min-days", "3"]);
    expect(lenient).toMatchObject({ min_days: 3, checks: [{ earned: true, opportunities: 90 }] });
  });
});

describe("errata calibrate draw --bands --per-session --replicates, brief --labellers, agreement --sheets", () => {
  function writeItems(): void {
    const r = mulberry32(3);
    write("items.jsonl", Array.from({ length: 200 }, (_, i) => JSON.stringify({ schema: "calib-item/1", item_id: `i${i}`, session_id: `s${i % 40}`, question: "detect.unhappy", p_yes: r(), shown: { prompt: `prompt ${i}` } })));
  }
  const draw = (extra: string[]) => json(["calibrate", "draw", "--items", "items.jsonl", "--question", "detect.unhappy", "--n", "40", "--dir", "loop", ...extra]);
  const drawn = () => readFileSync(join(dir, "loop", "draw.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { session_id: string; band: number; inclusion_probability: number });

  it("--bands sets the P(yes) strata, --per-session the cap per session, --replicates the resolution of the inclusion probabilities", async () => {
    writeItems();
    const five = await draw([]);
    expect(Object.keys(five.per_band)).toHaveLength(5);
    const two = await draw(["--bands", "2"]);
    expect(Object.keys(two.per_band).sort()).toEqual(["0", "1"]);
    await draw(["--per-session", "1"]);
    const sessions = drawn().map((d) => d.session_id);
    expect(new Set(sessions).size).toBe(sessions.length);
    await draw(["--replicates", "9"]);
    // pi = (times drawn in the re-draws + 1) / (replicates + 1): tenths with 9 re-draws.
    for (const d of drawn()) expect(Math.abs(d.inclusion_probability * 10 - Math.round(d.inclusion_probability * 10))).toBeLessThan(1e-9);
  });

  it("--labellers sets the number of sheets; agreement --sheets reads only the sheets named", async () => {
    writeItems();
    await draw(["--n", "10"]);
    const brief = await json(["calibrate", "brief", "--dir", "loop", "--labellers", "2"]);
    expect(brief.files.map((f: string) => f.replace(/.*[\\/]/, ""))).toEqual(["brief.md", "sheet-1.csv", "sheet-2.csv"]);
    expect(readdirSync(join(dir, "loop")).filter((f) => f.startsWith("sheet-"))).toHaveLength(2);
    const rows = readFileSync(join(dir, "loop", "draw.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { item_id: string }).item_id);
    const sheet = (name: string, answer: (k: number) => string) => writeFileSync(join(dir, "loop", name), `item_id,answer\n${rows.map((id, k) => `${id},${answer(k)}`).join("\n")}\n`);
    sheet("ana.csv", () => "yes");
    sheet("ben.csv", () => "yes");
    sheet("cai.csv", (k) => (k % 2 ? "yes" : "no"));
    expect(rows).toHaveLength(10);
    const every = await json(["calibrate", "agreement", "--dir", "loop", "--dry-run"]);
    expect(every.agreement.labelers).toEqual(["ana", "ben", "cai"]);
    const two = await json(["calibrate", "agreement", "--dir", "loop", "--dry-run", "--sheets", "loop/ana.csv", "loop/ben.csv"]);
    expect(two.agreement.labelers).toEqual(["ana", "ben"]);
    expect(two.labels).toBe(20);
    expect(two.agreement.raw.pairwise).toBe(1);
  });
});

/**
 * 180 exchanges in 60 sessions, every bank question answered: detect.unhappy tracks a latent
 * failure, mode.wrong_language the class; labels for detect.unhappy, its opposite under
 * detect.correction, and the class under `class` and (reversed) under `class2`.
 */
function writeCombiner(): void {
  const r = mulberry32(21);
  const sig = (z: number) => 1 / (1 + Math.exp(-z));
  const answers: string[] = [];
  const labels: string[] = [];
  const exchanges: string[] = [];
  for (let i = 0; i < 180; i++) {
    const id = hex(i);
    const latent = r() * 4 - 2;
    const fail = latent > 0;
    const cls = r() < 0.5 ? "wrong_language" : "fabrication";
    exchanges.push(JSON.stringify({ id, session_id: `s${Math.floor(i / 3)}` }));
    for (const q of bank) {
      let p = r();
      if (q.id === "detect.unhappy") p = sig(2 * latent);
      if (q.id === "mode.wrong_language") p = sig(cls === "wrong_language" ? 2 : -2);
      answers.push(answerRow(id, q.id, p));
    }
    for (const who of ["a", "b", "c"]) {
      labels.push(labelRow(id, who, "detect.unhappy", fail));
      labels.push(labelRow(id, who, "detect.correction", !fail));
      if (fail) labels.push(labelRow(id, who, "class", cls), labelRow(id, who, "class2", cls === "wrong_language" ? "fabrication" : "wrong_language"));
    }
  }
  write("answers.jsonl", answers);
  write("labels.jsonl", labels);
  write("exchanges.jsonl", exchanges);
}

describe("errata combiner fit|eval --target --class-question --folds", () => {
  const base = ["--answers", "answers.jsonl", "--labels", "labels.jsonl", "--exchanges", "exchanges.jsonl"];
  it("fit: --folds sets the cross-validation, --target and --class-question the label questions the heads learn", async () => {
    writeCombiner();
    const plain = (await json(["combiner", "fit", ...base, "--out", "plain.json"])).combiner;
    expect(plain.folds).toBe(5);
    expect(plain.detect.target).toBe("detect.unhappy");
    const three = (await json(["combiner", "fit", ...base, "--folds", "3", "--dry-run"])).combiner;
    expect(three.folds).toBe(3);
    const other = (await json(["combiner", "fit", ...base, "--target", "detect.correction", "--dry-run"])).combiner;
    expect(other.detect.target).toBe("detect.correction");
    // Its failures are the exchanges without class labels: no class head.
    expect(other.class).toBeNull();
    const class2 = (await json(["combiner", "fit", ...base, "--class-question", "class2", "--dry-run"])).combiner;
    expect(class2.class.target).toBe("class2");
    expect(class2.class.classes).toEqual(["fabrication", "wrong_language"]);
    // detect.correction is labelled as the opposite of detect.unhappy: the same items, the positives swapped.
    expect(other.detect.n).toBe(plain.detect.n);
    expect(other.detect.positives).toBe(plain.detect.n - plain.detect.positives);
    expect((await cli(["combiner", "fit", ...base, "--folds", "1"])).code).toBe(2);

    // eval scores each model against the questions it is told: the reversed class labels make the class head wrong.
    const ev = (model: string, extra: string[] = []) => json(["combiner", "eval", "--model", model, ...base, ...extra]);
    const right = await ev("plain.json");
    expect(right.class.accuracy_given_gold_failure).toBeGreaterThan(0.9);
    const reversed = await ev("plain.json", ["--class-question", "class2"]);
    expect(reversed.class.accuracy_given_gold_failure).toBeLessThan(0.1);
    const flipped = await ev("plain.json", ["--target", "detect.correction"]);
    expect(flipped.detect.at_cut.kappa).toBeLessThan(0);
  });
});

describe("errata classtier eval --cut --combiner --predictions --detector --second-look-precision", () => {
  /**
   * 16 exchanges: 12 failures (classes fabrication and off_topic, the judge's P(yes) on the gold
   * class 0.8 for even ones, 0.6 for odd ones) and 4 that are not; v4 passes 4 failures and the
   * 4 others (the judge names a class for every one: 8 second-look flags, 4 hits).
   */
  function writeClassTier(): void {
    const stored: string[] = [];
    const labels: string[] = [];
    const preds: string[] = [];
    const answers: string[] = [];
    const exchanges: string[] = [];
    for (let i = 0; i < 16; i++) {
      const id = hex(i);
      const fail = i < 12;
      const gold = i % 3 === 0 ? "fabrication" : "off_topic";
      exchanges.push(JSON.stringify({ schema: "exchange/1", id, corpus: "test", session_id: `s${i}`, turn: 1, prompt: `p${i}`, prompt_ts: null, reply_end: "r", reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null }));
      for (const q of classTierQuestions) stored.push(answerRow(id, q.id, q.id === `classtier.${gold}` ? (i % 2 === 0 ? 0.8 : 0.6) : 0.2));
      for (const q of bank) answers.push(answerRow(id, q.id, q.id === "mode.invented_fact" ? (gold === "fabrication" ? 0.9 : 0.1) : q.id === "mode.off_topic" ? (gold === "off_topic" ? 0.9 : 0.1) : 0.5));
      for (const who of ["a", "b", "c"]) {
        labels.push(labelRow(id, who, "detect.unhappy", fail));
        if (fail) labels.push(labelRow(id, who, "class", gold));
      }
      const passed = (fail && i < 4) || !fail;
      preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "v4", detected: !passed, class: null }));
      preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "strict", detected: true, class: null }));
    }
    write("exchanges.jsonl", exchanges);
    write("replay.jsonl", stored);
    write("labels.jsonl", labels);
    write("preds.jsonl", preds);
    write("answers.jsonl", answers);
  }
  const evalLevel = (extra: string[]) => json(["classtier", "eval", "--labels", "labels.jsonl", "--holdout-share", "0", ...extra]);

  it("--cut is where the judge names a class: above the odd exchanges' 0.6 it names half as many", async () => {
    writeClassTier();
    expect((await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--replay", "replay.jsonl"])).code).toBe(0);
    const plain = (await evalLevel([])).record;
    expect(plain.cut).toBe(0.5);
    expect(plain.class_accuracy.model_judge).toBe(1);
    const high = (await evalLevel(["--cut", "0.7"])).record;
    expect(high.cut).toBe(0.7);
    expect(high.class_accuracy.model_judge).toBe(0.5);
  });

  it("--combiner brings the class head in (it needs --answers); without it there is no class head to compare", async () => {
    writeClassTier();
    await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--replay", "replay.jsonl"]);
    const fit = await json(["combiner", "fit", "--answers", "answers.jsonl", "--labels", "labels.jsonl", "--exchanges", "exchanges.jsonl", "--holdout-share", "0", "--out", "c.json"]);
    expect(fit.combiner.class.classes).toEqual(["fabrication", "off_topic"]);
    expect((await evalLevel([])).record.class_accuracy.class_head).toBeNull();
    const withHead = (await evalLevel(["--combiner", "c.json", "--answers", "answers.jsonl"])).record;
    expect(withHead.class_accuracy.class_head).toBe(1);
    expect(withHead.inputs.combiner).toBe("c.json");
    const noAnswers = await cli(["classtier", "eval", "--labels", "labels.jsonl", "--combiner", "c.json"]);
    expect(noAnswers.code).toBe(2);
    expect(noAnswers.err).toMatch(/--combiner needs --answers/);
  });

  it("--detector picks the verdicts the second look reads; --second-look-precision is the bar its flags must reach", async () => {
    writeClassTier();
    await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--replay", "replay.jsonl"]);
    const v4 = (await evalLevel(["--predictions", "preds.jsonl"])).record;
    expect(v4.second_look_figures).toMatchObject({ flags: 8, hits: 4, precision: 0.5 });
    expect(v4.second_look).toBe(true);
    const strict = (await evalLevel(["--predictions", "preds.jsonl", "--second-look-precision", "0.6"])).record;
    expect(strict.second_look).toBe(false);
    const other = (await evalLevel(["--predictions", "preds.jsonl", "--detector", "strict"])).record;
    expect(other.second_look_figures).toMatchObject({ flags: 0, hits: 0 });
    expect(other.second_look).toBe(false);
  });
});

describe("errata promote --classtier-level --detect-question --class-question", () => {
  /** A gold holdout of 160 exchanges, 40% failures; v4 finds 90% with the right class 95% of the time, v3 half with a coin-flip class. */
  function writeEval(): void {
    const r = mulberry32(8);
    const gold: string[] = [];
    const labels: string[] = [];
    const preds: string[] = [];
    const classes = ["fabrication", "off_topic", "wrong_language"];
    for (let i = 0; i < 160; i++) {
      const id = hex(i);
      const fail = r() < 0.4;
      const cls = classes[i % 3]!;
      gold.push(JSON.stringify({ schema: "gold-item/1", exchange_id: id, session_id: `s${Math.floor(i / 2)}`, stratum: fail ? "failure" : "other", inclusion_probability: 0.5, inclusion_method: "exact", inclusion_se: 0, design_weight: 2, weight: 2, split: "holdout" }));
      for (const who of ["a", "b", "c"]) {
        labels.push(labelRow(id, who, "detect.unhappy", fail), labelRow(id, who, "detect.correction", !fail));
        if (fail) labels.push(labelRow(id, who, "class", cls));
      }
      const v4 = fail ? r() < 0.9 : r() < 0.05;
      const v3 = fail ? r() < 0.5 : r() < 0.3;
      const wrong = classes[(i + 1) % 3]!;
      preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "v4", detected: v4, class: v4 ? (r() < 0.95 ? cls : wrong) : null }));
      preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "v3", detected: v3, class: v3 ? (r() < 0.33 ? cls : wrong) : null }));
    }
    write("gold.jsonl", gold);
    write("labels.jsonl", labels);
    write("preds.jsonl", preds);
  }
  const base = ["promote", "--predictions", "preds.jsonl", "--gold", "gold.jsonl", "--labels", "labels.jsonl"];

  it("--classtier-level names the recorded level that ships; without one the composer does", async () => {
    writeEval();
    const level = { schema: "classtier-level/1", recorded_at: "2026-11-30T00:00:00.000Z", level: "model_judge", second_look: true, prompt_hash: "sha256:old", judge: null, cut: 0.5, class_accuracy: { items: 10, model_judge: 0.9, class_head: 0.7, judge_unscored: 0 }, second_look_figures: { passed: 5, flags: 2, hits: 2, precision: 1, recall_gain: 0.1, threshold: 0.5 }, reasons: [], inputs: { labels: "labels.jsonl", cache: "classtier.jsonl" } };
    writeFileSync(join(dir, "level.json"), JSON.stringify(level));
    const plain = await json([...base, "--dry-run"]);
    expect(plain.configuration).toMatchObject({ class_level: "composer", second_look: false });
    const r = await cli([...base, "--classtier-level", "level.json", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).configuration).toMatchObject({ class_level: "model_judge", second_look: true, prompt_hashes: { classtier: "sha256:old" } });
    // A level recorded for another prompt ships, with a note that the runtime falls back until it is recorded again.
    expect(r.err).toMatch(/recorded ClassTier level is for prompt sha256:old/);
    expect(existsSync(join(dir, "promoted.json"))).toBe(true);
    renameSync(join(dir, "promoted.json"), join(dir, "was.json"));
    const missing = await cli([...base, "--classtier-level", "nosuch.json"]);
    expect(missing.code).toBe(2);
    expect(existsSync(join(dir, "promoted.json"))).toBe(false);
  });

  it("--detect-question and --class-question name the gold the bars judge; the wrong ones fail them and write nothing", async () => {
    writeEval();
    expect((await json([...base, "--detect-question", "detect.unhappy", "--class-question", "class", "--dry-run"])).promoted).toBe(false);
    const inverted = await json([...base, "--detect-question", "detect.correction"], 1);
    expect(inverted.promoted).toBe(false);
    expect(inverted.failed.map((b: { id: string }) => b.id)).toContain("ISC-56");
    const noClass = await json([...base, "--class-question", "nosuch"], 1);
    expect(noClass.failed.map((b: { id: string }) => b.id)).toContain("ISC-53");
    expect(existsSync(join(dir, "promoted.json"))).toBe(false);
  });
});
