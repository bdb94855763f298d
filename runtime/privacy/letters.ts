/**
 * Exact stand-ins for the Unicode property patterns that the prose witnesses (witness-families.ts)
 * and the prose rules (own-families-files.ts, own-families-9.ts) test: `\p{L}`, a word of letters and marks
 * (`/^\p{L}[\p{L}\p{M}\u200c\u200d]+$/u`) and a secret's stem after no letter
 * (`/(?:^|[^\p{L}])(?:api|token|secret|passw|apikey|key)/iu`).
 *
 * Why by hand: in a fresh hook process V8 builds each such pattern's classes from ICU's tables
 * when it compiles it, and compiles the word pattern to machine code once it has run twice (the
 * classes of every letter and mark of Unicode): on the bench's real reply the word pattern cost
 * 7.5 M instructions, the stem pattern 2.4 M, `/\p{L}/u` alone 2.5 M (docs/privacy.md "Cost"). Most
 * texts a hook sees are ASCII with a few symbols (arrows, box drawing, dingbats, emoji), which
 * are told here without a pattern; any other character still goes to the pattern, so the
 * answers are the patterns' own. test/privacy/letters.test.ts checks every code point and
 * random words against the patterns.
 */

/**
 * The patterns, for the other characters: written where they run, not at the module's top, since V8
 * parses a literal's pattern (and looks up its properties in ICU) when the literal is first evaluated.
 */

const asciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Code points of blocks that hold no letter, no mark and no joiner (general punctuation but the
 * joiners, arrows to technical symbols, enclosed alphanumerics, box drawing to dingbats, arrows
 * and symbols, the emoji planes' blocks); the test checks each against the patterns.
 */
export function symbolOnly(cp: number): boolean {
  if (cp < 0x2000) return false;
  if (cp <= 0x206f) return cp !== 0x200c && cp !== 0x200d;
  return (cp >= 0x2190 && cp <= 0x23ff) || (cp >= 0x2460 && cp <= 0x24ff) || (cp >= 0x2500 && cp <= 0x27bf) || (cp >= 0x2900 && cp <= 0x2bff) || (cp >= 0x1f000 && cp <= 0x1faff);
}

/** `/\p{L}/u.test(ch)` for one code point `ch`. */
export function isLetter(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x80) return asciiLetter(cp);
  return !symbolOnly(cp) && /\p{L}/u.test(ch);
}

/** `/^\p{L}[\p{L}\p{M}\u200c\u200d]+$/u.test(w)`: two code points or more, the first a letter, the rest letters, marks or joiners. */
export function letterWord(w: string): boolean {
  if (w.length < 2) return false;
  let ascii = true;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 0x80) {
      if (!asciiLetter(c)) return false;
      continue;
    }
    // A high surrogate's code point is the pair's (a lone one is no letter: the pattern says so).
    const cp = c >= 0xd800 && c <= 0xdbff ? (w.codePointAt(i) ?? c) : c;
    if (symbolOnly(cp)) return false;
    ascii = false;
  }
  return ascii || /^\p{L}[\p{L}\p{M}\u200c\u200d]+$/u.test(w);
}

/**
 * `/(?:^|[^\p{L}])(?:api|token|secret|passw|apikey|key)/iu.test(line)`. Under `iu` the words'
 * letters match their ASCII capitals and, for "k" and "s", the Kelvin sign and the long s; a line
 * holding either (or the dotted capital I, whose lower case is two code units) goes to the pattern.
 */
export function secretStem(line: string): boolean {
  if (line.includes("\u212a") || line.includes("\u017f") || line.includes("\u0130")) return /(?:^|[^\p{L}])(?:api|token|secret|passw|apikey|key)/iu.test(line);
  // No other character lower-cases into ASCII, and none but U+0130 changes length: the indexes are the line's.
  const lower = line.toLowerCase();
  for (const word of ["api", "token", "secret", "passw", "key"]) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      if (at === 0) return true;
      // The code point before: a pair's when a low surrogate ends a pair.
      const c = line.charCodeAt(at - 1);
      const start = c >= 0xdc00 && c <= 0xdfff && at >= 2 && line.charCodeAt(at - 2) >= 0xd800 && line.charCodeAt(at - 2) <= 0xdbff ? at - 2 : at - 1;
      if (!isLetter(String.fromCodePoint(line.codePointAt(start) ?? c))) return true;
    }
  }
  return false;
}
