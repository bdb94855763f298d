// letters.ts stands in for three Unicode property patterns (run by hand, without compiling them,
// for ASCII and symbols): each answer must be the pattern's. Checked over every code point, over
// words and lines made from characters around the boundaries it reasons about (fast-check), and
// over the real sessions' texts cut into words and lines.
import fc from "fast-check";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isLetter, letterWord, secretStem, symbolOnly } from "../../runtime/privacy/letters.js";
import { realTurns, transcriptsDir } from "../../bench/redact-data.js";
import { loadCorpus } from "./corpus.js";

const LETTER = /\p{L}/u;
const LETTER_WORD = /^\p{L}[\p{L}\p{M}\u200c\u200d]+$/u;
const STEM = /(?:^|[^\p{L}])(?:api|token|secret|passw|apikey|key)/iu;
const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Every code point but the surrogates' (tested alone below). */
function* codePoints(): Generator<number> {
  for (let cp = 0; cp < 0x110000; cp++) if (cp < 0xd800 || cp > 0xdfff) yield cp;
}

describe("letters", () => {
  it("symbolOnly holds no letter, mark or joiner; isLetter is \\p{L} on every code point and lone surrogate", () => {
    const wrong: string[] = [];
    for (const cp of codePoints()) {
      const ch = String.fromCodePoint(cp);
      if (symbolOnly(cp) && (LETTER.test(ch) || /\p{M}/u.test(ch) || cp === 0x200c || cp === 0x200d)) wrong.push(`symbol ${cp.toString(16)}`);
      if (isLetter(ch) !== LETTER.test(ch)) wrong.push(`letter ${cp.toString(16)}`);
    }
    for (let c = 0xd800; c <= 0xdfff; c++) if (isLetter(String.fromCharCode(c)) !== LETTER.test(String.fromCharCode(c))) wrong.push(`surrogate ${c.toString(16)}`);
    expect(wrong).toEqual([]);
    // The blocks it names are there: an emoji, an arrow and a dingbat are told without the pattern.
    expect([0x1f389, 0x2192, 0x2705].every(symbolOnly)).toBe(true);
  });

  it("the stem's reasoning holds: only the Kelvin sign and the long s match an ASCII letter under iu, only U+0130 lower-cases to another length", () => {
    const odd: string[] = [];
    for (const cp of codePoints()) {
      if (cp < 0x80) continue;
      const ch = String.fromCodePoint(cp);
      if ([..."apitokensecrwy"].some((l) => new RegExp(l, "iu").test(ch))) odd.push(`folds ${cp.toString(16)}`);
      const lower = ch.toLowerCase();
      if (lower.length !== ch.length || /[\x00-\x7f]/.test(lower)) odd.push(`lower ${cp.toString(16)}`);
    }
    expect(odd.sort()).toEqual(["folds 17f", "folds 212a", "lower 130", "lower 212a"]);
  });

  // Characters around what letters.ts reasons about: ASCII, the joiners, marks, Latin, Cyrillic,
  // the symbol blocks and their edges, emoji as pairs and lone halves, the Kelvin sign, the long s, U+0130.
  const near = fc.constantFrom(
    ..."aKkSsyIiEe_-0 .:/'\"\n",
    ..."\u200b\u200c\u200d\u200e\u0301\u0300\u093f\u094d\u00e9\u00df\u0416\u0436\u03a3\u05d0\u0627\u4e2d\u30ad",
    ..."\u1fff\u2000\u206f\u2070\u2071\u218f\u2190\u23ff\u2400\u245f\u2460\u24b6\u24ff\u2500\u27bf\u27c0\u28ff\u2900\u2bff\u2c00",
    "\u{1f389}", "\u{1f600}", "\u{1faff}", "\u{1fb00}", "\u{1d400}", "\ud83c", "\udf89", "\u2705\ufe0f", "\u212a", "\u017f", "\u0130", "\u0131",
  );
  const words = ["api", "token", "secret", "passw", "apikey", "key", "API", "Token", "SECRET", "Passw", "\u212aey", "\u017fecret", "pa\u017f\u017fw", "AP\u0130"];

  it("letterWord and secretStem answer as the patterns on made words and lines", () => {
    fc.assert(
      fc.property(fc.array(near, { maxLength: 8 }), (parts) => {
        const w = parts.join("");
        expect(letterWord(w)).toBe(LETTER_WORD.test(w));
        expect(isLetter(w.length > 0 ? String.fromCodePoint(w.codePointAt(0)!) : "")).toBe(w.length > 0 && LETTER.test(String.fromCodePoint(w.codePointAt(0)!)));
      }),
      { numRuns: 20000, seed: 34 },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(near, fc.constantFrom(...words)), { maxLength: 10 }), (parts) => {
        const line = parts.join("");
        expect(secretStem(line)).toBe(STEM.test(line));
      }),
      { numRuns: 20000, seed: 34 },
    );
  });

  it("answers as the patterns on the corpus and the real sessions' texts, cut into words and lines", () => {
    const texts = [...loadCorpus().secrets.map((s) => s.text), ...realTurns(transcriptsDir(repoRoot)).flatMap((t) => t.texts)];
    let checked = 0;
    for (const text of texts) {
      for (const line of text.split("\n")) {
        expect(secretStem(line)).toBe(STEM.test(line));
        for (const w of line.split(/[\s,.:;!?"'()«»]+/)) {
          expect(letterWord(w)).toBe(LETTER_WORD.test(w));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
