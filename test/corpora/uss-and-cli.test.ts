import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { countFirstThreeUnhappy, importUss, ussCorpusName } from "../../runtime/corpora/importers/uss.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { fleissKappa, hasShared, readRows, shared, valuesByItem } from "./helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function tmp(): string {
  const t = tempDir("errata-import-");
  cleanups.push(t.cleanup);
  return t.dir;
}

// A hand-made file in the USS layout (not USS data): two dialogues, consecutive USER lines.
const SAMPLE = [
  "",
  "USER\tFind me a flight to Oslo.\tINFORM_INTENT\t3,3,3",
  "SYSTEM\tWhen do you leave?\tREQUEST\t",
  "USER\tTomorrow.\tINFORM\t3,2,3",
  "USER\tIn the morning.\tINFORM\t2,2,1",
  "SYSTEM\tI found none.\tNOTIFY_FAILURE\t",
  "USER\tThat is useless.\tINFORM\t1,2,2,1",
  "USER\tOVERALL\t\t2,2,3",
  "",
  "USER\tPlay some jazz.\tINFORM_INTENT\t4,4,5",
  "SYSTEM\tPlaying jazz.\tNOTIFY_SUCCESS\t",
  "USER\tOVERALL\t\t5,4,5",
  "",
].join("\n");

describe("USS layout", () => {
  it("one exchange per user turn, judged against the latest system line", () => {
    const r = importUss(SAMPLE, "uss-sample", "sample.txt");
    expect(r.stats).toMatchObject({ dialogues: 2, exchanges: 5, overallRows: 2, maxRaters: 4, twoOfFirstThreeUnhappy: 2 });
    expect(r.exchanges.map((e) => [e.session_id, e.turn, e.prompt, e.reply_end, e.previous_ask])).toEqual([
      ["uss-sample-1", 0, "Find me a flight to Oslo.", null, null],
      ["uss-sample-1", 1, "Tomorrow.", "When do you leave?", "Find me a flight to Oslo."],
      ["uss-sample-1", 2, "In the morning.", "When do you leave?", "Find me a flight to Oslo."],
      ["uss-sample-1", 3, "That is useless.", "I found none.", "In the morning."],
      ["uss-sample-2", 0, "Play some jazz.", null, null],
    ]);
    expect(r.exchanges[3]?.source_ref).toBe("sample.txt:7");
    const unhappy = valuesByItem(r.labels, "detect.unhappy");
    expect(unhappy.get(r.exchanges[3]?.id ?? "")).toEqual([true, true, true, true]);
    expect(ussCorpusName("/x/SGD.txt")).toBe("uss-sgd");
  });
});

describe.each([
  ["SGD.txt", 1000, 12833, 647, 0.2501, { 0: 10612, 1: 1574, 2: 506, 3: 141 }],
  ["MWOZ.txt", 1000, 11553, 587, 0.1705, { 0: 8944, 1: 2022, 2: 466, 3: 121 }],
])("USS %s (local only, never bundled)", (file, dialogues, turns, positives, kappa, votes) => {
  it.skipIf(!hasShared("uss", file))(`${dialogues} dialogues, ${turns} user turns, ${positives} with 2 of the first 3 ratings <= 2`, () => {
    const r = importUss(readFileSync(shared("uss", file), "utf8"), ussCorpusName(file), file);
    expect(r.stats).toMatchObject({ dialogues, exchanges: turns, overallRows: dialogues, badLines: 0 });
    expect(countFirstThreeUnhappy(r.labels)).toBe(positives);
    const first3 = [...valuesByItem(r.labels, "detect.unhappy").values()].map((v) => v.slice(0, 3));
    const k: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
    for (const v of first3) k[v.filter(Boolean).length] = (k[v.filter(Boolean).length] ?? 0) + 1;
    expect(k).toEqual(votes);
    expect(fleissKappa(first3)).toBeCloseTo(kappa, 4);
  });
});

describe("errata import (CLI)", () => {
  it("writes exchanges.jsonl and labels.jsonl; --json prints one value; --dry-run writes nothing", async () => {
    const dir = tmp();
    const src = join(dir, "dialogs.txt");
    writeFileSync(src, SAMPLE);
    const dry = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") } });
    expect(await run(["import", "uss", src, "--out", join(dir, "out"), "--dry-run", "--json"], dry.io)).toBe(0);
    expect(JSON.parse(dry.out())).toMatchObject({ corpus: "uss-dialogs", exchanges: 5, dry_run: true, out: null });
    expect(existsSync(join(dir, "out"))).toBe(false);
    const io = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") } });
    expect(await run(["import", "uss", src, "--out", join(dir, "out")], io.io)).toBe(0);
    expect(readRows(join(dir, "out", "exchanges.jsonl"))).toHaveLength(5);
    expect(readRows(join(dir, "out", "labels.jsonl"))).toHaveLength(2 * (3 + 3 + 3 + 4 + 3));
    const again = readFileSync(join(dir, "out", "labels.jsonl"));
    expect(await run(["import", "uss", src, "--out", join(dir, "out")], memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") } }).io)).toBe(0);
    expect(readFileSync(join(dir, "out", "labels.jsonl")).equals(again)).toBe(true);
  });

  it("bad input exits 2 and writes nothing", async () => {
    const dir = tmp();
    const cases: string[][] = [
      ["import", "nosuch", join(dir, "x")],
      ["import", "uss"],
      ["import", "uss", join(dir, "missing.txt"), "--out", join(dir, "out")],
      ["import", "ab-redial", join(dir, "empty.csv"), "--out", join(dir, "out")],
      ["import", "dbdc3", join(dir, "empty.csv"), "--out", join(dir, "out")],
      ["import", "synthetic", "--sessions", "0", "--out", join(dir, "out")],
    ];
    writeFileSync(join(dir, "empty.csv"), "a,b\n1,2\n");
    for (const argv of cases) {
      const io = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger") } });
      expect(await run(argv, io.io), argv.join(" ")).toBe(2);
      expect(io.out()).toBe("");
    }
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
