import { afterEach, describe, expect, it } from "vitest";
import { cpSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ledgerPort } from "../../runtime/jobs/daily/ledger-port.js";
import { openLedger } from "../../runtime/store/index.js";
import { tempDir } from "../helpers/io.js";
import { GOOD_REPLY, NOW, pathsFor, seedLedger } from "./fixtures.js";

const enrichment = { schema: "enrichment/1" as const, ...GOOD_REPLY, what_upset: "leaked sk-ant-api03-" + Array.from({ length: 93 }, (_, i) => "aB3xQ9kLm2Pz7Rt"[(i * 7 + (i >> 2)) % 15]).join("") + "AA", model: "m", enrichment_version: "v" };

describe("ledgerPort.patchKnown (no re-read per patch)", () => {
  let a = tempDir();
  let b = tempDir();
  afterEach(() => {
    a.cleanup();
    b.cleanup();
    a = tempDir();
    b = tempDir();
  });

  it("writes the same patch line and record row as the store's own patch, redaction included", async () => {
    const [e] = seedLedger(a.dir, [{ complaint: "no, wrong" }]);
    cpSync(a.dir, b.dir, { recursive: true });
    const set = { status: "enriched" as const, enrichment };
    openLedger(pathsFor(a.dir), { now: () => NOW, warn: () => {} }).patch(e!.id, set);
    const after = await ledgerPort(pathsFor(b.dir), { now: () => NOW, warn: () => {} }).patchKnown(e!, set);
    const files = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => readFileSync(join(dir, f), "utf8"));
    expect(files(b.dir)).toEqual(files(a.dir));
    expect(readFileSync(join(b.dir, ".state", "record.jsonl"), "utf8")).toBe(readFileSync(join(a.dir, ".state", "record.jsonl"), "utf8"));
    expect(after.enrichment?.what_upset).not.toContain("sk-ant-");
    expect(openLedger(pathsFor(b.dir), { warn: () => {} }).readAll().errata[0]?.erratum).toEqual(after);
  });

  it("refuses an illegal transition and writes nothing", async () => {
    const [e] = seedLedger(a.dir, [{ complaint: "x" }]);
    const before = readdirSync(a.dir).map((f) => f);
    const port = ledgerPort(pathsFor(a.dir), { now: () => NOW, warn: () => {} });
    await expect(port.patchKnown(e!, { status: "fixed" })).rejects.toThrow(/illegal status transition/);
    expect(readdirSync(a.dir)).toEqual(before);
    expect(openLedger(pathsFor(a.dir), { warn: () => {} }).readAll().errata[0]?.patches).toEqual([]);
  });
});
