import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

// `engine train --l2-from FILE`: each question refitted at the L2 a weights file records.
const labels = fileURLToPath(new URL("../../datasets/ab-redial/labels.jsonl", import.meta.url));
const shipped = fileURLToPath(new URL("../../datasets/weights/embedded.json", import.meta.url));
const t = tempDir();
afterAll(() => t.cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir }, cwd: t.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata engine train --l2-from", () => {
  it("uses the recorded L2 of each question (the shipped detect.unhappy: 0.3) and records the items trained on", async () => {
    const r = await cli(["engine", "train", "--labels", labels, "--l2-from", shipped, "--max-features", "50", "--dry-run", "--json"]);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out) as { questions: Record<string, { l2: number }>; trained_on: { set: string; items: number; item_hashes: string[] }[] };
    expect(s.questions["detect.unhappy@1"]!.l2).toBe(0.3);
    expect(s.trained_on[0]).toMatchObject({ set: "ab-redial", items: 498 });
    expect(s.trained_on[0]!.item_hashes).toHaveLength(498);
    expect([...s.trained_on[0]!.item_hashes].sort()).toEqual(s.trained_on[0]!.item_hashes);
  });

  it("refuses --l2 N beside it, and a file that is not weights (exit 2)", async () => {
    const both = await cli(["engine", "train", "--labels", labels, "--l2", "1", "--l2-from", shipped, "--dry-run"]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--l2 and --l2-from exclude each other/);
    writeFileSync(join(t.dir, "not.json"), "{}");
    const bad = await cli(["engine", "train", "--labels", labels, "--l2-from", "not.json", "--dry-run"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--l2-from is not a readable weights file/);
  });
});
