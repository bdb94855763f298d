/**
 * The classifier's pattern shorthand and word boundaries, shared by the index builder and
 * the matchers. A space outside a character class is `\s+` (" *" and " ?" optional
 * whitespace), `{w}` is one word and `{w}?` an optional word tail.
 *
 * Example: `expandPattern("i told you {w}")` ->
 * `"i\\s+told\\s+you\\s+[a-z0-9_\\u00df-\\u024f\\u0400-\\u04ff'-]+"`.
 */
import { walkPattern } from "../../core/pattern-walk.js";
/**
 * Word characters of lower-cased text in the supported languages: Latin (with Latin-1 and
 * Latin Extended letters) and Cyrillic, digits and "_". Explicit ranges instead of
 * `\p{L}` and no `u` flag: property classes make every regex costlier for V8 to build, and
 * a hook process builds each regex it runs afresh.
 */
export const LETTER = "a-z0-9_\\u00df-\\u024f\\u0400-\\u04ff";
/** Letters and digits on either side make a word continue. */
export const WORD_BEFORE = `(?<![${LETTER}'])`;
export const WORD_AFTER = `(?![${LETTER}])`;
/** What may trail a whole-message match: anything but letters and digits (punctuation, emoji). */
export const TRAIL = `[^${LETTER}]*`;
const WORD = `[${LETTER}'-]+`;

/**
 * A word character for the tokenizer (`scan` in compile.ts) and the word start of a match:
 * letters, digits, "_" and "'" (not "-"); any character outside the Latin-1, punctuation and
 * CJK punctuation ranges.
 */
export function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || c === 39;
  // Latin-1 punctuation and symbols, general punctuation, CJK punctuation are separators.
  if (c <= 0xbf || c === 0xd7 || c === 0xf7) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false;
  if (c >= 0x3000 && c <= 0x303f) return false;
  // Full-width punctuation ("，", "？", "！", "：") as Japanese and Chinese type it.
  if (c >= 0xff01 && c <= 0xff65) return !((c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) || c >= 0xff5b);
  return c !== 0xfeff;
}

/**
 * Kana and CJK ideographs: Japanese and Chinese write words without spaces, so the tokenizer
 * makes each such character a word of its own (a rule's key is then one character, its
 * rarest), and a match may start at any of them.
 */
export function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

const WORD_OPTIONAL = `[${LETTER}'-]*`;

export function expandPattern(src: string): string {
  return walkPattern(src, (s, i, inClass): readonly [string, number] => {
    const c = s[i]!;
    if (inClass) return [c === " " ? "\\s" : c, 0];
    if (c === " ") {
      const next = s[i + 1];
      if (next === "*" || next === "?") return ["\\s*", 1];
      return ["\\s+", next === "+" ? 1 : 0];
    }
    if (s.startsWith("{w}?", i)) return [WORD_OPTIONAL, 3];
    if (s.startsWith("{w}", i)) return [WORD, 2];
    return [c, 0];
  });
}

/**
 * A rule's whole regex source from its data's pattern: anchored at the first word for
 * "start", covering the rest for "whole". An "any" rule has no leading lookbehind (it would
 * stop the engine from skipping ahead to the rule's first word); `testNear` (compile.ts)
 * checks the word boundary before a match instead. Flags: "g" for "any", none otherwise. A
 * language written without spaces (`unspaced`) has no word boundary after a match.
 *
 * Example: `ruleSource("no", "start")` -> `"^(?:no)(?![a-z0-9_\\u00df-\\u024f\\u0400-\\u04ff])"`.
 */
export function ruleSource(pattern: string, at: "any" | "start" | "whole", unspaced = false): string {
  const src = expandPattern(pattern);
  // Japanese and Chinese run into Latin words ("不要用npm"): a match there ends anywhere.
  const after = unspaced ? "" : WORD_AFTER;
  return at === "any" ? `(?:${src})${after}` : at === "start" ? `^(?:${src})${after}` : `^(?:${src})${TRAIL}$`;
}

/** The flags of a rule's regex (see `ruleSource`). */
export const ruleFlags = (at: "any" | "start" | "whole"): string => (at === "any" ? "g" : "");

/** Number of capturing groups in a pattern (rules must have none). Used by tests. */
export function capturingGroups(source: string): number {
  return (new RegExp(`(?:${source})|`).exec("")?.length ?? 1) - 1;
}
