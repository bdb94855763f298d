// Erratum ids and ISO times (runtime/store/ids.ts): `isoTime` must be `toISOString` exactly.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTime, newErratumId } from "../../runtime/store/ids.js";

describe("isoTime", () => {
  it("equals Date#toISOString for every time, in and outside years 0000-9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20000, seed: 7 },
    );
    for (const ms of [0, -1, 999, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), Date.UTC(-1, 0, 1), Date.UTC(2024, 1, 29, 0, 0, 0, 1)]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("refuses an invalid time as toISOString does", () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });

  it("names an erratum by its UTC day", () => {
    expect(newErratumId(Date.UTC(2026, 10, 30, 23, 59), () => Uint8Array.from([0x3f, 0xa9, 0xc1]))).toBe("er-20261130-3fa9c1");
  });
});
