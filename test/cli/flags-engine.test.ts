import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/**
 * `engine train --max-features | --include-holdout` and `engine eval --cv` on the bundled
 * AB-ReDial set (600 exchanges, 200 dialogues; 102 of them in the 20% holdout sessions).
 */
const labels = fileURLToPath(new URL("../../datasets/ab-redial/labels.jsonl", import.meta.url));
const t = tempDir();
afterAll(() => t.cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir }, cwd: t.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

interface TrainSummary {
  written: boolean;
  questions: Record<string, { n: number; non_zero: number; l2: number }>;
}

/**
 * One `engine train --dry-run` per distinct set of flags in this file: training is
 * deterministic and a dry run writes nothing, so the two tests that train with
 * `--max-features 50` read one run (about a third of the file's CPU each).
 */
const trained = new Map<string, Promise<TrainSummary["questions"][string]>>();
function train(extra: string[]): Promise<TrainSummary["questions"][string]> {
  const key = extra.join("\u0000");
  let r = trained.get(key);
  if (r === undefined) trained.set(key, (r = trainOnce(extra)));
  return r;
}

async function trainOnce(extra: string[]): Promise<TrainSummary["questions"][string]> {
  const r = await cli(["engine", "train", "--labels", labels, "--l2", "1", "--dry-run", "--json", ...extra]);
  expect(r.code, r.err).toBe(0);
  const s = JSON.parse(r.out) as TrainSummary;
  expect(s.written).toBe(false);
  return s.questions["detect.unhappy@1"]!;
}

describe("errata engine train", () => {
  it("--max-features keeps at most that many non-zero weights (refitted on the top ones)", async () => {
    const full = await train([]);
    const small = await train(["--max-features", "50"]);
    expect(full.non_zero).toBeGreaterThan(50);
    expect(small.non_zero).toBe(50);
    expect(small.n).toBe(full.n);
    const zero = await cli(["engine", "train", "--labels", labels, "--max-features", "0", "--dry-run"]);
    expect(zero.code).toBe(2);
    expect(zero.err).toMatch(/--max-features must be at least 1/);
  });

  it("--include-holdout trains on the holdout sessions too: every item instead of the training side", async () => {
    const honest = await train(["--max-features", "50"]);
    const all = await train(["--max-features", "50", "--include-holdout"]);
    expect(honest.n).toBe(498);
    expect(all.n).toBe(600);
  });
});

describe("errata engine eval --cv", () => {
  it("adds 5 session-grouped folds over every item of each set beside the holdout row", async () => {
    type Row = { set: string; question: string; split: string; items: number; auc: number | null };
    const plain = await cli(["engine", "eval", "--labels", labels, "--json"]);
    expect(plain.code, plain.err).toBe(0);
    const rows = (JSON.parse(plain.out) as { rows: Row[] }).rows;
    expect(rows.map((r) => r.split)).toEqual(["holdout"]);
    const cv = await cli(["engine", "eval", "--labels", labels, "--cv", "--json"]);
    expect(cv.code, cv.err).toBe(0);
    const cvRows = (JSON.parse(cv.out) as { rows: Row[] }).rows;
    expect(cvRows.map((r) => [r.split, r.items])).toEqual([
      ["holdout", 102],
      ["cv", 600],
    ]);
    expect(cvRows[0]).toEqual(rows[0]);
    // Out-of-fold AUC of a real signal: well above chance, below perfect.
    expect(cvRows[1]!.auc).toBeGreaterThan(0.65);
    expect(cvRows[1]!.auc).toBeLessThan(0.95);
  });
});
