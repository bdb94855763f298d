import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mulberry32 } from "../../calibration/random.js";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";

/**
 * The `eval` flags no other test names, on data with a known truth: 200 exchanges in 50
 * sessions, 40% failures; three labellers copy the truth (detect.unhappy) and its class, and
 * label detect.correction as its opposite; v4 finds 90% of failures, v3 half, regex a third.
 */
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const cli = (argv: string[]) => cliIn(dir, argv);

const hex = (i: number) => `ex-${i.toString(16).padStart(16, "0")}`;

function writeData(): void {
  const r = mulberry32(5);
  const exchanges: string[] = [];
  const labels: string[] = [];
  const preds: string[] = [];
  const classes = ["fabrication", "off_topic", "wrong_language"];
  for (let i = 0; i < 200; i++) {
    const id = hex(i);
    const fail = r() < 0.4;
    const cls = classes[i % 3]!;
    exchanges.push(JSON.stringify({
      schema: "exchange/1", id, corpus: "synthetic", session_id: `s${i % 50}`, turn: Math.floor(i / 50), prompt: `p${i}`, prompt_ts: null,
      reply_end: `r${i}`, reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null,
    }));
    for (const who of ["a", "b", "c"]) {
      labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "detect.unhappy", value: fail, origin: "t" }));
      labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "detect.correction", value: !fail, origin: "t" }));
      if (fail) labels.push(JSON.stringify({ schema: "label/1", exchange_id: id, labeler: who, question: "class", value: cls, origin: "t" }));
    }
    const found = (share: number) => (fail ? r() < share : r() < 0.05);
    for (const [detector, share] of [["v4", 0.9], ["v3", 0.5], ["regex", 0.33]] as const) {
      const detected = found(share);
      preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: id, detector, detected, class: detected ? cls : null }));
    }
  }
  writeFileSync(join(dir, "exchanges.jsonl"), exchanges.join("\n") + "\n");
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
  writeFileSync(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
}

/** Draws every exchange (4 per session) into <dir>/gold, failures from the v4 rows. */
async function sampleAll(extra: string[] = []) {
  const r = await cli(["eval", "sample", "--exchanges", "exchanges.jsonl", "--failures", "preds.jsonl", "--items", "200", "--per-session", "4", "--failure-items", "20", "--out", "gold", "--json", ...extra]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as { corpus: { failure: number }; split: { fit: number; holdout: number }; split_salt: string; per_session: number };
}

const goldRows = (sub = "gold") =>
  readFileSync(join(dir, sub, "gold.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { exchange_id: string; session_id: string; split: string });

describe("errata eval sample", () => {
  it("--failure-detector picks which detector's rows in --failures give the strata", async () => {
    writeData();
    const detected = (d: string) => readFileSync(join(dir, "preds.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((p) => p.detector === d && p.detected).length;
    const v4 = await sampleAll();
    expect(v4.corpus.failure).toBe(detected("v4"));
    const regex = await sampleAll(["--failure-detector", "regex", "--force"]);
    expect(regex.corpus.failure).toBe(detected("regex"));
    expect(regex.corpus.failure).toBeLessThan(v4.corpus.failure);
    const none = await cli(["eval", "sample", "--exchanges", "exchanges.jsonl", "--failures", "preds.jsonl", "--failure-detector", "nosuch", "--out", "g2"]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no predictions of detector nosuch/);
  });

  it("--force replaces an existing gold set; without it the draw is refused", async () => {
    writeData();
    await sampleAll();
    const again = await cli(["eval", "sample", "--exchanges", "exchanges.jsonl", "--failures", "preds.jsonl", "--out", "gold"]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/a gold set already exists/);
    const before = readFileSync(join(dir, "gold", "gold.jsonl"), "utf8");
    const forced = await cli(["eval", "sample", "--exchanges", "exchanges.jsonl", "--failures", "preds.jsonl", "--items", "40", "--failure-items", "10", "--seed", "9", "--out", "gold", "--force"]);
    expect(forced.code, forced.err).toBe(0);
    expect(readFileSync(join(dir, "gold", "gold.jsonl"), "utf8")).not.toBe(before);
    expect(goldRows()).toHaveLength(40);
  });

  it("--per-session caps the items of one session; --split-salt moves sessions between fit and holdout", async () => {
    writeData();
    const capped = await cli(["eval", "sample", "--exchanges", "exchanges.jsonl", "--failures", "preds.jsonl", "--items", "100", "--per-session", "2", "--failure-items", "20", "--out", "capped", "--json"]);
    expect(capped.code, capped.err).toBe(0);
    const perSession = new Map<string, number>();
    for (const g of goldRows("capped")) perSession.set(g.session_id, (perSession.get(g.session_id) ?? 0) + 1);
    expect(Math.max(...perSession.values())).toBe(2);
    expect(perSession.size).toBe(50);
    const plain = await sampleAll();
    const sideOf = (rows: ReturnType<typeof goldRows>) => new Map(rows.map((g) => [g.session_id, g.split]));
    const a = sideOf(goldRows());
    const salted = await sampleAll(["--split-salt", "another-salt", "--force"]);
    expect(plain.split_salt).toBe("errata-split/1");
    expect(salted.split_salt).toBe("another-salt");
    const b = sideOf(goldRows());
    const moved = [...a].filter(([s, side]) => b.get(s) !== side).length;
    // An independent hash: about half the 50 sessions change sides.
    expect(moved).toBeGreaterThan(10);
    expect(moved).toBeLessThan(40);
  });
});

describe("errata eval label export --split and import --replace", () => {
  it("--split holdout exports only the holdout items", async () => {
    writeData();
    const m = await sampleAll();
    const sheet = async (side: string) => {
      const r = await cli(["eval", "label", "export", "--labeler", "ana", "--gold", "gold/gold.jsonl", "--exchanges", "exchanges.jsonl", "--split", side, "--dry-run", "--json"]);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { items: number }).items;
    };
    expect(await sheet("holdout")).toBe(m.split.holdout);
    expect(await sheet("fit")).toBe(m.split.fit);
    expect(await sheet("all")).toBe(200);
    const bad = await cli(["eval", "label", "export", "--labeler", "ana", "--gold", "gold/gold.jsonl", "--split", "test"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad --split/);
  });

  it("--replace replaces a labeller's earlier labels for the sheet's items; without it a second import is refused", async () => {
    writeData();
    await sampleAll();
    const sheet = (value: string) => writeFileSync(join(dir, "ana.csv"), `labeler,exchange_id,detect.unhappy\nana,${hex(0)},${value}\nana,${hex(1)},no\n`);
    const imp = (extra: string[]) => cli(["eval", "label", "import", "ana.csv", "--gold", "gold/gold.jsonl", "--labels", "mine.jsonl", "--json", ...extra]);
    sheet("yes");
    expect((await imp([])).code).toBe(0);
    sheet("no");
    const twice = await imp([]);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/labeller ana already has labels for items of this sheet/);
    const replaced = await imp(["--replace"]);
    expect(replaced.code, replaced.err).toBe(0);
    expect(JSON.parse(replaced.out)).toMatchObject({ imported: 2, replaced: 2 });
    const stored = readFileSync(join(dir, "mine.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { exchange_id: string; value: boolean });
    expect(stored.map((l) => [l.exchange_id, l.value])).toEqual([[hex(0), false], [hex(1), false]]);
  });
});

describe("errata eval label export -> import without repeating --questions", () => {
  it("a sheet with a rating, a category and bank questions re-imports as exported; a wrong answer is named by its spec", async () => {
    writeData();
    await sampleAll();
    const questions = "detect.unhappy,class,satisfaction:1-5,breakdown:O|T|X";
    const ex = await cli(["eval", "label", "export", "--labeler", "ana", "--gold", "gold/gold.jsonl", "--exchanges", "exchanges.jsonl", "--questions", questions, "--out", "ana.csv"]);
    expect(ex.code, ex.err).toBe(0);
    const [header, ...rows] = Papa.parse<string[]>(readFileSync(join(dir, "ana.csv"), "utf8"), { skipEmptyLines: true }).data;
    // Bank questions keep their id; the others carry their spec.
    expect(header!.slice(7)).toEqual(["detect.unhappy", "class", "satisfaction:1-5", "breakdown:O|T|X", "note"]);
    const fill = (bad: boolean) => Papa.unparse({ fields: header!, data: rows.map((r, i) => [...r.slice(0, 7), i % 2 ? "yes" : "no", "none", bad && i === 0 ? "9" : String((i % 5) + 1), ["O", "T", "X"][i % 3]!, ""]) }, { newline: "\n" });
    writeFileSync(join(dir, "ana.csv"), fill(true));
    const wrong = await cli(["eval", "label", "import", "ana.csv", "--gold", "gold/gold.jsonl", "--labels", "mine.jsonl"]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/row 2: satisfaction is "9"; expected a whole number from 1 to 5/);
    writeFileSync(join(dir, "ana.csv"), fill(false));
    const ok = await cli(["eval", "label", "import", "ana.csv", "--gold", "gold/gold.jsonl", "--labels", "mine.jsonl", "--json"]);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ labels: rows.length * 4, questions: ["detect.unhappy", "class", "satisfaction", "breakdown"] });
    const stored = readFileSync(join(dir, "mine.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { question: string; value: unknown });
    expect(new Set(stored.filter((l) => l.question === "satisfaction").map((l) => typeof l.value))).toEqual(new Set(["number"]));
    expect(new Set(stored.filter((l) => l.question === "breakdown").map((l) => l.value))).toEqual(new Set(["O", "T", "X"]));
  });
});

describe("errata eval agreement --level", () => {
  it("a lower interval level gives a narrower interval around the same figure", async () => {
    const labels = fileURLToPath(new URL("../../datasets/ab-redial/labels.jsonl", import.meta.url));
    const fleiss = async (extra: string[]) => {
      const r = await cli(["eval", "agreement", "--labels", labels, "--labelers", "ab-redial:r1,ab-redial:r2,ab-redial:r3", "--questions", "detect.unhappy", "--resamples", "500", "--json", ...extra]);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { questions: { fleiss_fixed: { value: number; lower: number; upper: number } }[] }).questions[0]!.fleiss_fixed;
    };
    const wide = await fleiss([]);
    const narrow = await fleiss(["--level", "0.5"]);
    // The datasets README's reference figure: Fleiss 0.3449, first 3 raters.
    expect(wide.value).toBeCloseTo(0.3449, 3);
    expect(narrow.value).toBe(wide.value);
    expect(narrow.upper - narrow.lower).toBeLessThan((wide.upper - wide.lower) * 0.6);
    expect((await cli(["eval", "agreement", "--labels", labels, "--level", "0.2"])).code).toBe(2);
  });
});

describe("errata eval score: --split, --detect-question, --class-question, --level, --ppi-detector, --ppi-level", () => {
  type Fig = { point: number | null; lower: number | null; upper: number | null };
  type Report = { items: number; split: string; detectors: { name: string; figures: Record<string, Fig> }[]; ppi: { detector: string; lower: number; upper: number } | null; labellers: { class: unknown } };
  const score = async (extra: string[]): Promise<Report> => {
    const r = await cli(["eval", "score", "--predictions", "preds.jsonl", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--json", ...extra]);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as Report;
  };
  const fig = (r: Report, d: string, m: string) => r.detectors.find((x) => x.name === d)!.figures[m]!;

  it("scores the split asked for", async () => {
    writeData();
    const m = await sampleAll();
    expect((await score([])).items).toBe(m.split.holdout);
    expect((await score(["--split", "fit"])).items).toBe(m.split.fit);
    expect((await score(["--split", "all"])).items).toBe(200);
    expect((await cli(["eval", "score", "--predictions", "preds.jsonl", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--split", "test"])).code).toBe(2);
  });

  it("--detect-question and --class-question name the label questions the majority is read from", async () => {
    writeData();
    await sampleAll();
    const plain = await score(["--split", "all"]);
    expect(fig(plain, "v4", "recall").point).toBeGreaterThan(0.8);
    // detect.correction is labelled as the opposite of the truth: v4's recall collapses.
    const inverted = await score(["--split", "all", "--detect-question", "detect.correction"]);
    expect(fig(inverted, "v4", "recall").point).toBeLessThan(0.1);
    expect(fig(plain, "v4", "class_accuracy").point).toBe(1);
    expect(plain.labellers.class).not.toBeNull();
    const noClass = await score(["--split", "all", "--class-question", "nosuch"]);
    expect(fig(noClass, "v4", "class_accuracy").point).toBeNull();
    expect(noClass.labellers.class).toBeNull();
  });

  it("--level narrows the detectors' intervals; --ppi-detector and --ppi-level set the corpus failure rate's", async () => {
    writeData();
    await sampleAll();
    const width = (f: { lower: number | null; upper: number | null }) => (f.upper as number) - (f.lower as number);
    const plain = await score(["--split", "all"]);
    const narrow = await score(["--split", "all", "--level", "0.5"]);
    expect(fig(narrow, "v4", "f1").point).toBe(fig(plain, "v4", "f1").point);
    expect(width(fig(narrow, "v4", "f1"))).toBeLessThan(width(fig(plain, "v4", "f1")));
    expect(plain.ppi?.detector).toBe("v4");
    const v3 = await score(["--split", "all", "--ppi-detector", "v3"]);
    expect(v3.ppi?.detector).toBe("v3");
    const ppiNarrow = await score(["--split", "all", "--ppi-level", "0.5"]);
    expect(width(ppiNarrow.ppi!)).toBeLessThan(width(plain.ppi!));
  });

  it("--ppi-method: auto is clustered where labelled items share sessions and says so; plain, stratified; a bad method exits 2", async () => {
    writeData();
    await sampleAll();
    type P = { method: string; asked: string; why: string; estimate: number; lower: number; upper: number; labelled_sessions: number | null; unlabelled_without_session: number; lambda: unknown };
    const ppiOf = async (extra: string[]) => (await score(["--split", "all", ...extra])).ppi as unknown as P;
    const auto = await ppiOf([]);
    expect(auto).toMatchObject({ method: "clustered", asked: "auto", labelled_sessions: 50 });
    expect(auto.why).toMatch(/share sessions \(50 sessions for 200 items\)/);
    // Every predicted item is a gold item here, so every session is known.
    expect(auto.unlabelled_without_session).toBe(0);
    const plain = await ppiOf(["--ppi-method", "plain"]);
    expect(plain).toMatchObject({ method: "plain", asked: "plain", labelled_sessions: null });
    // With lambda 0 both would be the Hajek share of gold failures; tuned, both stay near it.
    expect(Math.abs(auto.estimate - plain.estimate)).toBeLessThan(0.01);
    const strat = await ppiOf(["--ppi-method", "stratified"]);
    expect(strat.method).toBe("stratified");
    expect(Object.keys(strat.lambda as object).sort()).toEqual(["detected", "not detected"]);
    const text = await cli(["eval", "score", "--predictions", "preds.jsonl", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--split", "all"]);
    expect(text.out).toMatch(/corpus failure rate \(clustered PPI\+\+ with v4, 90% interval/);
    expect(text.out).toMatch(/method: clustered \(auto: labelled items share sessions/);
    const bad = await cli(["eval", "score", "--predictions", "preds.jsonl", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--ppi-method", "bayes"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/auto, plain, clustered or stratified/);
  });
});
