import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { listMonths, visitMonth, type TextLine } from "../../runtime/store/read-files.js";
import { tempDir } from "../helpers/io.js";
import { runErrata } from "./helpers.js";
import { built } from "../helpers/built.js";

/**
 * One damaged file takes down nothing but itself: a directory where a month file should be,
 * a truncated archive, an archive that is not gzip. Every reader names the file, what was
 * expected and what was found, and reads the rest; `errata daily --json` says ok: false and
 * lists the files under `degraded`.
 */
let t = tempDir("errata-damage-");
afterEach(() => {
  t.cleanup();
  t = tempDir("errata-damage-");
});

describe("a truncated archive gives up the lines before the cut, and says so", () => {
  it("property: for any lines and any cut, the lines read are a prefix of the archive's (the last one possibly torn), with an archive-truncated problem", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 200 }).map((s) => JSON.stringify({ s })), { minLength: 1, maxLength: 40 }), fc.double({ min: 0.05, max: 0.98, noNaN: true }), (lines, at) => {
        const dir = join(t.dir, `p${Math.random().toString(36).slice(2)}`);
        mkdirSync(join(dir, "archive"), { recursive: true });
        const gz = gzipSync(Buffer.from(lines.map((l) => `${l}\n`).join("")));
        writeFileSync(join(dir, "archive", "errata-2026-08.jsonl.gz"), gz.subarray(0, Math.max(1, Math.floor(gz.length * at))));
        const got: TextLine[] = [];
        const problems = visitMonth(listMonths(dir)[0]!, (l) => got.push(l));
        const whole = got.filter((l) => !l.unterminated).map((l) => l.text);
        expect(whole).toEqual(lines.slice(0, whole.length));
        const torn = got.find((l) => l.unterminated);
        if (torn) expect(lines[whole.length]!.startsWith(torn.text)).toBe(true);
        expect(problems.map((p) => p.code)).toEqual([whole.length === 0 && torn === undefined ? expect.stringMatching(/^archive-(truncated|unreadable)$/) : "archive-truncated"]);
      }),
      { numRuns: 60 },
    );
  });
});

describe.skipIf(!built)("damaged ledger files through the CLI (the compiled binary)", () => {
  it("a directory in place of a month and a truncated archive: list reads the rest and names both; validate lists them; daily --json is ok: false with a degraded list", async () => {
    const env = { ERRATA_DIR: join(t.dir, "l"), HOME: t.dir };
    for (const [ts, words] of [["2026-08-02T10:00:00Z", "one"], ["2026-08-03T10:00:00Z", "two"], ["2026-09-03T10:00:00Z", "three"], ["2026-11-03T10:00:00Z", "four"]] as const) {
      expect((await runErrata(["add", "--ts", ts, `bug: ${words} ${"x".repeat(300)}`], { env })).code).toBe(0);
    }
    expect((await runErrata(["rotate", "--before", "2026-10"], { env })).code).toBe(0);
    const gz = join(t.dir, "l", "archive", "errata-2026-08.jsonl.gz");
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(gz);
    // Cut off the gzip trailer (CRC and size, 8 bytes) and 4 bytes of the stream's end.
    writeFileSync(gz, bytes.subarray(0, bytes.length - 12));
    mkdirSync(join(t.dir, "l", "errata-2026-10.jsonl"));

    const list = await runErrata(["list"], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/four/);
    expect(list.stdout).toMatch(/three/);
    expect(list.stdout).toMatch(/one/); // a line before the cut
    expect(list.stderr).toContain("errata-2026-10.jsonl:0: error month-unreadable: cannot read month file; skipped, the other months are read (expected a JSONL month file; found a directory)");
    expect(list.stderr).toMatch(/archive\/errata-2026-08\.jsonl\.gz:0: error archive-truncated: .*\(expected a whole gzip file; found a file cut short/);

    const v = await runErrata(["validate"], { env });
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/month-unreadable/);
    expect(v.stdout).toMatch(/archive-truncated/);

    const daily = await runErrata(["daily", "--skip-mine", "--root", t.dir, "--json"], { env });
    expect(daily.code).toBe(1);
    const out = JSON.parse(daily.stdout) as { ok: boolean; failed: string[]; degraded: Array<{ file: string; expected: string; found: string }>; stages: Array<{ name: string; ok: boolean }> };
    expect(out.ok).toBe(false);
    expect(out.failed).toEqual([]);
    expect(out.stages.find((s) => s.name === "enrich")?.ok).toBe(true);
    expect(out.degraded).toEqual([
      { file: "archive/errata-2026-08.jsonl.gz", expected: "a whole gzip file", found: expect.stringMatching(/^a file cut short \(unexpected end of file\); the first [12] lines were read$/) },
      { file: "errata-2026-10.jsonl", expected: "a JSONL month file", found: "a directory" },
    ]);
  });
});
