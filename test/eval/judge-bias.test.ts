import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../helpers/fast-check-seed.js";
import { benjaminiHochberg, chiSquareIndependence, holm, judgeBias, mannWhitneyU } from "../../eval/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const ref = JSON.parse(readFileSync(join(here, "../fixtures/judge-bias/cases.json"), "utf8")) as {
  mannWhitney: { x: number[]; y: number[]; expected: { u: number; p: number; effect: number } }[];
  chiSquare: { table: number[][]; expected: { chi2: number; p: number; dof: number; cramersV: number } }[];
  adjust: { p: number[]; holm: number[]; bh: number[] };
};

describe("against scipy (fixtures from generate.py)", () => {
  ref.mannWhitney.forEach((c, k) => it(`Mann-Whitney U case ${k + 1} (${c.x.length} vs ${c.y.length}): U, p and rank-biserial to 4 decimals`, () => {
    const r = mannWhitneyU(c.x, c.y);
    expect(r.u).toBeCloseTo(c.expected.u, 4);
    expect(r.p).toBeCloseTo(c.expected.p, 4);
    expect(r.effect).toBeCloseTo(c.expected.effect, 4);
  }));
  ref.chiSquare.forEach((c, k) => it(`chi-square case ${k + 1} (${c.table.length} levels): statistic, dof, p and Cramér's V to 4 decimals`, () => {
    const r = chiSquareIndependence(c.table);
    expect(r.chi2).toBeCloseTo(c.expected.chi2, 4);
    expect(r.dof).toBe(c.expected.dof);
    expect(r.p).toBeCloseTo(c.expected.p, 4);
    expect(r.cramersV).toBeCloseTo(c.expected.cramersV, 4);
  }));
  it("Holm and Benjamini-Hochberg adjusted p-values", () => {
    holm(ref.adjust.p).forEach((v, i) => expect(v).toBeCloseTo(ref.adjust.holm[i]!, 10));
    benjaminiHochberg(ref.adjust.p).forEach((v, i) => expect(v).toBeCloseTo(ref.adjust.bh[i]!, 10));
  });
});

describe("adjustment invariants", () => {
  it("adjusted >= raw, <= 1, BH <= Holm, and the order of the raw p-values is kept", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }), (p) => {
      const h = holm(p), b = benjaminiHochberg(p);
      p.forEach((v, i) => {
        expect(h[i]!).toBeGreaterThanOrEqual(v - 1e-15);
        expect(b[i]!).toBeGreaterThanOrEqual(v - 1e-15);
        expect(h[i]!).toBeLessThanOrEqual(1);
        expect(b[i]!).toBeLessThanOrEqual(h[i]! + 1e-15);
        p.forEach((w, j) => { if (v < w) { expect(h[i]!).toBeLessThanOrEqual(h[j]! + 1e-15); expect(b[i]!).toBeLessThanOrEqual(b[j]! + 1e-15); } });
      });
    }));
  });
});

describe("judgeBias", () => {
  it("finds a judge that errs on long replies and not on corpus; numeric vs categorical by the values; skips what cannot be tested", () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({
      error: i % 4 === 0 ? i % 8 === 0 : i % 13 === 0,
      covariates: { reply_length: i % 4 === 0 ? 1000 + i : 100 + (i % 50), corpus: ["a", "b", "c"][i % 3]!, position: null, constant: "x" },
    }));
    // Errors: items with i % 8 == 0 (all long replies) plus i % 13 == 0 among the rest.
    const { tests, skipped } = judgeBias(rows, ["reply_length", "corpus", "position", "constant"]);
    expect(tests.map((t) => [t.covariate, t.kind])).toEqual([["reply_length", "numeric"], ["corpus", "categorical"]]);
    const len = tests[0]!;
    expect(len.effect).toBeGreaterThan(0.5);
    expect(len.pHolm).toBeLessThan(0.001);
    expect(tests[1]!.p).toBeGreaterThan(0.05);
    expect(skipped.map((s) => s.covariate)).toEqual(["position", "constant"]);
  });
});
