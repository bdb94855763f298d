import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EnrichmentSchema,
  ErratumSchema,
  LedgerLineSchema,
  PatchSchema,
  RecordRowSchema,
  SystemsConfigSchema,
} from "../../schemas/erratum.js";
import { isLegalTransition, NEXT_STATUSES, STATUSES } from "../../schemas/erratum-constants.js";
import { enrichmentArb, erratumArb, patchArb, recordRowArb } from "../store/arbitraries.js";

/** JSON round trip: what is written is what is read, field for field. */
function roundTrips<T>(schema: { parse: (v: unknown) => T }, value: T): void {
  const line = JSON.stringify(value);
  expect(line).not.toMatch(/\n/);
  expect(schema.parse(JSON.parse(line))).toEqual(value);
}

describe("schemas round trip", () => {
  it("erratum", () => fc.assert(fc.property(erratumArb, (e) => roundTrips(ErratumSchema, e)), { numRuns: 300 }));
  it("patch", () => fc.assert(fc.property(patchArb, (p) => roundTrips(PatchSchema, p)), { numRuns: 300 }));
  it("enrichment", () => fc.assert(fc.property(enrichmentArb, (e) => roundTrips(EnrichmentSchema, e)), { numRuns: 200 }));
  it("record row", () => fc.assert(fc.property(recordRowArb, (r) => roundTrips(RecordRowSchema, r)), { numRuns: 200 }));
  it("ledger line union picks the right schema", () =>
    fc.assert(
      fc.property(fc.oneof(erratumArb, patchArb), (l) => {
        expect(LedgerLineSchema.parse(JSON.parse(JSON.stringify(l)))).toEqual(l);
      }),
      { numRuns: 100 },
    ));
  it("systems config", () => {
    expect(SystemsConfigSchema.parse({ systems: ["billing-bot"] })).toEqual({ systems: ["billing-bot"] });
    expect(SystemsConfigSchema.safeParse({ systems: ["Bad Name"] }).success).toBe(false);
  });
});

describe("schemas refuse", () => {
  const base = fc.sample(erratumArb, { numRuns: 1, seed: 7 })[0]!;
  const refuses = (patch: Record<string, unknown>) => ErratumSchema.safeParse({ ...base, ...patch }).success;
  it("every line carries a schema version", () => {
    const { schema: _s, ...noVersion } = base;
    expect(ErratumSchema.safeParse(noVersion).success).toBe(false);
    expect(refuses({ schema: "erratum/2" })).toBe(false);
  });
  it("ratings off the 1-10 scale, NaN and unknown fields", () => {
    expect(refuses({ rating: 0 })).toBe(false);
    expect(refuses({ rating: 10.5 })).toBe(false);
    expect(refuses({ rating: Number.NaN })).toBe(false);
    expect(refuses({ rating: 10 })).toBe(true);
    expect(refuses({ surprise: 1 })).toBe(false);
  });
  it("an enrichment with no model", () => {
    const en = fc.sample(enrichmentArb, { numRuns: 1, seed: 3 })[0]!;
    expect(EnrichmentSchema.safeParse({ ...en, model: "" }).success).toBe(false);
    const { model: _m, ...noModel } = en;
    expect(EnrichmentSchema.safeParse(noModel).success).toBe(false);
  });
  it("a reporter id that is an e-mail", () => {
    expect(refuses({ reporter: { id: "ana@example.com", role: "owner" } })).toBe(false);
  });
  it("bad ids", () => {
    expect(refuses({ id: "er-2026113-abcdef" })).toBe(false);
    expect(refuses({ id: "er-20261130-ABCDEF" })).toBe(false);
  });
});

describe("lifecycle", () => {
  it("follows new -> enriched -> triaged | upgrade-filed -> fixed | wontfix | duplicate", () => {
    expect(isLegalTransition("new", "enriched")).toBe(true);
    expect(isLegalTransition("enriched", "triaged")).toBe(true);
    expect(isLegalTransition("enriched", "upgrade-filed")).toBe(true);
    expect(isLegalTransition("upgrade-filed", "fixed")).toBe(true);
    expect(isLegalTransition("new", "fixed")).toBe(false);
    expect(isLegalTransition("fixed", "new")).toBe(false);
    expect(isLegalTransition("enriched", "new")).toBe(false);
    for (const s of STATUSES) expect(isLegalTransition(s, s)).toBe(true);
    // Final statuses go nowhere.
    for (const s of ["fixed", "wontfix", "duplicate"] as const) expect(NEXT_STATUSES[s]).toEqual([]);
  });
});
