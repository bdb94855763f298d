// The long-text filters of the classifier (compile.ts: the word table, the words a rule's
// match needs, start words; frustration.ts: the capitals count that stops early) must give
// exactly the verdicts of the plain path (every window around a key tried with the rule's
// whole regex, every letter counted). Generated long prompts mix the rules' own words with
// other words, punctuation, apostrophes, capitals and the characters the filters treat apart.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { classify } from "../../runtime/classifier/classify.js";
import { isWordChar } from "../../runtime/classifier/compile-core.js";
import { setLongTextFilters, setShortFilterAlways, tokenRuns } from "../../runtime/classifier/compile.js";
import { leadingRun, ruleNeeds } from "../../runtime/classifier/index-build.js";
import { setRegexCutting, type CutMode } from "../../runtime/classifier/prune.js";
import { bundledExchanges } from "../helpers/exchanges.js";
import { languages, RULE_CATEGORIES } from "../../runtime/classifier/lang-data.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));

afterEach(() => {
  setLongTextFilters(true);
});

/** The verdict with the filters on and off. */
function bothWays(text: string, previousReply: string | null): [unknown, unknown] {
  setLongTextFilters(true);
  const fast = classify(text, { previousReply });
  setLongTextFilters(false);
  const plain = classify(text, { previousReply });
  setLongTextFilters(true);
  return [fast, plain];
}

/** Every word of every rule's keys and patterns, and the number words: what makes rules fire. */
function ruleWords(): string[] {
  const words = new Set<string>();
  for (const l of languages()) {
    for (const category of RULE_CATEGORIES) {
      for (const r of l[category]) {
        for (const k of r.keys) words.add(k.replace("*", "ing"));
        for (const w of r.re.split(/[^a-z'\u00df-\u024f\u0400-\u04ff]+/)) if (w) words.add(w);
      }
    }
    for (const w of Object.keys(l.numbers)) words.add(w);
  }
  return [...words].sort();
}

const WORDS = ruleWords();
const SEPARATORS = [" ", " ", " ", " ", " ", ", ", ". ", "! ", "? ", "!! ", "\n", " - ", "-", "'", " '", "\u2019", " \u1680", "\u00a0", " 8/10 ", " 7 ", "  ", "?! ", " ```x``` ", " \u{1F600} ", " (", ") ", "\u3000"];
const REPLIES = [null, "Done. Want me to commit these changes?", "I moved it to utils/. Is that right?", "How would you rate this answer from 1 to 10?", "Two ways:\n1. Patch it\n2. Rewrite it\nWhich one?", "I've updated the config loader."];

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{1,9}$/) },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => w.toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => `${w[0]?.toUpperCase() ?? ""}${w.slice(1)}`) },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => `'${w}'`) },
);
const piece = fc.tuple(word, fc.constantFrom(...SEPARATORS)).map(([w, s]) => w + s);
/** Prompts long enough for the long-text path (400 characters and more). */
const longPrompt = fc.array(piece, { minLength: 60, maxLength: 260 }).map((parts) => parts.join(""));

describe("the long-text filters give the plain path's verdicts", () => {
  it("on generated long prompts", () => {
    fc.assert(
      fc.property(longPrompt, fc.constantFrom(...REPLIES), fc.boolean(), (text, reply, shout) => {
        const [fast, plain] = bothWays(shout ? text.toUpperCase() : text, reply);
        expect(fast).toEqual(plain);
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it("on long prompts made of the bundled sessions' prompts (as the bench makes them) and their shifts", () => {
    const dir = join(repoRoot, "datasets");
    let pool = "";
    for (const set of readdirSync(dir)) {
      const file = join(dir, set, "exchanges.jsonl");
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim()) pool += ` ${(JSON.parse(line) as { prompt: string }).prompt}`;
      }
    }
    let compared = 0;
    for (const length of [400, 700, 1000, 2500]) {
      for (let at = 0; at + length <= pool.length; at += 997) {
        const [fast, plain] = bothWays(pool.slice(at, at + length), REPLIES[compared % REPLIES.length] ?? null);
        expect(fast).toEqual(plain);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it("finds what the plain path finds near the ends of windows and texts", () => {
    const filler = "lorem ipsum dolor sit amet ".repeat(20);
    for (const phrase of ["that's wrong", "you didn't read the spec", "I already told you to use pnpm", "great job", "it still doesn't compile", "why did you do that", "I don't like it", "come on!!"]) {
      for (const text of [`${phrase} ${filler}`, `${filler}${phrase}`, `${filler}${phrase} ${filler}`, `${filler.slice(0, 62)} ${phrase} ${filler}`]) {
        const [fast, plain] = bothWays(text, null);
        expect(fast).toEqual(plain);
        expect((fast as { signals: string[] }).signals.length).toBeGreaterThan(0);
      }
    }
  });

  it("agrees wherever a window starts and ends, with words led by apostrophes too", () => {
    const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ".repeat(8);
    for (const phrase of ["'that's wrong", "''you didn't read it", "that's 'wrong'", "x'that's wrong", "i 'really' don't like it", "'great' job"]) {
      for (let at = 0; at < 140; at += 1) {
        const text = `${words.slice(0, at)} ${phrase} ${words}`;
        const [fast, plain] = bothWays(text, null);
        expect(fast).toEqual(plain);
      }
    }
  });
});

describe("the short-text filter (a rule tried only when the text holds the words its match needs) gives the plain path's verdicts", () => {
  // In a long-lived process a rule once compiled is no longer checked, and a rule whose regex
  // is cut to the text needs no check: check every time here, with whole regexes.
  let cutMode: CutMode = "first-uses";
  beforeAll(() => {
    setShortFilterAlways(true);
    cutMode = setRegexCutting("off");
  });
  afterAll(() => {
    setShortFilterAlways(false);
    setRegexCutting(cutMode);
  });
  /** Prompts shorter than the long-text path. */
  const shortPrompt = fc.array(piece, { minLength: 1, maxLength: 24 }).map((parts) => parts.join("").slice(0, 399));

  it("on generated short prompts", () => {
    fc.assert(
      fc.property(shortPrompt, fc.constantFrom(...REPLIES), fc.boolean(), (text, reply, shout) => {
        const [fast, plain] = bothWays(shout ? text.toUpperCase() : text, reply);
        expect(fast).toEqual(plain);
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it("on every typed prompt of the bundled corpora", () => {
    const exchanges = bundledExchanges();
    for (const e of exchanges) {
      const [fast, plain] = bothWays(e.prompt, e.reply_end);
      expect(fast).toEqual(plain);
    }
    expect(exchanges.length).toBeGreaterThan(3000);
  });

  it("reads a text's tokens as the index reads a rule's words: a token's leading run of letters", () => {
    const alphabet = ["a", "t", "h", "s", "'", "'", " ", ".", "-", "7", "_", "T", "ä", "ß", "д", "Д", "÷", "×", "\u00a0", "\u2019", "é", "\u0300", "!"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        const expected = new Set<string>();
        for (const token of text.split(/(?:)/u).reduce<string[]>((acc, ch) => {
          if (isWordChar(ch.charCodeAt(0))) acc[acc.length - 1] += ch;
          else acc.push("");
          return acc;
        }, [""])) {
          const run = leadingRun(token);
          if (run !== "") expected.add(run);
        }
        expect(tokenRuns(text)).toEqual(expected);
      }),
      { numRuns: 3000, seed: 5 },
    );
    expect(tokenRuns("that\u1680wrong")).toBeNull();
  });

  it("with words next to apostrophes, digits, capitals and U+1680", () => {
    for (const phrase of ["that's wrong", "'that's' wrong", "that\u1680wrong", "i already told you", "i\u1680already told you", "you2 didn't read it", "THAT'S WRONG", "you didn't_ read it", "great job'", "it still doesn't compile"]) {
      const [fast, plain] = bothWays(phrase, null);
      expect(fast).toEqual(plain);
    }
  });
});

describe("the words a rule's match needs", () => {
  it("reads them from the pattern: start words, and what a match starting with each needs", () => {
    expect(ruleNeeds("great (?:job|work)", ["great"])).toEqual({ clauses: [["job", "work"]], starts: [{ word: "great", clauses: [["job", "work"]] }] });
    // An optional first word: either word can start a match.
    expect(ruleNeeds("(?:so )?helpful", ["helpful"]).starts?.map((s) => s.word)).toEqual(["helpful", "so"]);
    // A match that can start with punctuation or anywhere in a word: start words unknown.
    expect(ruleNeeds("(?:^|[.!?] )i said", ["said"]).starts).toBeNull();
    expect(ruleNeeds("{w}ing again", ["again"]).starts).toBeNull();
  });

  it("takes a token's run of letters, so \"don't\" and \"that's\" are known by \"don\" and \"that\"", () => {
    expect(leadingRun("don't")).toBe("don");
    expect(leadingRun("'that's")).toBe("that");
    expect(ruleNeeds("do ?n'?t (?:stop|quit)", ["stop", "quit"]).starts?.map((s) => s.word)).toEqual(["do", "don", "dont"]);
  });

  it("every rule's pattern can be read", () => {
    for (const l of languages()) for (const category of RULE_CATEGORIES) for (const r of l[category]) if (r.at === "any") expect(() => ruleNeeds(r.re, r.keys)).not.toThrow();
  });

  it("a pattern's white space ends a token: only U+1680 is white space to a regex and a word character to the tokenizer", () => {
    const both: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (/\s/.test(String.fromCharCode(c)) && isWordChar(c)) both.push(c);
    expect(both).toEqual([0x1680]);
  });
});
