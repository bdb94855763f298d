import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { backfillId } from "../../runtime/jobs/backfill/backfill.js";
import { ErratumSchema } from "../../schemas/erratum.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { ledgerLines } from "../hooks/hook-helpers.js";

let tmp: { dir: string; cleanup: () => void };
let ledger: string;
let ratings: string;
let failures: string;
let upgrades: string;

beforeEach(() => {
  tmp = tempDir("errata-backfill-");
  ledger = join(tmp.dir, "ledger");
  ratings = join(tmp.dir, "ratings.jsonl");
  writeFileSync(
    ratings,
    [
      { ts: "2026-09-01T10:00:00Z", rating: 3, session_id: "s1", comment: "you broke the build again", source: "explicit" },
      { timestamp: "2026-09-02T10:00:00Z", rating: "5" },
      { ts: "2026-09-03T10:00:00Z", rating: 9, comment: "great" },
      { ts: "2026-09-04T10:00:00Z", rating: 2, source: "implicit", comment: "inferred from tone" },
      { ts: "2026-09-05T10:00:00Z", rating: 14 },
    ]
      .map((o) => JSON.stringify(o))
      .concat(["{broken"])
      .join("\n"),
  );
  failures = join(tmp.dir, "FAILURES");
  for (const [name, body] of [
    ["2026-09-01-wrong-branch", { timestamp: "2026-09-01T11:00:00Z", rating: 3, user_message: "no, you pushed to main", session_id: "s2" }],
    ["2026-09-02-summary-only", { timestamp: "2026-09-02T11:00:00Z", rating: 3, summary: "user seemed annoyed" }],
  ] as const) {
    mkdirSync(join(failures, name), { recursive: true });
    writeFileSync(join(failures, name, "sentiment.json"), JSON.stringify(body));
  }
  mkdirSync(join(failures, "no-file"));
  upgrades = join(tmp.dir, "upgrades.jsonl");
  writeFileSync(
    upgrades,
    [
      { id: "up-0007", ts: "2026-09-03T12:00:00Z", source: "correction", claim: "Always sign commits", evidence: { quote: "never commit without signing", session_id: "s3" } },
      { id: "up-0008", ts: "2026-09-03T12:00:00Z", source: "errata", claim: "cluster of wrong-file edits" },
    ]
      .map((o) => JSON.stringify(o))
      .join("\n"),
  );
});
afterEach(() => tmp.cleanup());

async function backfill(...args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: ledger, USER: "ann" } });
  const code = await run(["backfill", ...args, "--json"], m.io);
  return { code, summary: code === 0 ? (JSON.parse(m.out()) as { read: number; written: number; already: number; skipped: Array<{ ref: string; reason: string }> }) : null, err: m.err() };
}

describe("errata backfill", () => {
  it("imports low ratings, FAILURES with words (no fabricated rating) and correction upgrades; every row valid", async () => {
    const r = await backfill("--ratings", ratings, "--failures", failures, "--upgrades", upgrades);
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ read: 4, written: 4, already: 0 });
    expect(r.summary?.skipped.map((s) => s.reason)).toEqual([
      "not a low rating (7 or more)",
      "rating was implicit, not given by a person",
      "no rating from 1 to 10",
      "not a JSON object",
      "no verbatim words (user_message, message or prompt)",
      "no sentiment.json",
    ]);
    const rows = ledgerLines(ledger).map((l) => ErratumSchema.parse(l));
    const byWords = new Map(rows.map((e) => [e.complaint, e]));
    expect(byWords.get("you broke the build again")).toMatchObject({ kind: "complaint", rating: 3, source: "owner", channel: "backfill", ts: "2026-09-01T10:00:00.000Z" });
    expect(byWords.get("5/10")).toMatchObject({ kind: "complaint", rating: 5 });
    expect(byWords.get("no, you pushed to main")).toMatchObject({ kind: "correction", rating: null, source: "backfill", links: { failure_dir: join(failures, "2026-09-01-wrong-branch") } });
    expect(byWords.get("never commit without signing")).toMatchObject({ kind: "correction", source: "backfill", links: { upgrade_id: "up-0007" }, context: { session_id: "s3" } });
  });

  it("is idempotent: a re-run appends nothing", async () => {
    await backfill("--ratings", ratings, "--failures", failures, "--upgrades", upgrades);
    const again = await backfill("--ratings", ratings, "--failures", failures, "--upgrades", upgrades);
    expect(again.summary).toMatchObject({ read: 4, written: 0, already: 4 });
    expect(ledgerLines(ledger)).toHaveLength(4);
  });

  it("ids follow the source row, not the clock", () => {
    expect(backfillId("upgrades", "up-0007", "2026-09-03T12:00:00.000Z")).toBe(backfillId("upgrades", "up-0007", "2026-09-03T12:00:00.000Z"));
    expect(backfillId("upgrades", "up-0007", "2026-09-03T12:00:00.000Z")).toMatch(/^er-20260903-[0-9a-f]{6}$/);
    expect(backfillId("upgrades", "up-0007", "2026-09-03T12:00:00.000Z")).not.toBe(backfillId("failures", "up-0007", "2026-09-03T12:00:00.000Z"));
  });

  it("--dry-run reports and writes nothing", async () => {
    const r = await backfill("--ratings", ratings, "--dry-run");
    expect(r.summary).toMatchObject({ written: 2 });
    expect(existsSync(ledger)).toBe(false);
  });

  it("without --json: one line per skipped row on stderr and a summary on stdout", async () => {
    const m = memoryIo({ env: { ERRATA_DIR: ledger, USER: "ann" } });
    expect(await run(["backfill", "--upgrades", upgrades], m.io)).toBe(0);
    expect(m.out()).toBe("wrote 1 errata (0 already in the ledger, 0 rows skipped)\n");
    const again = memoryIo({ env: { ERRATA_DIR: ledger, USER: "ann" } });
    expect(await run(["backfill", "--upgrades", upgrades, "--failures", failures], again.io)).toBe(0);
    expect(again.out()).toBe("wrote 1 errata (1 already in the ledger, 2 rows skipped)\n");
    const one = memoryIo({ env: { ERRATA_DIR: ledger, USER: "ann" } });
    writeFileSync(ratings, JSON.stringify({ ts: "2026-09-05T10:00:00Z", rating: 14 }));
    expect(await run(["backfill", "--ratings", ratings], one.io)).toBe(0);
    expect(one.err()).toMatch(/^errata backfill: skipped ratings\.jsonl:1: no rating from 1 to 10\n/);
    expect(one.out()).toBe("wrote 0 errata (0 already in the ledger, 1 row skipped)\n");
  });

  it("bad input: exit 2, nothing written", async () => {
    expect((await backfill()).code).toBe(2);
    expect((await backfill("--ratings", join(tmp.dir, "missing.jsonl"))).code).toBe(2);
    expect((await backfill("--failures", ratings)).code).toBe(2);
    expect(existsSync(ledger)).toBe(false);
  });
});
