// Long texts (an "any" rule is tried in windows around its keys, with one regex cut to the
// whole text for all its windows) and what does not depend on the process: a classifier that
// has classified other prompts (its regexes compiled whole, its key index made an object)
// gives a fresh one's verdicts, and cut regexes give whole ones' verdicts. The generated
// prompts mix phrases that fire rules (several keyed by the same words), filler, tokens whose
// letters are broken by apostrophes, digits or other scripts, very long words and capitals.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classify, makeClassifier, mostCommonLanguage } from "../../runtime/classifier/classify.js";
import { loadIndex } from "../../runtime/classifier/index-file.js";

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
/** At least 400 characters: several windows per text. */
const longPrompt = fc
  .array(piece, { minLength: 40, maxLength: 200 })
  .map((parts) => parts.join(""))
  .filter((t) => t.trim().length >= 400);

const REPLIES = [null, "Done. Want me to commit these changes?", "Is that right?", "How would you rate this answer from 1 to 10?"];

describe("long texts", () => {
  it("a phrase fires wherever it sits: at the start, at the end, in the middle, against a window's edge", () => {
    const filler = "lorem ipsum dolor sit amet ".repeat(20);
    for (const phrase of ["that's wrong", "you didn't read the spec", "I already told you to use pnpm", "great job", "it still doesn't compile", "why did you do that", "I don't like it", "come on!!"]) {
      for (const text of [`${phrase} ${filler}`, `${filler}${phrase}`, `${filler}${phrase} ${filler}`, `${filler.slice(0, 62)} ${phrase} ${filler}`]) {
        expect(classify(text).signals.length, `${phrase} in ${text.length} characters`).toBeGreaterThan(0);
      }
    }
  });

  it("a phrase fires wherever its window starts and ends, with a quoted word inside it too", () => {
    const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ".repeat(8);
    for (const phrase of ["I don't like it", "you didn't read it", "that's a great idea", "it still doesn't compile", "not a fan of this", "i 'really' don't like it"]) {
      for (let at = 0; at < 150; at += 1) {
        const text = `${words.slice(0, at)} ${phrase} ${words}`;
        expect(classify(text).signals.length, `${phrase} at ${at}`).toBeGreaterThan(0);
      }
    }
  });
});

describe("verdicts that do not depend on the process", () => {
  it("cut regexes (every use) give the verdicts of whole ones on generated long prompts", () => {
    const cut = makeClassifier({ cutUses: Infinity });
    const whole = makeClassifier({ cutUses: 0 });
    let withSeveral = 0;
    fc.assert(
      fc.property(longPrompt, fc.constantFrom(...REPLIES), (text, reply) => {
        const v = cut(text, { previousReply: reply });
        expect(v).toEqual(whole(text, { previousReply: reply }));
        if (v.signals.length >= 3) withSeveral++;
      }),
      { numRuns: 300, seed: 23 },
    );
    // The prompts fire rules (a comparison of empty verdicts would prove nothing).
    expect(withSeveral).toBeGreaterThan(200);
  });

  it("a classifier that has classified other prompts gives a fresh one's verdicts", () => {
    const warm = makeClassifier();
    // Enough prompts for every rule regex to be compiled whole and the key index made an object.
    fc.assert(
      fc.property(longPrompt, fc.constantFrom(...REPLIES), (text, reply) => {
        warm(text, { previousReply: reply });
      }),
      { numRuns: 300, seed: 31 },
    );
    fc.assert(
      fc.property(longPrompt, fc.constantFrom(...REPLIES), (text, reply) => {
        expect(warm(text, { previousReply: reply })).toEqual(makeClassifier()(text, { previousReply: reply }));
      }),
      { numRuns: 60, seed: 37 },
    );
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
