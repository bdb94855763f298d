import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { assertRecordHasNoText } from "./record-guard.js";

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir();
});
afterEach(() => {
  assertRecordHasNoText(join(t.dir, ".state", "record.jsonl"), join(t.dir));
  t.cleanup();
});

async function cli(argv: string[], now = Date.parse("2026-11-30T12:00:00Z")) {
  const m = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata add / list / show / stats", () => {
  it("adds with the /er grammar and reads it back", async () => {
    const a = await cli(["add", "bug:", "it", "pushed", "to", "main", "--session", "s-1", "--json"]);
    expect(a.code).toBe(0);
    const added = JSON.parse(a.out);
    expect(added.erratum.kind).toBe("bug");
    expect(added.erratum.complaint).toBe("it pushed to main");
    expect(added.erratum.id).toMatch(/^er-20261130-[0-9a-f]{6}$/);
    expect(added.file).toBe("errata-2026-11.jsonl");

    const f = await cli(["add", "--product", "feature: an undo button", "--json"]);
    expect(JSON.parse(f.out).erratum).toMatchObject({ kind: "feature-request", target: "product" });
    const p = await cli(["add", "praise: spot on", "--json"]);
    expect(JSON.parse(p.out).erratum.kind).toBe("praise");
    const c = await cli(["add", "why did you delete my tests?", "--json"]);
    expect(JSON.parse(c.out).erratum.kind).toBe("complaint");

    const list = await cli(["list", "--kind", "bug", "--json"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out).errata.map((e: { id: string }) => e.id)).toEqual([added.erratum.id]);

    const show = await cli(["show", added.erratum.id, "--json"]);
    expect(JSON.parse(show.out).erratum.context.session_id).toBe("s-1");

    const stats = await cli(["stats", "--json"]);
    const s = JSON.parse(stats.out);
    expect(s.total).toBe(4);
    expect(s.by_kind).toEqual({ bug: 1, "feature-request": 1, praise: 1, complaint: 1 });
  });

  it("lists standing directives apart from corrections (--kind directive)", async () => {
    const d = await cli(["add", "directive: from now on, sign every commit", "--json"]);
    expect(JSON.parse(d.out).erratum.kind).toBe("directive");
    const c = await cli(["add", "correction: that's the wrong file", "--json"]);
    expect(JSON.parse(c.out).erratum.kind).toBe("correction");
    const directives = JSON.parse((await cli(["list", "--kind", "directive", "--json"])).out).errata;
    expect(directives.map((e: { complaint: string }) => e.complaint)).toEqual(["from now on, sign every commit"]);
    const corrections = JSON.parse((await cli(["list", "--kind", "correction", "--json"])).out).errata;
    expect(corrections.map((e: { complaint: string }) => e.complaint)).toEqual(["that's the wrong file"]);
  });

  it("refuses bad input with exit 2 and writes nothing", async () => {
    const cases: string[][] = [
      ["add", "x", "--source", "hook", "--rating", "3"],
      ["add", "x", "--rating", "11"],
      ["add", "x", "--system", "nope"],
      ["add", "bug:"],
      ["add", "x", "--kind", "rant"],
      ["add", "x", "--rating", "seven"],
    ];
    for (const argv of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(/expected/);
    }
    const stats = JSON.parse((await cli(["stats", "--json"])).out);
    expect(stats.total).toBe(0);
  });

  it("--dry-run and bad input write nothing at all (no ledger file, no state, no key)", async () => {
    const r = await cli(["add", "x", "--dry-run", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).written).toBe(false);
    expect((await cli(["add", "x", "--rating", "0"])).code).toBe(2);
    expect(readdirSync(t.dir)).toEqual([]);
  });

  it("redacts secrets and pseudonymises the reporter", async () => {
    const r = await cli(["add", "my key AKIAQ7R2M9X4V8L3T6WZ leaked", "--reporter-id", "ana@example.com", "--json"]);
    const e = JSON.parse(r.out).erratum;
    expect(e.complaint).toBe("my key [REDACTED:aws-access-key] leaked");
    expect(e.reporter.id).toMatch(/^rp-[0-9a-f]{16}$/);
    const raw = readFileSync(join(t.dir, "errata-2026-11.jsonl"), "utf8");
    expect(raw).not.toContain("ana@example.com");
    expect(raw).not.toContain("AKIAQ7R2M9X4V8L3T6WZ");
  });

  it("show: unknown id exits 2", async () => {
    expect((await cli(["show", "er-20261130-000000"])).code).toBe(2);
    expect((await cli(["show", "nope"])).code).toBe(2);
  });
});
