import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { resolvePaths } from "../../runtime/paths.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { assertAllRecordsUnder, assertRecordHasNoText } from "./record-guard.js";

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-paths-");
});
afterEach(() => {
  assertAllRecordsUnder(t.dir);
  t.cleanup();
});

async function cli(env: Record<string, string>, argv: string[]) {
  const m = memoryIo({ env: { HOME: t.dir, ...env } });
  return { code: await run(argv, m.io), out: m.out(), err: m.err() };
}

describe("default vs scratch ledger", () => {
  it("only the default ledger writes the live record; a scratch ledger writes its own scratch record", async () => {
    const state = join(t.dir, "state");
    // Default ledger: ERRATA_DIR unset, the XDG default under HOME.
    expect((await cli({ ERRATA_STATE_DIR: state }, ["add", "default ledger complaint"])).code).toBe(0);
    const defaultLedger = join(t.dir, ".local", "share", "errata");
    expect(existsSync(join(defaultLedger, "errata-2026-11.jsonl"))).toBe(true);
    expect(assertRecordHasNoText(join(state, "record.jsonl"), defaultLedger)).toBe(1);

    const scratch = join(t.dir, "scratch");
    expect((await cli({ ERRATA_DIR: scratch }, ["add", "scratch complaint"])).code).toBe(0);
    expect(assertRecordHasNoText(join(scratch, ".state", "record.jsonl"), scratch)).toBe(1);
    // The live record did not move.
    expect(readFileSync(join(state, "record.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
  });
  it("ERRATA_STATE_DIR, when set, wins over the ledger's own .state/ (issue 19: it was ignored with ERRATA_DIR set)", async () => {
    const scratch = join(t.dir, "scratch");
    const state = join(t.dir, "named-state");
    expect((await cli({ ERRATA_STATE_DIR: state, ERRATA_DIR: scratch }, ["add", "scratch complaint"])).code).toBe(0);
    expect(assertRecordHasNoText(join(state, "record.jsonl"), scratch)).toBe(1);
    expect(existsSync(join(scratch, ".state", "record.jsonl"))).toBe(false);
    expect(resolvePaths({ ERRATA_DIR: "l", ERRATA_STATE_DIR: "s", HOME: "/h" }, "/w")).toMatchObject({ ledgerDir: "/w/l", stateDir: "/w/s", attachmentsDir: "/w/s/attachments" });
    expect(resolvePaths({ ERRATA_DIR: "l", HOME: "/h" }, "/w").stateDir).toBe("/w/l/.state");
    expect(resolvePaths({ HOME: "/h" }, "/w").stateDir).toBe("/h/.local/state/errata");
    expect(resolvePaths({ HOME: "/h", XDG_STATE_HOME: "/x" }, "/w").stateDir).toBe("/x/errata");
  });
});

describe("systems config", () => {
  it("accepts names from errata-systems.json and refuses others", async () => {
    const dir = join(t.dir, "l");
    expect((await cli({ ERRATA_DIR: dir }, ["add", "x", "--system", "billing-bot"])).code).toBe(2);
    expect(existsSync(dir)).toBe(false); // bad input wrote nothing
    mkdirSync(dir);
    writeFileSync(join(dir, "errata-systems.json"), JSON.stringify({ schema: "errata-systems/1", systems: ["billing-bot"] }));
    expect((await cli({ ERRATA_DIR: dir }, ["add", "x", "--system", "billing-bot"])).code).toBe(0);
    expect((await cli({ ERRATA_DIR: dir }, ["add", "x", "--system", "other"])).code).toBe(0);
    writeFileSync(join(dir, "errata-systems.json"), "{ nope");
    const bad = await cli({ ERRATA_DIR: dir }, ["add", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/errata-systems.json is not JSON/);
  });
});

describe("attachments", () => {
  it("are copied outside the ledger and linked from the erratum", async () => {
    const dir = join(t.dir, "l");
    const src = join(t.dir, "reply.txt");
    writeFileSync(src, "the whole long reply ...");
    const r = await cli({ ERRATA_DIR: dir }, ["add", "see the reply", "--attach", src, "--json"]);
    expect(r.code).toBe(0);
    const e = JSON.parse(r.out).erratum;
    expect(e.links.attachments).toEqual([`${e.id}/reply.txt`]);
    expect(readFileSync(join(dir, ".state", "attachments", e.id, "reply.txt"), "utf8")).toBe("the whole long reply ...");
    // A missing attachment is bad input and writes nothing.
    const miss = await cli({ ERRATA_DIR: dir }, ["add", "x", "--attach", join(t.dir, "nope.txt")]);
    expect(miss.code).toBe(2);
    expect(readFileSync(join(dir, "errata-2026-11.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
  });
});

describe("errata validate", () => {
  it("lists every problem with file and line, exit 1", async () => {
    const dir = join(t.dir, "l");
    expect((await cli({ ERRATA_DIR: dir }, ["add", "fine one", "--json"])).code).toBe(0);
    const file = join(dir, "errata-2026-11.jsonl");
    const good = JSON.parse(readFileSync(file, "utf8").trim());
    const variant = (over: Record<string, unknown>, idTail: string) => JSON.stringify({ ...good, id: `er-20261130-${idTail}`, ...over });
    const enrichment = { schema: "enrichment/1", how_upset: 1, which_part: "", what_upset: "", reporter_right: null, reporter_right_reason: "", root_cause_hypothesis: "", class: null, proposed_fix: "", confidence: 0.5, model: "", enrichment_version: "e/1" };
    const lines = [
      variant({ source: "hook", rating: 4 }, "000001"),
      variant({ enrichment, status: "enriched" }, "000002"),
      variant({ rating: 12 }, "000003"),
      variant({ system: "mystery" }, "000004"),
      JSON.stringify({ schema: "erratum-patch/1", id: good.id, ts: "2026-11-30T13:00:00.000Z", set: { status: "fixed" } }),
      "{oops",
      '{"schema":"erratum/1","id":"er-2026',
    ];
    writeFileSync(file, `${readFileSync(file, "utf8")}${lines.join("\n")}`);
    const r = await cli({ ERRATA_DIR: dir }, ["validate"]);
    expect(r.code).toBe(1);
    const listed = r.out.trim().split("\n");
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^errata-2026-11\.jsonl:2: error machine-source-rating: /),
        expect.stringMatching(/^errata-2026-11\.jsonl:3: error enrichment-without-model: /),
        expect.stringMatching(/^errata-2026-11\.jsonl:4: error rating-off-scale: .*expected a number from 1 to 10/),
        expect.stringMatching(/^errata-2026-11\.jsonl:5: error unknown-system: /),
        expect.stringMatching(/^errata-2026-11\.jsonl:6: error illegal-transition: .*new -> fixed/),
        expect.stringMatching(/^errata-2026-11\.jsonl:7: error malformed-json: /),
        expect.stringMatching(/^errata-2026-11\.jsonl:8: warning torn-tail: /),
        expect.stringMatching(/^6 errors, 1 warning in 8 lines/),
      ]),
    );
    const j = await cli({ ERRATA_DIR: dir }, ["validate", "--json"]);
    expect(JSON.parse(j.out)).toMatchObject({ ok: false, errors: 6, warnings: 1 });
  });
  it("a clean ledger passes with exit 0", async () => {
    const dir = join(t.dir, "clean");
    await cli({ ERRATA_DIR: dir }, ["add", "bug: one"]);
    const r = await cli({ ERRATA_DIR: dir }, ["validate", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, errors: 0, lines: 1 });
  });
});
