// BM25 against a hand computation and against wink-bm25-text-search (the oracle) on the
// bundled real rule sets: the same top 4 for every query, up to ties.
import { createRequire } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Bm25, termCounts } from "../../runtime/rules/bm25.js";
import { buildIndex } from "../../runtime/rules/build.js";
import { unitTerms } from "../../runtime/rules/search.js";
import { discoverSources } from "../../runtime/rules/sources.js";
import { words } from "../../runtime/rules/tokenize.js";
import { claudeMdDir, claudeMdRepos } from "./helpers.js";

const require = createRequire(import.meta.url);
interface Wink {
  defineConfig(c: object): void;
  definePrepTasks(t: Array<(s: string) => string[]>): void;
  addDoc(d: object, id: number): void;
  consolidate(): void;
  search(q: string, limit: number): Array<[string, number]>;
}
const winkBm25 = require("wink-bm25-text-search") as () => Wink;

describe("BM25 (Okapi, k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5) / (n + 0.5)))", () => {
  it("gives the hand-computed score", () => {
    // N = 3, n = 1: idf = ln(1 + 2.5 / 1.5) = 0.980829; avgdl = 5/3, |d| = 2:
    // tf part = 2.2 / (1 + 1.2 * (0.25 + 0.75 * 1.2)) = 0.924370; score 0.906648.
    const b = new Bm25([["use", "bun"], ["no", "mocks"], ["tabs"]]);
    const [hit, ...rest] = b.search(new Map([["bun", 1]]), 4);
    expect(rest).toEqual([]);
    expect(hit?.doc).toBe(0);
    expect(hit?.score).toBeCloseTo(0.906648, 5);
    expect(b.idf("bun")).toBeCloseTo(0.980829, 5);
    expect(b.idf("absent")).toBeCloseTo(Math.log(1 + 3.5 / 0.5), 9);
  });

  it("a query term's weight scales its part of the score", () => {
    const b = new Bm25([["use", "bun"], ["no", "mocks"], ["tabs", "bun"]]);
    const one = b.search(new Map([["bun", 1]]), 4);
    const two = b.search(new Map([["bun", 2]]), 4);
    expect(two.map((h) => h.doc)).toEqual(one.map((h) => h.doc));
    two.forEach((h, i) => expect(h.score).toBeCloseTo(2 * (one[i]?.score ?? 0), 12));
  });

  it("scores are never negative and ties keep document order (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom("a", "b", "c", "d", "e"), { maxLength: 6 }), { minLength: 1, maxLength: 12 }), fc.array(fc.constantFrom("a", "b", "c", "x"), { minLength: 1, maxLength: 4 }), (docs, q) => {
        const hits = new Bm25(docs).search(termCounts(q), 20);
        for (let i = 1; i < hits.length; i++) {
          const a = hits[i - 1];
          const h = hits[i];
          if (a === undefined || h === undefined) return false;
          if (a.score < h.score || (a.score === h.score && a.doc > h.doc)) return false;
        }
        return hits.every((h) => h.score > 0);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });
});

describe("BM25 against wink-bm25-text-search on the bundled rule sets", () => {
  it("the same top 4 for every query, scores equal to 1e-3 (wink rounds each term's part to 4 decimals)", () => {
    let queries = 0;
    let sets = 0;
    for (const repo of claudeMdRepos) {
      const sources = discoverSources({ root: join(claudeMdDir, repo), home: null, managed: [], extra: [] });
      const units = buildIndex(sources, null, { today: "2026-12-01", projects: [] }).index.units;
      if (units.length < 3) continue; // wink refuses fewer than 3 documents
      sets++;
      const docs = units.map(unitTerms);
      const mine = new Bm25(docs);
      const wink = winkBm25();
      wink.defineConfig({ fldWeights: { body: 1 } });
      // The oracle tokenises with the same words(); terms are joined and split back on a
      // character no word contains.
      wink.definePrepTasks([(s: string) => s.split("\u0001").filter((t) => t.length > 0)]);
      docs.forEach((d, i) => wink.addDoc({ body: d.join("\u0001") }, i));
      wink.consolidate();
      const texts = [
        ...units.filter((_, i) => i % 7 === 0).map((u) => u.text.split(/\s+/).slice(0, 8).join(" ")),
        "no, never commit directly to main",
        "you used npm again, I said pnpm",
        "the tests are failing, run them before you say done",
        "不要使用 npm",
      ];
      for (const text of texts) {
        const terms = words(text);
        const hits = mine.search(termCounts(terms), 4);
        const oracle = wink.search(terms.join("\u0001"), 4);
        queries++;
        expect(hits.length, `${repo}: "${text}"`).toBe(oracle.length);
        const oracleScore = new Map(wink.search(terms.join("\u0001"), units.length).map(([id, s]) => [Number(id), s]));
        hits.forEach((h, i) => {
          expect(h.score, `${repo}: "${text}" rank ${i + 1}`).toBeCloseTo(oracle[i]?.[1] ?? NaN, 3);
          expect(oracleScore.get(h.doc), `${repo}: "${text}" doc ${h.doc}`).toBeCloseTo(h.score, 3);
        });
      }
    }
    expect(sets).toBeGreaterThanOrEqual(30);
    expect(queries).toBeGreaterThan(400);
  });
});
