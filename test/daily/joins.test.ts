import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Erratum } from "../../schemas/erratum.js";
import type { HostOutput, HostReceipt } from "../../schemas/host.js";
import type { HostData } from "../../runtime/jobs/daily/host.js";
import { findMisses, modelRates, skillRates } from "../../runtime/jobs/daily/joins.js";
import { newErratum } from "../../runtime/store/new-erratum.js";
import { tempDir } from "../helpers/io.js";
import { DAY, HOUR, NOW, REPORTER } from "./fixtures.js";

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

});
