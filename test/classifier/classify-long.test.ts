// The long-text scan (compile.ts: one pass that tokenizes and looks every token up in the word
// table, key hits grouped by rule, one window per key token shared by the rules it keys, a
// window's tokens read once from its end) must give exactly the verdicts of the plain path
// (filters off: the short tokenizer, the index's own maps, every window tried with the rule's
// whole regex). These tests aim at what that scan does apart: many rules hit in mixed order
// (the verdict's signals are in rule order), keys shared by several rules, a text scanned
// right after another whose key tokens sit at the same token numbers, words whose run (the
// letters before an apostrophe, a digit or another script) is looked up on its own, very long
// words, and the window edges.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { classify, mostCommonLanguage, type CaptureVerdict } from "../../runtime/classifier/classify.js";
import { buildMatchers, scan, setLongTextFilters } from "../../runtime/classifier/compile.js";
import { loadIndex } from "../../runtime/classifier/index-file.js";

afterEach(() => {
  setLongTextFilters(true);
});

function fast(text: string, previousReply: string | null = null): CaptureVerdict {
  setLongTextFilters(true);
  return classify(text, { previousReply });
}

function plain(text: string, previousReply: string | null = null): CaptureVerdict {
  setLongTextFilters(false);
  try {
    return classify(text, { previousReply });
  } finally {
    setLongTextFilters(true);
  }
}

/** Phrases that fire rules (several keyed by the same words: "not", "don't", "that", "good"). */
const PHRASES = [
  "that's wrong",
  "that's not right",
  "you didn't read the spec",
  "you still haven't fixed it",
  "I already told you to use pnpm",
  "as I said before",
  "great job",
  "that's a great idea",
  "sounds good",
  "this looks good",
  "it still doesn't compile",
  "it doesn't work",
  "why did you do that",
  "I don't like it",
  "I'm not a fan",
  "not a fan of this",
  "don't do that",
  "from now on always use tabs",
  "never ever push to main",
  "thank you so much",
  "again?!",
  "for the third time",
  "seriously?!",
  "what the hell",
  "ugh",
  "come on!!",
  "that's too bad",
  "this is too slow",
  "das ist falsch",
  "c'est faux",
  "no funciona",
  "это неправильно",
  "ei toimi",
  "não funciona",
];
const FILLER = ["the", "a", "it", "that", "this", "not", "good", "you", "don't", "i", "so", "one", "what", "do", "lorem", "ipsum", "config", "loader", "tests", "pass"];
/** Tokens whose run differs from the whole token, and very long ones. */
const ODD = ["don't", "that's", "you'd", "i'm", "'that'", "great's", "you2", "good_one", "gréat", "nót", "do\u0301", "дa", "x".repeat(260), `good${"o".repeat(300)}`, "n't", "''", "'s"];
const SEPARATORS = [" ", " ", " ", ", ", ". ", "! ", "? ", "\n", " - ", "'", "\u2019", "\u00a0", " 8/10 "];

const part = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PHRASES) },
  { weight: 4, arbitrary: fc.constantFrom(...FILLER) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: fc.constantFrom(...PHRASES).map((p) => p.toUpperCase()) },
);
const piece = fc.tuple(part, fc.constantFrom(...SEPARATORS)).map(([w, s]) => w + s);
/** At least 400 characters: the long-text path. */
const longPrompt = fc
  .array(piece, { minLength: 40, maxLength: 200 })
  .map((parts) => parts.join(""))
  .filter((t) => t.trim().length >= 400);

describe("the long-text scan gives the plain path's verdicts", () => {
  it("with many rules hit in mixed order, keys shared by rules, runs looked up on their own and very long words", () => {
    let withSeveral = 0;
    fc.assert(
      fc.property(longPrompt, fc.constantFrom(null, "Done. Want me to commit these changes?", "Is that right?"), (text, reply) => {
        const f = fast(text, reply);
        expect(f).toEqual(plain(text, reply));
        if (f.signals.length >= 3) withSeveral++;
      }),
      { numRuns: 300, seed: 23 },
    );
    // The prompts fire rules (a comparison of empty verdicts would prove nothing).
    expect(withSeveral).toBeGreaterThan(200);
  });

  it("for a text scanned right after another (no window or hit of the one before is reused)", () => {
    fc.assert(
      fc.property(longPrompt, longPrompt, fc.integer({ min: 1, max: 70 }), (first, second, shift) => {
        // The second text often has its key tokens at the first one's token numbers, shifted.
        const shifted = `${"y".repeat(shift)} ${second}`;
        for (const [a, b] of [
          [first, second],
          [second, shifted],
          [shifted, second],
        ] as const) {
          fast(a);
          const f = fast(b);
          expect(f).toEqual(plain(b));
        }
      }),
      { numRuns: 120, seed: 29 },
    );
  });

  it("finds a phrase wherever it sits against its window's edges, after a text that put the same key token elsewhere", () => {
    const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ".repeat(8);
    let fired = 0;
    for (const phrase of ["I don't like it", "you didn't read it", "that's a great idea", "it still doesn't compile", "not a fan of this"]) {
      for (let at = 0; at < 150; at += 3) {
        const text = `${words.slice(0, at)} ${phrase} ${words}`;
        // The same phrase one token number on, far away: a stale window would sit on lorem ipsum.
        fast(`${words.slice(0, at)} x ${words.slice(0, 300)} ${phrase} ${words}`);
        const f = fast(text);
        expect(f).toEqual(plain(text));
        if (f.signals.length > 0) fired++;
      }
    }
    expect(fired).toBeGreaterThan(200);
  });
});

describe("the language of a verdict when rules of several languages fire as often", () => {
  /** The way it was first written: every code point looked up in the language's typical letters. */
  function reference(fired: Array<{ lang: string }>, lower: string, letters: Record<string, string>): string | null {
    if (fired.length === 0) return null;
    const counts = new Map<string, number>();
    for (const r of fired) counts.set(r.lang, (counts.get(r.lang) ?? 0) + 1);
    let best: string[] = [];
    let bestCount = 0;
    for (const [lang, n] of counts) {
      if (n > bestCount) [best, bestCount] = [[lang], n];
      else if (n === bestCount) best.push(lang);
    }
    if (best.length === 1) return best[0] ?? null;
    let winner = best[0] ?? null;
    let winnerScore = -1;
    for (const lang of best) {
      const l = letters[lang] ?? "";
      let score = 0;
      for (const ch of lower) if (l.includes(ch)) score++;
      if (score > winnerScore) [winner, winnerScore] = [lang, score];
    }
    return winner;
  }

  it("goes to the language whose typical letters occur most, as counting every code point does", () => {
    const letters = loadIndex().letters;
    const langs = Object.keys(letters);
    const chars = [..."aeiou ,.äöåüßñ¿¡áéíóúàâçèêëîïôûùœãõабвгдеёжзийклмнопрстуфхцчшщъыьэюя", "\u{1F600}", "\uD83D"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...langs), { minLength: 1, maxLength: 6 }), fc.array(fc.constantFrom(...chars), { maxLength: 300 }), (fired, text) => {
        const rules = fired.map((lang) => ({ lang }));
        const lower = text.join("");
        expect(mostCommonLanguage(rules, lower)).toBe(reference(rules, lower, letters));
      }),
      { numRuns: 3000, seed: 17 },
    );
  });
});

describe("the word table", () => {
  it("is built on a process's second long text, not its first (a hook classifies one prompt: the plain way costs it less)", () => {
    const m = buildMatchers();
    const text = "please look at the failing test in the parser module again and explain why it fails ".repeat(6);
    expect(text.length).toBeGreaterThan(400);
    scan(m, text.toLowerCase());
    expect(m.table).toBeNull();
    scan(m, text.toLowerCase());
    expect(m.table).not.toBeNull();
  });
});
