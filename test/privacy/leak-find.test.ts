// LeakFinder (leak-find.ts) answers as leakIn (corpus.ts) does, secret by secret: on the
// held-out sets' real secrets in texts cut from them, and on generated secrets and texts over a
// small alphabet (so pieces overlap, repeat and sit at the texts' ends).
import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, leakIn, loadCorpus } from "./corpus.js";
import { LeakFinder } from "./leak-find.js";

const expected = (secrets: readonly string[], text: string): number[] => secrets.flatMap((s, i) => (leakIn(text, s) !== null ? [i] : []));
const found = (secrets: readonly string[], text: string): number[] => [...new LeakFinder(secrets).foundIn(text)].sort((a, b) => a - b);

describe("LeakFinder", () => {
  it("finds what leakIn finds: generated secrets (short, long, sharing pieces) in generated texts", () => {
    const secret = fc.stringMatching(/^[ab1_]{0,40}$/);
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 6 }), fc.array(fc.oneof(fc.stringMatching(/^[ab1_ x]{0,30}$/), fc.nat()), { maxLength: 8 }), (secrets, parts) => {
        // A part is noise, or a cut of one of the secrets (a whole, a window, a few characters).
        const text = parts.map((p) => (typeof p === "string" ? p : secrets[p % secrets.length]!.slice(p % 7, (p % 7) + 4 + (p % 29)))).join("");
        expect(found(secrets, text)).toEqual(expected(secrets, text));
      }),
      { numRuns: 2000 },
    );
  });

  it("finds what leakIn finds: the fixtures' secrets, in their own texts, halves of them and a text of all of them", () => {
    const secrets = [CORPUS_FILE, join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-8.yaml")].flatMap((f) => loadCorpus(f).secrets);
    const values = secrets.map((s) => s.secret);
    const texts = [...secrets.map((s) => s.text), ...secrets.map((s) => s.text.slice(0, s.text.indexOf(s.secret) + Math.floor(s.secret.length / 2))), secrets.map((s) => s.text).join("\n"), ""];
    let hits = 0;
    for (const t of texts) {
      const want = expected(values, t);
      hits += want.length;
      expect(found(values, t)).toEqual(want);
    }
    expect(hits).toBeGreaterThan(secrets.length);
  });
});
