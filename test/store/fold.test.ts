import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applySet } from "../../runtime/store/fold.js";
import { openLedger, newErratum, type Ledger } from "../../runtime/store/index.js";
import type { ErrataPaths } from "../../runtime/paths.js";
import type { Enrichment, Erratum, PatchSet } from "../../schemas/erratum.js";
import { NEXT_STATUSES, type Status } from "../../schemas/erratum-constants.js";
import { tempDir } from "../helpers/io.js";
import { enrichmentArb, erratumArb, linksArb } from "./arbitraries.js";
import { assertAllRecordsUnder, assertRecordHasNoText } from "./record-guard.js";

const SYSTEMS = new Set(["assistant", "other", "billing-bot"]);
let t: { dir: string; cleanup: () => void };
let n = 0;
let warnings: string[] = [];
beforeEach(() => {
  t = tempDir("errata-fold-");
  warnings = [];
});
afterEach(() => {
  assertAllRecordsUnder(t.dir);
  t.cleanup();
});

function freshPaths(): ErrataPaths {
  const ledgerDir = join(t.dir, `l${n++}`);
  return { ledgerDir, stateDir: join(ledgerDir, ".state"), v4Dir: join(ledgerDir, "v4"), attachmentsDir: join(ledgerDir, ".att"), isDefaultLedger: false };
}
function ledgerAt(paths: ErrataPaths): Ledger {
  return openLedger(paths, { systems: SYSTEMS, warn: (l) => warnings.push(l), now: () => Date.parse("2026-11-30T12:00:00Z") });
}
const reporter = { id: "rp-0123456789abcdef", role: "owner" };
const enrichment: Enrichment = {
  schema: "enrichment/1",
  how_upset: 2,
  which_part: "the push",
  what_upset: "pushed to main without asking",
  reporter_right: true,
  reporter_right_reason: "the rule says ask first",
  root_cause_hypothesis: "ignored a standing rule",
  class: "ignored-instruction",
  proposed_fix: "gate pushes",
  confidence: 0.8,
  model: "gpt-5-mini",
  enrichment_version: "enrich/1",
};

describe("store round trip", () => {
  it("every appended erratum reads back equal (through the disk)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(erratumArb, { minLength: 1, maxLength: 15, selector: (e) => e.id }), (errata) => {
        const paths = freshPaths();
        const ledger = ledgerAt(paths);
        const written = errata.map((e) => ledger.append(e).erratum);
        const read = ledger.readAll();
        expect(read.problems).toEqual([]);
        const sorted = (xs: Erratum[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
        expect(sorted(read.errata.map((f) => f.erratum))).toEqual(sorted(written));
        assertRecordHasNoText(join(paths.stateDir, "record.jsonl"), paths.ledgerDir);
        rmSync(paths.ledgerDir, { recursive: true });
      }),
      { numRuns: 40 },
    );
  });
  it("archived months read as live", async () => {
    const paths = freshPaths();
    const ledger = ledgerAt(paths);
    const a = ledger.append(newErratum({ nowMs: 0, ts: "2026-08-03T10:00:00.000Z", complaint: "old one", reporter })).erratum;
    const b = ledger.append(newErratum({ nowMs: 0, ts: "2026-11-03T10:00:00.000Z", complaint: "new one", reporter })).erratum;
    ledger.patch(a.id, { status: "enriched", enrichment });
    const before = ledger.readAll().errata.map((f) => f.erratum);
    const { rotateLedger } = await import("../../runtime/store/rotate.js");
    rotateLedger(paths.ledgerDir, { before: "2026-11", currentMonth: "2026-11" });
    const after = ledger.readAll();
    expect(after.problems).toEqual([]);
    expect(after.errata.map((f) => f.erratum)).toEqual(before);
    expect(after.errata.find((f) => f.erratum.id === a.id)?.file).toBe("archive/errata-2026-08.jsonl.gz");
    expect(b.status).toBe("new");
  });
});

/** A legal lifecycle walk from "new", with the extra fields each step may set. */
const walkArb = fc
  .array(fc.nat(), { maxLength: 5 })
  .chain((picks) => {
    const statuses: Status[] = [];
    let cur: Status = "new";
    for (const p of picks) {
      const next: readonly Status[] = [cur, ...NEXT_STATUSES[cur]];
      cur = next[p % next.length]!;
      statuses.push(cur);
    }
    return fc.tuple(
      ...statuses.map((status) =>
        fc.record(
          {
            status: fc.constant(status),
            enrichment: status === "enriched" ? enrichmentArb : fc.option(enrichmentArb, { nil: null }),
            links: linksArb,
            frustration: fc.option(fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, { nil: null }),
          },
          { requiredKeys: ["status"] },
        ),
      ),
    );
  })
  .map((sets) => sets as PatchSet[]);

describe("folding patches", () => {
  it("any interleaving of lifecycle-legal patch sequences, across months, folds to each erratum's own sequence", () => {
    fc.assert(
      fc.property(
        fc.array(walkArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 40 }),
        (walks, order, gapsDays) => {
          const paths = freshPaths();
          const ledger = ledgerAt(paths);
          const errata = walks.map((_, i) =>
            ledger.append(newErratum({ nowMs: 0, ts: `2026-0${1 + i}-15T10:00:00.000Z`, complaint: `complaint ${i}`, reporter })).erratum,
          );
          // Interleave: at each step pick an erratum that still has patches (per-id order kept).
          const next = walks.map(() => 0);
          const clock = walks.map((_, i) => Date.parse(`2026-0${1 + i}-15T10:00:00.000Z`));
          let k = 0;
          for (;;) {
            const open = walks.map((w, i) => (next[i]! < w.length ? i : -1)).filter((i) => i >= 0);
            if (open.length === 0) break;
            const i = open[(order[k] ?? 0) % open.length]!;
            clock[i] = clock[i]! + (1 + (gapsDays[k] ?? 1)) * 86_400_000; // may cross months
            k += 1;
            ledger.patch(errata[i]!.id, walks[i]![next[i]!]!, { ts: new Date(clock[i]!).toISOString() });
            next[i] = next[i]! + 1;
          }
          const read = ledger.readAll();
          expect(read.problems).toEqual([]);
          for (const [i, e] of errata.entries()) {
            const expected = walks[i]!.reduce(applySet, e);
            const got = read.errata.find((f) => f.erratum.id === e.id)!;
            expect(got.erratum).toEqual(expected);
            expect(got.patches).toHaveLength(walks[i]!.length);
          }
          assertRecordHasNoText(join(paths.stateDir, "record.jsonl"), paths.ledgerDir);
          rmSync(paths.ledgerDir, { recursive: true });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("patches that set different fields commute", () => {
    fc.assert(
      fc.property(erratumArb, linksArb, fc.option(fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, { nil: null }), (e, links, frustration) => {
        const a: PatchSet = { links };
        const b: PatchSet = { frustration };
        expect(applySet(applySet(e, a), b)).toEqual(applySet(applySet(e, b), a));
      }),
    );
  });

  it("an illegal transition is refused at write, and skipped with file and line at read", () => {
    const paths = freshPaths();
    const ledger = ledgerAt(paths);
    const e = ledger.append(newErratum({ nowMs: Date.parse("2026-11-30T12:00:00Z"), complaint: "x", reporter })).erratum;
    expect(() => ledger.patch(e.id, { status: "fixed" })).toThrow(/illegal status transition.*expected new -> enriched; found new -> fixed/);
    // Written by something that bypassed the check:
    appendFileSync(join(paths.ledgerDir, "errata-2026-11.jsonl"), `${JSON.stringify({ schema: "erratum-patch/1", id: e.id, ts: "2026-11-30T13:00:00.000Z", set: { status: "fixed" } })}\n`);
    const read = ledger.readAll();
    expect(read.errata[0]!.erratum.status).toBe("new");
    expect(read.problems).toMatchObject([{ file: "errata-2026-11.jsonl", line: 2, code: "illegal-transition" }]);
  });

  it("patch refusals write nothing", () => {
    const paths = freshPaths();
    const ledger = ledgerAt(paths);
    const e = ledger.append(newErratum({ nowMs: Date.parse("2026-11-30T12:00:00Z"), complaint: "x", reporter })).erratum;
    const before = readFileSync(join(paths.ledgerDir, "errata-2026-11.jsonl"), "utf8");
    expect(() => ledger.patch(e.id, { status: "enriched", enrichment: { ...enrichment, model: "" } })).toThrow(/enrichment-without-model/);
    expect(() => ledger.patch("er-20261130-ffffff", { status: "enriched" })).toThrow(/no erratum/);
    expect(() => ledger.patch(e.id, { system: "unknown-bot" })).toThrow(/unknown-system/);
    expect(readFileSync(join(paths.ledgerDir, "errata-2026-11.jsonl"), "utf8")).toBe(before);
  });
});

describe("damaged files", () => {
  function threeLines(paths: ErrataPaths): Erratum[] {
    const ledger = ledgerAt(paths);
    return [1, 2, 3].map((i) => ledger.append(newErratum({ nowMs: Date.parse(`2026-11-0${i}T12:00:00Z`), complaint: `c${i}`, reporter })).erratum);
  }
  it("a torn trailing line is skipped with a warning, never fatal; the next append starts a fresh line", () => {
    const paths = freshPaths();
    const written = threeLines(paths);
    const file = join(paths.ledgerDir, "errata-2026-11.jsonl");
    appendFileSync(file, '{"schema":"erratum/1","id":"er-20261104-abc');
    const ledger = ledgerAt(paths);
    const read = ledger.readAll();
    expect(read.errata.map((f) => f.erratum.id)).toEqual(written.map((e) => e.id));
    expect(read.problems).toMatchObject([{ file: "errata-2026-11.jsonl", line: 4, code: "torn-tail", severity: "warning" }]);
    const fourth = ledger.append(newErratum({ nowMs: Date.parse("2026-11-05T12:00:00Z"), complaint: "after the crash", reporter })).erratum;
    const again = ledger.readAll();
    expect(again.errata.map((f) => f.erratum.id)).toEqual([...written.map((e) => e.id), fourth.id]);
    // The fragment is now a malformed middle line: reported, skipped.
    expect(again.problems).toMatchObject([{ line: 4, code: "malformed-json", severity: "error" }]);
  });
  it("a complete last line without its newline is read", () => {
    const paths = freshPaths();
    const written = threeLines(paths);
    const file = join(paths.ledgerDir, "errata-2026-11.jsonl");
    writeFileSync(file, readFileSync(file, "utf8").replace(/\n$/, ""));
    expect(ledgerAt(paths).readAll().errata).toHaveLength(written.length);
  });
  it("a malformed middle line is reported with file and line and skipped", () => {
    const paths = freshPaths();
    const written = threeLines(paths);
    const file = join(paths.ledgerDir, "errata-2026-11.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    lines.splice(1, 0, "{not json", JSON.stringify({ schema: "erratum/1", id: "bad" }));
    writeFileSync(file, lines.join("\n"));
    const read = ledgerAt(paths).readAll();
    expect(read.errata.map((f) => f.erratum.id)).toEqual(written.map((e) => e.id));
    expect(read.problems.map((p) => [p.line, p.code])).toEqual(expect.arrayContaining([[2, "malformed-json"], [3, "schema"]]));
  });
});

describe("record stream", () => {
  it("one row per append and per status/enrichment patch; none for a links-only patch", () => {
    const paths = freshPaths();
    const ledger = ledgerAt(paths);
    const e = ledger.append(newErratum({ nowMs: Date.parse("2026-11-30T12:00:00Z"), complaint: "secret plan leaked", reporter, context: { session_id: "s-9", output_ids: ["o-1"], requested: "do the thing" } })).erratum;
    ledger.patch(e.id, { links: { issue: "https://example.org/i/1" } });
    ledger.patch(e.id, { status: "enriched", enrichment });
    ledger.patch(e.id, { status: "triaged" });
    const rows = readFileSync(join(paths.stateDir, "record.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.event, r.status])).toEqual([["append", "new"], ["patch", "enriched"], ["patch", "triaged"]]);
    expect(rows[0]).toMatchObject({ id: e.id, kind: "complaint", system: "assistant", session_id: "s-9", output_ids: ["o-1"] });
    expect(assertRecordHasNoText(join(paths.stateDir, "record.jsonl"), paths.ledgerDir)).toBe(3);
  });
  it("a fault writing the record goes to stderr and state, never thrown; the ledger line stands", () => {
    const paths = freshPaths();
    mkdirSync(join(paths.stateDir, "record.jsonl"), { recursive: true }); // a folder where the file should be
    const ledger = ledgerAt(paths);
    const out = ledger.append(newErratum({ nowMs: Date.parse("2026-11-30T12:00:00Z"), complaint: "x", reporter }));
    expect(out.written).toBe(true);
    expect(out.recorded).toBe(false);
    expect(warnings.join("\n")).toMatch(/record stream fault/);
    const faults = readFileSync(join(paths.stateDir, "record-faults.jsonl"), "utf8");
    expect(JSON.parse(faults.trim())).toMatchObject({ schema: "record-fault/1", id: out.erratum.id, event: "append" });
    expect(ledger.readAll().errata).toHaveLength(1);
  });
});
