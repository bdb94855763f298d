import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../cli/main.js";
import type { Erratum } from "../../schemas/erratum.js";
import type { HostOutput, HostReceipt } from "../../schemas/host.js";
import type { HostData } from "../../runtime/daily/host.js";
import { findMisses, modelRates, skillRates } from "../../runtime/daily/joins.js";
import { newErratum } from "../../runtime/store/new-erratum.js";
import { readUpgrades } from "../../runtime/daily/upgrades.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { DAY, HOUR, NOW, REPORTER, seedLedger } from "./fixtures.js";

function out(id: string, skill: string, ageHours = 5, model = "m-a"): HostOutput {
  return { schema: "output/1", id, ts: new Date(NOW - ageHours * HOUR).toISOString(), session_id: "s", skill, model };
}
function receipt(outputId: string, passed: boolean): HostReceipt {
  return { schema: "receipt/1", id: `rc-${outputId}`, ts: new Date(NOW - HOUR).toISOString(), output_id: outputId, passed, checks: [] };
}
function hostOf(outputs: HostOutput[], receipts: HostReceipt[]): HostData {
  return { outputs: new Map(outputs.map((o) => [o.id, o])), receipts: new Map(receipts.map((r) => [r.output_id, r])), bad: 0, present: true };
}
let n = 0;
function complaint(outputIds: string[], over: Partial<Erratum> = {}): Erratum {
  n++;
  const e = newErratum({ nowMs: NOW, complaint: "bad", reporter: REPORTER as Erratum["reporter"], ts: new Date(NOW - 2 * HOUR).toISOString(), context: { output_ids: outputIds, model: "m-a" }, id: `er-20261130-${n.toString(16).padStart(6, "0")}` });
  return { ...e, ...over };
}

describe("joins: skills, misses, by-model", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  const host = hostOf([out("o1", "notes"), out("o2", "notes"), out("o3", "deploy"), out("o4", "deploy"), out("o5", "deploy")], [receipt("o1", true), receipt("o3", false)]);

  it("per-skill rates over delivered outputs; a complaint naming two skills counts once for each", () => {
    const rows = skillRates([complaint(["o1"]), complaint(["o2", "o3"]), complaint(["o4"], { kind: "praise" })], host, NOW - DAY, NOW + 1);
    expect(rows).toEqual([
      { skill: "notes", outputs: 2, complaints: 2, rate: 1, complaint_ids: expect.any(Array) },
      { skill: "deploy", outputs: 3, complaints: 1, rate: 1 / 3, complaint_ids: expect.any(Array) },
    ]);
  });

  it("false pass: exactly one cited output whose receipt passed; several outputs name none", () => {
    const c1 = complaint(["o1"]);
    const res = findMisses([c1, complaint(["o1", "o2"]), complaint(["o3"]), complaint(["o2"]), complaint(["nope"]), complaint(["o1"], { source: "detected" })], host);
    expect(res.false_passes.map((f) => [f.erratum_id, f.output_id, f.skill])).toEqual([[c1.id, "o1", "notes"]]);
    expect(res).toMatchObject({ ambiguous: 1, caught: 1, unchecked: 1, unresolved: 1, considered: 5 });
  });

  it("property: adding detected rows never changes any rate", () => {
    fc.assert(
      fc.property(fc.array(fc.subarray(["o1", "o2", "o3", "o4", "o5"], { minLength: 1 }), { maxLength: 12 }), fc.array(fc.subarray(["o1", "o2", "o3", "o4", "o5"], { minLength: 1 }), { maxLength: 8 }), (real, detected) => {
        const base = real.map((ids) => complaint(ids));
        const noisy = [...base, ...detected.map((ids) => complaint(ids, { source: "detected" }))];
        const strip = (rows: ReturnType<typeof skillRates>) => rows.map((r) => [r.skill, r.outputs, r.complaints, r.rate]);
        expect(strip(skillRates(noisy, host, NOW - DAY, NOW + 1))).toEqual(strip(skillRates(base, host, NOW - DAY, NOW + 1)));
        expect(modelRates(noisy, host, NOW - DAY, NOW + 1)).toEqual(modelRates(base, host, NOW - DAY, NOW + 1));
        expect(findMisses(noisy, host).false_passes).toEqual(findMisses(base, host).false_passes);
      }),
      { numRuns: 200, seed: 42 },
    );
  });

  it("by-model: complaints per assistant model beside its outputs", () => {
    const rows = modelRates([complaint(["o1"]), complaint([], { context: { ...complaint([]).context, model: "m-b" } })], host, NOW - DAY, NOW + 1);
    expect(rows).toEqual([
      { model: "m-a", complaints: 1, outputs: 5, rate: 0.2 },
      { model: "m-b", complaints: 1, outputs: 0, rate: null },
    ]);
  });

  it("CLI: misses --file-upgrades files one upgrade per false pass, once; skills/by-model/impact print one JSON value", async () => {
    const hostDir = join(t.dir, "host");
    mkdirSync(hostDir);
    writeFileSync(join(hostDir, "outputs.jsonl"), [out("o1", "notes"), out("o2", "notes")].map((o) => JSON.stringify(o)).join("\n") + "\n");
    writeFileSync(join(hostDir, "receipts.jsonl"), JSON.stringify(receipt("o1", true)) + "\n{torn");
    seedLedger(t.dir, [{ complaint: "o1 is wrong", context: { output_ids: ["o1"] } }, { complaint: "o1 again", context: { output_ids: ["o1"] } }, { complaint: "both", context: { output_ids: ["o1", "o2"] } }]);
    const env = { ERRATA_DIR: t.dir, HOME: t.dir, ERRATA_HOST_DIR: hostDir };
    const io1 = memoryIo({ env, now: NOW });
    expect(await run(["misses", "--file-upgrades", "--json"], io1.io)).toBe(0);
    expect(JSON.parse(io1.out())).toMatchObject({ filed: 1, existing: 0, ambiguous: 1 });
    expect(io1.err()).toContain("1 malformed line");
    const io2 = memoryIo({ env, now: NOW + DAY });
    await run(["misses", "--file-upgrades", "--json"], io2.io);
    expect(JSON.parse(io2.out())).toMatchObject({ filed: 0, existing: 2 });
    const q = readUpgrades(join(t.dir, "upgrades.jsonl"));
    expect(q.upgrades).toHaveLength(1);
    expect(q.upgrades[0]).toMatchObject({ kind: "false-pass", output_id: "o1", skill: "notes", source: "errata" });
    expect(q.upgrades[0]?.erratum_ids).toHaveLength(2);

    const s = memoryIo({ env, now: NOW });
    await run(["skills", "--json"], s.io);
    expect(JSON.parse(s.out()).skills[0]).toMatchObject({ skill: "notes", outputs: 2, complaints: 3 });
    const m = memoryIo({ env, now: NOW });
    await run(["by-model", "--json"], m.io);
    expect(JSON.parse(m.out()).models).toBeInstanceOf(Array);
    const i = memoryIo({ env, now: NOW });
    await run(["impact", "--skill", "notes", "--since", "2026-11-30", "--days", "3", "--json"], i.io);
    expect(JSON.parse(i.out())).toMatchObject({ skill: "notes", days: 3 });
    const bad = memoryIo({ env, now: NOW });
    expect(await run(["impact", "--skill", "notes"], bad.io)).toBe(2);
    const landed = memoryIo({ env, now: NOW });
    await run(["impact", "--landed", "--json"], landed.io);
    expect(JSON.parse(landed.out())).toEqual({ days: 14, landed: [] });
  });
});
