// letters.ts stands in for three Unicode property patterns (run by hand, without compiling them,
// for ASCII and symbols): each answer must be the pattern's. Checked over every code point, over
// words and lines made from characters around the boundaries it reasons about (fast-check), and
// over the real sessions' texts cut into words and lines.
import fc from "fast-check";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isLetter, letterWord, secretStem, symbolOnly } from "../../runtime/privacy/letters.js";
import { proseSecret, proseWitness, proseWitnessEveryRun } from "../../runtime/privacy/witness-families.js";
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

/** proseSecret as it was written with patterns (before it read its token by hand): the reference. */
function proseSecretByPatterns(v: string, otherScript: boolean): boolean {
  const entropy = (t: string): number => {
    const counts = new Map<string, number>();
    for (const ch of t) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    let h = 0;
    for (const n of counts.values()) h -= (n / t.length) * Math.log2(n / t.length);
    return h;
  };
  const decodesToText = (t: string): boolean => {
    if (!/^[A-Za-z0-9+/_-]{12,}={0,2}$/.test(t)) return false;
    const body = t.replace(/=+$/, "");
    const bytes = Buffer.from(body.slice(0, body.length - (body.length % 4)), "base64");
    return bytes.length >= 9 && bytes.every((b) => b >= 0x20 && b < 0x7f);
  };
  v = v.replace(/^[A-Za-z]{1,6}#/, "");
  if (v.length < 10 || v.length > 64 || !/^[A-Za-z0-9!#$%&*+?^_~-]+$/.test(v) || /^(?:0x)?[0-9a-fA-F]+$/.test(v)) return false;
  if (!/[A-Za-z]\d+[A-Za-z]|\d[A-Za-z]+\d/.test(v) && !/^[A-Za-z]{3,}\d{2,}$/.test(v)) return false;
  const digits = (v.match(/\d/g) ?? []).length;
  const both = /[a-z]/.test(v) && /[A-Z]/.test(v);
  if (!(both && digits >= 2) && !(otherScript && digits >= 3 && (v.match(/[A-Za-z]/g) ?? []).length >= 3)) return false;
  const runs = (v.match(/[a-z]+|[A-Z]+|\d+|[^A-Za-z0-9]+/g) ?? []).length;
  if (runs < (both || !otherScript ? 5 : 3)) return false;
  let words = 0;
  // With the tenth-set pass's change: a run of three whose capital ends a run of capitals is no word.
  for (const m of v.matchAll(/[A-Z]?[a-z]{2,}/g)) if (m[0].length >= 3 && !(m[0].length === 3 && m.index > 0 && /[A-Z]/.test(m[0][0]!) && /[A-Z]/.test(v[m.index - 1]!)) && /[aeiou]/.test(m[0].slice(1)) && 3 * (m[0].match(/[aeiouAEIOU]/g) ?? []).length >= m[0].length) words += m[0].length;
  return words < 0.4 * v.length && entropy(v) > 3 && !decodesToText(v);
}

describe("proseSecret read by hand", () => {
  it("answers as the patterns' version on made tokens and on every run of the corpus and the real sessions", () => {
    const ch = fc.constantFrom(..."abcdefxyzoiuAEFKQXZ0123456789#!$%&*+?^_~-=/. \u00e9", "Ref#", "0x", "Pro", "Max", "eyJ");
    let kept = 0;
    fc.assert(
      fc.property(fc.array(ch, { minLength: 4, maxLength: 40 }), fc.boolean(), (parts, other) => {
        const v = parts.join("");
        const want = proseSecretByPatterns(v, other);
        if (want) kept++;
        expect(proseSecret(v, other), JSON.stringify(v)).toBe(want);
      }),
      { numRuns: 30000, seed: 34 },
    );
    expect(kept).toBeGreaterThan(1000);
    const texts = [...loadCorpus().secrets.map((s) => s.text), ...realTurns(transcriptsDir(repoRoot)).flatMap((t) => t.texts)];
    for (const t of texts) for (const run of t.split(/[^A-Za-z0-9!#$%&*+?^_~=/-]+/)) for (const other of [false, true]) expect(proseSecret(run, other), run).toBe(proseSecretByPatterns(run, other));
  });
});

describe("proseWitness finds its runs from their digits", () => {
  it("answers as the scan of every run on made texts, the corpus and every text of the real sessions", () => {
    // A line of words around a token made of run characters and a few others, some lines joined.
    const word = fc.constantFrom("the", "my", "new", "password", "is", "login", "with", "use", "now", "\u00e9t\u00e9", "Ref", "v2", "x9", "4242");
    const tokenChar = fc.constantFrom(..."abcdefxyzAEFKQXZ0123456789#!$%&*+?^_~-=/.:{>\u00e9");
    const line = fc.tuple(fc.array(word, { maxLength: 5 }), fc.array(tokenChar, { minLength: 6, maxLength: 70 }), fc.array(word, { maxLength: 5 }), fc.constantFrom("", "> ", "  ")).map(([a, t, b, lead]) => `${lead}${[...a, t.join(""), ...b].join(" ")}`);
    let held = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), (lines) => {
        const t = lines.join("\n");
        const want = proseWitnessEveryRun(t);
        if (want) held++;
        expect(proseWitness(t), JSON.stringify(t)).toBe(want);
      }),
      { numRuns: 20000, seed: 34 },
    );
    expect(held).toBeGreaterThan(500);
    const texts = [...loadCorpus().secrets.map((s) => s.text), ...loadCorpus().lookAlikes.map((s) => s.text), ...realTurns(transcriptsDir(repoRoot)).flatMap((t) => t.texts)];
    let real = 0;
    for (const t of texts) {
      const want = proseWitnessEveryRun(t);
      if (want) real++;
      expect(proseWitness(t), t.slice(0, 200)).toBe(want);
    }
    expect(real).toBeGreaterThan(10);
  });
});
