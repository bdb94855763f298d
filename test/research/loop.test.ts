import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { AnswerSchema } from "../../schemas/answer.js";
import { CutsCandidateSchema } from "../../schemas/calibration.js";
import { ClassTierLevelSchema } from "../../schemas/classtier.js";
import { CombinerSchema } from "../../schemas/combiner.js";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { GoldItemSchema, GoldManifestSchema } from "../../schemas/gold.js";
import { LabelSchema } from "../../schemas/label.js";
import { PredictionSchema } from "../../schemas/prediction.js";
import { PromotedSchema } from "../../schemas/promoted.js";
import { tempDir } from "../helpers/io.js";

/**
 * scripts/research.js end to end on a small subset of the bundled data (the first 40
 * AB-ReDial dialogues and 40 synthetic sessions of the bundled seed-7 set; half of them train
 * the engine, the other half run the loop with a gold set of at most 48 per corpus),
 * through the compiled CLI, then every artefact read back with its own schema.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DETECTORS = ["regex", "v3", "v4", "combiner", "classtier"];
const LABELERS = ["rater1", "rater2", "rater3"];

interface BarJson { id: string; pass: boolean }
interface ScoreJson { detectors: { name: string; scored: number }[]; check: { pass: boolean; bars: BarJson[] } }
interface Track {
  detectors: string[];
  combiner: { skipped?: string };
  labels: Record<string, { imported: number; answers: number; rows: number }>;
  sample: { items: number; overlap: number };
  score: { exitCode: number; value: ScoreJson };
  promote: { exitCode: number; matchesCheck: boolean };
  files: { exchanges: string; gold: string; labels: string; predictions: string[]; cuts: string; combiner: string | null; classtierLevel: string; brief: string; promoted: string; ledger: string; returned: string };
}
interface Summary {
  meta: { command: string; seed: number; date: string };
  tracks: Record<string, Track>;
}
const TRACKS = ["ab-redial", "synthetic"];

function readJsonl<T>(file: string, schema: z.ZodType<T>): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      const p = schema.safeParse(JSON.parse(l));
      if (!p.success) throw new Error(`${file}:${i + 1}: ${p.error.message}`);
      return p.data;
    });
}

function runScript(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("ERRATA_")) delete env[k];
  // The raw AB-ReDial CSV (when present) adds a re-import check; the subset test does without it.
  env["ERRATA_SHARED_DATASETS"] = join(repoRoot, "no-shared-datasets-here");
  const r = spawnSync(process.execPath, [join(repoRoot, "scripts", "research.js"), ...args], { cwd: repoRoot, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("research loop (scripts/research.js) on a small subset", () => {
  const tmp = tempDir("errata-research-test-");
  afterAll(() => tmp.cleanup());
  const dir = join(tmp.dir, "loop");
  const docFile = join(tmp.dir, "research-loop.md");
  let run: { status: number | null; stdout: string; stderr: string };
  let S: Summary;

  beforeAll(() => {
    if (!existsSync(join(repoRoot, "dist", "cli", "main.js"))) execFileSync("npx", ["tsc", "-p", "tsconfig.json"], { cwd: repoRoot, stdio: "inherit" });
    run = runScript(["--dir", dir, "--seed", "3", "--sessions", "40", "--synthetic-sessions", "60", "--items", "48", "--failure-items", "16", "--monte-carlo", "200", "--doc", docFile]);
    if (run.status === 0) S = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;
  }, 180_000);

  it("runs every step and exits 0 (a refused promotion is an outcome, not an error)", () => {
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    expect(run.stdout).toContain("corpus -> exchanges");
    for (const name of TRACKS) {
      for (const step of ["v4 pass", "eval sample", "eval brief", "eval label export / import", "eval agreement", "calibrate cuts", "combiner fit", "classtier ask + eval --write", "eval score --check", "promote"]) {
        expect(run.stdout).toContain(`${name}: ${step}`);
      }
    }
    expect(S.meta.seed).toBe(3);
  });

  it("writes every artefact of each track, and each parses with its schema", () => {
    const doc = readFileSync(docFile, "utf8");
    expect(doc).toContain(S.meta.command);
    expect(doc).toContain("Seed 3");
    for (const name of TRACKS) {
      const f = S.tracks[name]!.files;
      const exchanges = readJsonl(f.exchanges, ExchangeSchema);
      expect(new Set(exchanges.map((e) => e.corpus))).toEqual(new Set([name]));
      expect(readJsonl(join(f.ledger, "v4", "answers.jsonl"), AnswerSchema).length).toBeGreaterThan(exchanges.length);
      const gold = readJsonl(f.gold, GoldItemSchema);
      expect(gold).toHaveLength(S.tracks[name]!.sample.items);
      expect(gold.length).toBeGreaterThanOrEqual(30);
      const manifest = GoldManifestSchema.parse(JSON.parse(readFileSync(join(f.ledger, "eval", "gold.json"), "utf8")));
      expect(manifest.seed).toBe(3);
      readJsonl(f.labels, LabelSchema);
      for (const p of f.predictions) expect(readJsonl(p, PredictionSchema).length).toBeGreaterThan(0);
      CutsCandidateSchema.parse(JSON.parse(readFileSync(f.cuts, "utf8")));
      if (f.combiner !== null) CombinerSchema.parse(JSON.parse(readFileSync(f.combiner, "utf8")));
      else expect(S.tracks[name]!.combiner.skipped).toContain("nothing to fit");
      ClassTierLevelSchema.parse(JSON.parse(readFileSync(f.classtierLevel, "utf8")));
      expect(readFileSync(f.brief, "utf8")).toContain("detect.unhappy");
      for (const b of S.tracks[name]!.score.value.check.bars) expect(doc).toContain(`| ${b.id} |`);
    }
    for (const name of TRACKS) for (const d of S.tracks[name]!.detectors) expect(doc).toMatch(new RegExp(`\\| ${d} \\| \\d+ \\|`));
  });

  it("keeps fit and holdout sessions disjoint, and the judge never trained on a holdout session", () => {
    const trainedOn = new Set(readJsonl(join(dir, "engine", "training-exchanges.jsonl"), ExchangeSchema).map((e) => e.session_id));
    expect(trainedOn.size).toBeGreaterThan(0);
    for (const name of TRACKS) {
      const gold = readJsonl(S.tracks[name]!.files.gold, GoldItemSchema);
      const fit = new Set(gold.filter((g) => g.split === "fit").map((g) => g.session_id));
      const holdout = new Set(gold.filter((g) => g.split === "holdout").map((g) => g.session_id));
      expect(fit.size).toBeGreaterThan(0);
      expect(holdout.size).toBeGreaterThan(0);
      expect([...fit].filter((s) => holdout.has(s))).toEqual([]);
      expect(S.tracks[name]!.sample.overlap).toBe(0);
      expect([...holdout].filter((s) => trainedOn.has(s))).toEqual([]);
    }
  });

  it("imports exactly the answers written into each returned sheet", () => {
    const skip = new Set(["labeler", "item", "exchange_id", "previous_ask", "reply_end", "tool_calls", "prompt", "note"]);
    for (const name of TRACKS) {
      const t = S.tracks[name]!;
      const labels = readJsonl(t.files.labels, LabelSchema);
      for (const l of LABELERS) {
        const rows = Papa.parse<Record<string, string>>(readFileSync(join(t.files.returned, `${l}.csv`), "utf8"), { header: true, skipEmptyLines: true }).data;
        expect(rows).toHaveLength(t.sample.items);
        const answers = rows.reduce((n, r) => n + Object.entries(r).filter(([k, v]) => !skip.has(k) && v !== "").length, 0);
        expect(answers).toBeGreaterThan(rows.length);
        expect(labels.filter((x) => x.labeler === l)).toHaveLength(answers);
        expect(t.labels[l]!.imported).toBe(answers);
      }
    }
  });

  it("scores every detector, and promote's exit code is the check's", () => {
    for (const name of TRACKS) {
      const t = S.tracks[name]!;
      // Every detector the loop wrote predictions for; the Combiner only where it could be fitted.
      expect(t.detectors).toEqual(DETECTORS.filter((d) => d !== "combiner" || t.combiner.skipped === undefined));
      expect(t.score.value.detectors.map((d) => d.name)).toEqual(t.detectors);
      for (const d of t.score.value.detectors) expect(d.scored).toBeGreaterThan(0);
      expect(t.score.exitCode).toBe(t.score.value.check.pass ? 0 : 1);
      expect(t.promote.exitCode).toBe(t.score.exitCode);
      expect(t.promote.matchesCheck).toBe(true);
      expect(existsSync(t.files.promoted)).toBe(t.score.exitCode === 0);
      if (t.score.exitCode === 0) PromotedSchema.parse(JSON.parse(readFileSync(t.files.promoted, "utf8")));
    }
    // On this subset the synthetic fit side is large enough for the Combiner.
    expect(S.tracks["synthetic"]!.detectors).toContain("combiner");
  });

  it("fails loudly on bad input: a corpus it cannot run on, a folder that is not fresh", () => {
    const bad = runScript(["--dir", join(tmp.dir, "bad"), "--corpora", "dbdc3", "--no-doc"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("the loop stopped: unknown corpus dbdc3");
    const used = join(tmp.dir, "used");
    mkdirSync(used);
    writeFileSync(join(used, "x"), "");
    const notFresh = runScript(["--dir", used, "--no-doc"]);
    expect(notFresh.status).toBe(2);
    expect(notFresh.stderr).toContain("is not empty");
  });
});
