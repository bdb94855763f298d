import { describe, expect, it } from "vitest";
import {
  cohenKappa,
  fleissKappa,
  fleissKappaFromCounts,
  fleissKappaFromVoteCounts,
  fleissStatistic,
  krippendorffAlpha,
  sessionBlockBootstrap,
} from "../../eval/index.js";
import { hasAbRedial, hasUss, readAbRedial, readUss } from "./datasets.js";

const binary = (units: number[][]): boolean[][] => units.map((u) => u.map((x) => x <= 2));

describe("textbook checks", () => {
  it("Fleiss (1971) worked example: 0.20993", () => {
    const r = fleissKappaFromCounts([
      [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]);
    expect(r.kappa).toBeCloseTo(0.20993, 5);
    expect(r.po).toBeCloseTo(0.37802, 5);
    expect(r.pe).toBeCloseTo(0.213, 3); // printed as 0.213
    expect(r.items).toBe(10);
    expect(r.ratings).toBe(140);
  });

  // Krippendorff (2011), "Computing Krippendorff's alpha-reliability", data "C": 4 observers, 12 units.
  const N = null;
  const C = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
  ];
  const units = (C[0] as (number | null)[]).map((_, u) => C.map((o) => o[u]).filter((v): v is number => v !== null));
  it("Krippendorff (2011) C data: nominal 0.743421, interval 0.849107", () => {
    expect(krippendorffAlpha(units, "nominal").alpha).toBeCloseTo(0.743421, 6);
    expect(krippendorffAlpha(units, "interval").alpha).toBeCloseTo(0.849107, 6);
    // The single-valued unit 12 is not pairable: 11 units, 40 pairable values.
    expect(krippendorffAlpha(units, "interval").units).toBe(11);
    expect(krippendorffAlpha(units, "interval").values).toBe(40);
  });

  it("Cohen (Wikipedia example): po 0.7, pe 0.5, kappa 0.4", () => {
    const a = [...Array(25).fill("yes"), ...Array(25).fill("no")] as string[];
    const b = [...Array(20).fill("yes"), ...Array(5).fill("no"), ...Array(10).fill("yes"), ...Array(15).fill("no")] as string[];
    const r = cohenKappa(a, b);
    expect(r.po).toBeCloseTo(0.7, 12);
    expect(r.pe).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
  });

  it("binary vote counts: SGD 0.2501, MWOZ 0.1705", () => {
    const sgd = fleissKappaFromVoteCounts(3, { 0: 10612, 1: 1574, 2: 506, 3: 141 });
    expect(sgd.kappa).toBeCloseTo(0.2501, 4);
    expect(sgd.po).toBeCloseTo(0.8919, 4);
    expect(sgd.pe).toBeCloseTo(0.8559, 4);
    expect(sgd.items).toBe(12833);
    expect(fleissKappaFromVoteCounts(3, { 0: 8944, 1: 2022, 2: 466, 3: 121 }).kappa).toBeCloseTo(0.1705, 4);
  });
});

describe.skipIf(!hasAbRedial)("AB-ReDial overall satisfaction (from annotated_turns.csv)", () => {
  const turns = hasAbRedial ? readAbRedial() : [];
  const first3 = turns.filter((t) => t.ratings.length >= 3).map((t) => t.ratings.slice(0, 3));
  const all = turns.map((t) => t.ratings);

  it("has 600 turns, 599 with 3 or more raters", () => {
    expect(all).toHaveLength(600);
    expect(first3).toHaveLength(599);
  });
  it("first 3: Fleiss binary 0.3449, 5-point 0.2191, alpha interval 0.4234", () => {
    expect(fleissKappa(binary(first3)).kappa).toBeCloseTo(0.3449, 4);
    expect(fleissKappa(first3).kappa).toBeCloseTo(0.2191, 4);
    expect(krippendorffAlpha(first3, "interval").alpha).toBeCloseTo(0.4234, 4);
  });
  it("all raters (variable n): Fleiss binary 0.3763, 5-point 0.2321, alpha interval 0.4450", () => {
    expect(fleissKappa(binary(all)).kappa).toBeCloseTo(0.3763, 4);
    expect(fleissKappa(all).kappa).toBeCloseTo(0.2321, 4);
    expect(krippendorffAlpha(all, "interval").alpha).toBeCloseTo(0.445, 4);
  });
});

describe.skipIf(!hasUss)("USS (local only: the data may not enter the repo)", () => {
  const sgd = hasUss ? readUss("SGD") : [];
  const mwoz = hasUss ? readUss("MWOZ") : [];
  const first3 = (d: number[][][]): number[][] => d.flat().map((r) => r.slice(0, 3));

  it("SGD first 3: 12,833 items; binary 0.2501 (Po 0.8919, Pe 0.8559); 5-point 0.1806 (Po 0.6426, Pe 0.5639); alpha 0.2623", () => {
    const u = first3(sgd);
    expect(u).toHaveLength(12833);
    const b = fleissKappa(binary(u));
    expect(b.kappa).toBeCloseTo(0.2501, 4);
    expect(b.po).toBeCloseTo(0.8919, 4);
    expect(b.pe).toBeCloseTo(0.8559, 4);
    const f = fleissKappa(u);
    expect(f.kappa).toBeCloseTo(0.1806, 4);
    expect(f.po).toBeCloseTo(0.6426, 4);
    expect(f.pe).toBeCloseTo(0.5639, 4);
    expect(krippendorffAlpha(u, "interval").alpha).toBeCloseTo(0.2623, 4);
  });
  it("MWOZ first 3: 11,553 items; binary 0.1705 (Po 0.8564, Pe 0.8269); 5-point 0.1247", () => {
    const u = first3(mwoz);
    expect(u).toHaveLength(11553);
    const b = fleissKappa(binary(u));
    expect(b.kappa).toBeCloseTo(0.1705, 4);
    expect(b.po).toBeCloseTo(0.8564, 4);
    expect(b.pe).toBeCloseTo(0.8269, 4);
    expect(fleissKappa(u).kappa).toBeCloseTo(0.1247, 4);
  });
  it("SGD binary kappa, dialogue-block bootstrap (1,000 resamples): about [0.226, 0.274]", () => {
    const sessions: number[] = [];
    const counts: number[][] = [];
    sgd.forEach((d, s) => d.forEach((r) => {
      const yes = r.slice(0, 3).filter((x) => x <= 2).length;
      counts.push([3 - yes, yes]);
      sessions.push(s);
    }));
    const boot = sessionBlockBootstrap(fleissStatistic(counts), sessions, { resamples: 1000, seed: 20260901 });
    const k = boot.figures[0];
    expect(boot.sessions).toBe(1000);
    expect(k?.point).toBeCloseTo(0.2501, 4);
    // Another generator gives slightly other bounds: agree to within 0.006.
    expect(Math.abs((k?.lower ?? 0) - 0.226)).toBeLessThan(0.006);
    expect(Math.abs((k?.upper ?? 0) - 0.274)).toBeLessThan(0.006);
    expect(k?.emptyReplicates).toBe(0);
  });
});
