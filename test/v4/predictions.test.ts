import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path, { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setV4EngineFactory } from "../../cli/shared/v4-pass.js";
import { run } from "../../cli/main.js";
import { CLASS_IDS } from "../../questions/index.js";
import { classify, unhappyWithReply } from "../../runtime/classifier/classify.js";
import { buildPredictions, parseDetectors } from "../../runtime/jobs/v4/index.js";
import { ExchangeSchema, type Exchange } from "../../schemas/exchange.js";
import { PredictionSchema, type Prediction } from "../../schemas/prediction.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { fakeEngine } from "./fake-engine.js";

// `errata eval predictions` on the bundled AB-ReDial exchanges, with answers a deterministic
// fake engine stored through `errata v4 detect|diagnose|v3 --regex-caught`.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const exchangesFile = join(repoRoot, "datasets/ab-redial/exchanges.jsonl");
const exchanges: Exchange[] = readFileSync(exchangesFile, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => ExchangeSchema.parse(JSON.parse(l)));
const regexHit = new Map(exchanges.map((e) => [e.id, unhappyWithReply(classify(e.prompt, { previousReply: e.reply_end }))]));
/** detect.unhappy is unscored for every 9th exchange: those must come out as null, never "no". */
const unscoredIds = new Set(exchanges.filter((_, i) => i % 9 === 4).map((e) => e.id));

let tmp: ReturnType<typeof tempDir>;
const v4Dir = () => join(tmp.dir, "v4");
async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: tmp.dir, HOME: tmp.dir }, cwd: tmp.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}
const readRows = (file: string): Prediction[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => PredictionSchema.parse(JSON.parse(l)));
const byDetector = (rows: Prediction[], d: string) => new Map(rows.filter((r) => r.detector === d).map((r) => [r.exchange_id, r]));

describe("errata eval predictions on AB-ReDial", () => {
  beforeAll(async () => {
    tmp = tempDir();
    // Unhappy on a hash-chosen third, unscored on unscoredIds; every other answer the fake's hash.
    const engine = fakeEngine((pair) => {
      if (pair.question.id !== "detect.unhappy") return null;
      if (unscoredIds.has(pair.exchange.id)) return Number.NaN;
      return pair.exchange.id.charCodeAt(5) % 3 === 0 ? 0.9 : 0.1;
    });
    setV4EngineFactory(async () => engine);
    mkdirSync(v4Dir(), { recursive: true });
    writeFileSync(join(tmp.dir, "cuts.json"), JSON.stringify({ cuts: { "detect.unhappy": 0.5 } }));
    for (const stage of ["detect", "diagnose"]) expect((await cli(["v4", stage, "--exchanges", exchangesFile, "--cuts", "cuts.json"])).code).toBe(0);
    const v3 = await cli(["v4", "v3", "--exchanges", exchangesFile, "--cuts", "cuts.json", "--regex-caught", "--json"]);
    expect(v3.code).toBe(0);
    // v3 is asked of the composed failures and of what the regex caught.
    const failures = exchanges.filter((e) => !unscoredIds.has(e.id) && e.id.charCodeAt(5) % 3 === 0);
    const eligible = new Set([...failures.map((e) => e.id), ...exchanges.filter((e) => regexHit.get(e.id)).map((e) => e.id)]);
    expect(JSON.parse(v3.out).eligible).toBe(eligible.size);
  });
  afterAll(() => {
    setV4EngineFactory(null);
    tmp.cleanup();
  });

  it("writes one row per exchange and detector; regex matches the capture classifier; unscored answers give null", async () => {
    const r = await cli(["eval", "predictions", "--exchanges", exchangesFile, "--cuts", "cuts.json", "--json"]);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out);
    const out = join(v4Dir(), "predictions.jsonl");
    expect(s).toMatchObject({ out, written: true, rows: exchanges.length * 3, detectors: ["regex", "v3", "v4"], judge: { lane: "replay", model: "fake-1" } });
    const rows = readRows(out);
    expect(rows).toHaveLength(exchanges.length * 3);
    expect(rows.slice(0, exchanges.length).every((p) => p.detector === "regex")).toBe(true);
    const regex = byDetector(rows, "regex");
    const v3 = byDetector(rows, "v3");
    const v4 = byDetector(rows, "v4");
    const flagged = [...regexHit.values()].filter(Boolean).length;
    expect(flagged).toBeGreaterThan(0);
    expect(s.counts.regex.flagged).toBe(flagged);
    for (const e of exchanges) {
      expect(regex.get(e.id)).toMatchObject({ detected: regexHit.get(e.id), class: null });
      const p4 = v4.get(e.id)!;
      if (unscoredIds.has(e.id)) expect(p4).toMatchObject({ detected: null, class: null, reason: "detect.unhappy unanswered or unscored" });
      else expect(p4.detected).toBe(e.id.charCodeAt(5) % 3 === 0);
      if (p4.detected === false) expect(p4.class).toBeNull();
      // v3 detects exactly what the regex caught and names a class only there.
      const p3 = v3.get(e.id)!;
      expect(p3.detected).toBe(regexHit.get(e.id));
      if (regexHit.get(e.id)) expect(CLASS_IDS as readonly string[]).toContain(p3.class);
      else expect(p3.class).toBeNull();
    }
    expect(s.counts.v4.unscored).toBe(unscoredIds.size);
    expect(s.counts.v3).toMatchObject({ detected: flagged, class_named: flagged, class_missing: 0 });
  });

  it("is deterministic: the same inputs write the same bytes", async () => {
    const a = join(tmp.dir, "a.jsonl");
    const b = join(tmp.dir, "b.jsonl");
    expect((await cli(["eval", "predictions", "--exchanges", exchangesFile, "--cuts", "cuts.json", "--detectors", "v4,regex", "--out", a])).code).toBe(0);
    expect((await cli(["eval", "predictions", "--exchanges", exchangesFile, "--cuts", "cuts.json", "--detectors", "v4,regex", "--out", b])).code).toBe(0);
    expect(readFileSync(a, "utf8")).toBe(readFileSync(b, "utf8"));
    const rows = readRows(a);
    expect(rows).toHaveLength(exchanges.length * 2);
    expect(rows[0]!.detector).toBe("v4");
  });

  it("without v3 answers for a caught exchange, v3 still detects it but names no class (with a reason)", () => {
    const caught = exchanges.filter((e) => regexHit.get(e.id));
    // No judge: nothing composes (what openJudgments gives a folder without answers).
    const judgments = { exchanges: caught, answers: [], judge: null, composed: () => caught.map((exchange) => ({ exchange, detect: null, composition: null, v3: null })) };
    const r = buildPredictions({ judgments, detectors: ["v3", "v4"] });
    expect(r.rows).toHaveLength(caught.length * 2);
    for (const p of r.rows) {
      expect(p.class).toBeNull();
      if (p.detector === "v3") expect(p).toMatchObject({ detected: true, reason: "class: a class.* answer is missing or unscored" });
      else expect(p.detected).toBeNull();
    }
  });

  it("--dry-run and bad input write nothing; bad input exits 2", async () => {
    const out = join(tmp.dir, "never.jsonl");
    const dry = await cli(["eval", "predictions", "--exchanges", exchangesFile, "--out", out, "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ written: false, rows: exchanges.length * 3 });
    for (const argv of [
      ["--detectors", "regex,v5"],
      ["--detectors", "regex,regex"],
      ["--detectors", ""],
      ["--cuts", "no-such-cuts.json"],
      ["--exchanges", join(tmp.dir, "no-such.jsonl")],
      ["--exchanges", join(tmp.dir, "cuts.json")],
    ]) {
      const r = await cli(["eval", "predictions", ...(argv[0] === "--exchanges" ? [] : ["--exchanges", exchangesFile]), ...argv, "--out", out]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(/errata: .*expected/);
    }
    expect(existsSync(out)).toBe(false);
  });

  it("--help shows an example", async () => {
    const r = await cli(["eval", "predictions", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Example:");
    expect(r.out).toContain("errata eval predictions");
  });

  it("parses --detectors strictly", () => {
    expect(parseDetectors("v4,regex")).toEqual(["v4", "regex"]);
    expect(parseDetectors("v4,,v3")).toEqual(["v4", "v3"]);
    expect(parseDetectors("v4,combiner")).toBeNull();
  });
});
