/**
 * Turns the language data into matchers. Nothing is compiled up front: every rule is a
 * small regex built on first use, and a rule is tried only when one of its key words
 * occurs (for "start" and "whole" rules: when the message's first word, after fillers, is a
 * key). A hook process classifies one prompt, so it builds only the few rules that prompt
 * can fire; a long prompt is scanned once by a hand-written tokenizer.
 *
 * Pattern shorthand: a space outside a character class is `\s+` (" *" and " ?" optional
 * whitespace), `{w}` is one word and `{w}?` an optional word tail.
 *
 * Example: `expandPattern("i told you {w}")` ->
 * `"i\\s+told\\s+you\\s+[a-z0-9_\\u00df-\\u024f\\u0400-\\u04ff'-]+"`.
 */
import type { CaptureIndex } from "./index-build.js";
import { loadIndex } from "./index-file.js";
import { language, type RuleAt, type RuleCategory } from "./lang-data.js";

import { capturingGroups, expandPattern, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";

export { capturingGroups, expandPattern, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE };

export interface CompiledRule {
  /** Stable signal name: "<category>.<lang>.<id>". */
  signal: string;
  category: RuleCategory;
  lang: string;
  at: RuleAt;
  weak: boolean;
  /** The data's pattern, read from its language file on first use, then compiled. */
  pattern: string | null;
  compiled: RegExp | null;
}

/** The rule's pattern from its language file ("correction.en.no_strong" -> en.json correction[id=no_strong]). */
export function rulePattern(rule: CompiledRule): string {
  if (rule.pattern !== null) return rule.pattern;
  const id = rule.signal.slice(rule.category.length + rule.lang.length + 2);
  const found = language(rule.lang)[rule.category].find((r) => r.id === id);
  if (!found) throw new Error(`lang/${rule.lang}.json has no ${rule.category} rule ${id} (lang/index.json is stale?)`);
  rule.pattern = found.re;
  return found.re;
}

/** The rule's regex: anchored at the first word for "start", covering the rest for "whole". */
export function ruleRegex(rule: CompiledRule): RegExp {
  if (rule.compiled) return rule.compiled;
  const src = expandPattern(rulePattern(rule));
  // An "any" rule has no leading lookbehind (it would stop the engine from skipping ahead to
  // the rule's first word); `testNear` checks the word boundary before a match instead.
  const source = rule.at === "any" ? `(?:${src})${WORD_AFTER}` : rule.at === "start" ? `^(?:${src})${WORD_AFTER}` : `^(?:${src})${TRAIL}$`;
  rule.compiled = new RegExp(source, rule.at === "any" ? "g" : "");
  return rule.compiled;
}

interface KeyIndex {
  /** word -> rule indexes; a null-prototype object straight from the index file. */
  exact: Record<string, number[] | undefined>;
  /** Prefix keys ("fuck*") grouped by their first two characters (as one number). */
  prefix: Map<number, Array<{ prefix: string; rules: number[] }>>;
}

export interface Matchers {
  rules: CompiledRule[];
  /** Keys of "any" rules: any word of the text. */
  any: KeyIndex;
  /** Keys of "start" and "whole" rules: the first word after fillers. */
  first: KeyIndex;
  /** Matches one filler word ("oh", "hmm", "ok", "niin", "ну"). */
  filler: RegExp;
  /** Number words of every language (a rating may be spelled out). */
  numberWords: Record<string, number | undefined>;
  /** Hashes of every exact "any" key and number word (built on the first long text). */
  wordHashes: Set<number> | null;
}

function keyIndex(exact: Record<string, number[]>, prefixes: Record<string, number[]>): KeyIndex {
  const prefix = new Map<number, Array<{ prefix: string; rules: number[] }>>();
  for (const [p, rules] of Object.entries(prefixes)) {
    const head = headOf(p);
    const group = prefix.get(head) ?? [];
    group.push({ prefix: p, rules });
    prefix.set(head, group);
  }
  if (Object.getPrototypeOf(exact) !== null) Object.setPrototypeOf(exact, null);
  return { exact: exact as KeyIndex["exact"], prefix };
}

/** The first two characters of a word as one number (no string is made per word). */
function headOf(word: string): number {
  return word.charCodeAt(0) * 65536 + word.charCodeAt(1);
}

/** Calls `visit` for every rule keyed by `word` in `index`, exact and prefix keys (may repeat). */
export function forEachRule(index: KeyIndex, word: string, visit: (rule: number) => void): void {
  const exact = index.exact[word];
  if (exact) for (const r of exact) visit(r);
  if (word.length < 2) return;
  const group = index.prefix.get(headOf(word));
  if (group) for (const p of group) if (word.startsWith(p.prefix)) for (const r of p.rules) visit(r);
}

/** The matchers of an index (by default the committed `lang/index.json`). */
export function buildMatchers(ix: CaptureIndex = loadIndex()): Matchers {
  const rules: CompiledRule[] = ix.rules.map(([signal, category, lang, at, weak]) => ({
    signal,
    category,
    lang,
    at,
    weak: weak === 1,
    pattern: null,
    compiled: null,
  }));
  return {
    rules,
    // The index's own objects, made prototype-free ("constructor" is no key).
    any: keyIndex(ix.any, ix.any_prefix),
    first: keyIndex(ix.first, ix.first_prefix),
    filler: new RegExp(`^(?:${ix.fillers})$`),
    numberWords: Object.setPrototypeOf(ix.numbers, null) as Matchers["numberWords"],
    wordHashes: null,
  };
}

function wordHashesOf(m: Matchers): Set<number> {
  if (m.wordHashes) return m.wordHashes;
  const set = new Set<number>();
  for (const w of [...Object.keys(m.any.exact), ...Object.keys(m.numberWords)]) set.add(hashRange(w, 0, w.length));
  m.wordHashes = set;
  return set;
}

/** Below this length a text is scanned without the hash filter (building the filter costs more). */
const HASH_FILTER_MIN_CHARS = 400;

/** A word character for the key scan: letters, digits, "_" and "'" (not "-"). */
function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || c === 39;
  // Latin-1 punctuation and symbols, general punctuation, CJK punctuation are separators.
  if (c <= 0xbf || c === 0xd7 || c === 0xf7) return false;
  if (c >= 0x2000 && c <= 0x2bff) return false;
  if (c >= 0x3000 && c <= 0x303f) return false;
  return c !== 0xfeff;
}

export interface Scan {
  /** Offset of the first word that is not a filler (the text's length when there is none). */
  restStart: number;
  /** "start"/"whole" rules keyed by that first word. */
  firstRules: number[];
  /** "any" rule index -> offsets of its key words, in rule order. */
  anyHits: Map<number, number[]>;
  /** A number word occurs (a rating may be spelled out). */
  hasNumberWord: boolean;
}

/**
 * One pass over the text: a hand-written tokenizer and a map lookup per word (a regex
 * alternation of a thousand keys would try every key at every position).
 */
export function scan(m: Matchers, lower: string): Scan {
  const anyHits = new Map<number, number[]>();
  const hit = (r: number, at: number): void => {
    const list = anyHits.get(r);
    if (list === undefined) anyHits.set(r, [at]);
    else if (list[list.length - 1] !== at) list.push(at);
  };
  let restStart = -1;
  const firstRules: number[] = [];
  let hasNumberWord = false;
  const n = lower.length;
  const hashes = n >= HASH_FILTER_MIN_CHARS ? wordHashesOf(m) : null;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordChar(lower.charCodeAt(i))) i++;
    let start = i;
    // Hash the word while reading it: most words are no key, and the hash says so
    // without making a string.
    let h = 0x811c9dc5;
    while (i < n) {
      const c = lower.charCodeAt(i);
      if (!isWordChar(c)) break;
      h = Math.imul(h ^ c, 0x01000193);
      i++;
    }
    let end = i;
    if (lower.charCodeAt(start) === 39 || lower.charCodeAt(end - 1) === 39) {
      while (start < end && lower.charCodeAt(start) === 39) start++;
      while (end > start && lower.charCodeAt(end - 1) === 39) end--;
      h = hashRange(lower, start, end);
    }
    if (end <= start) continue;
    if (restStart < 0) {
      const first = lower.slice(start, end);
      if (!m.filler.test(first)) {
        restStart = start;
        forEachRule(m.first, first, (r) => firstRules.push(r));
      }
    }
    const exactMaybe = hashes === null || hashes.has(h >>> 0);
    const group = end - start >= 2 ? m.any.prefix.get(lower.charCodeAt(start) * 65536 + lower.charCodeAt(start + 1)) : undefined;
    if (!exactMaybe && group === undefined) continue;
    const word = lower.slice(start, end);
    if (exactMaybe) {
      if (!hasNumberWord && m.numberWords[word] !== undefined) hasNumberWord = true;
      const exact = m.any.exact[word];
      if (exact !== undefined) for (let k = 0; k < exact.length; k++) hit(exact[k] as number, start);
    }
    if (group !== undefined) {
      for (const p of group) if (word.startsWith(p.prefix)) for (const r of p.rules) hit(r, start);
    }
  }
  return {
    restStart: restStart < 0 ? n : restStart,
    firstRules: firstRules.length > 1 ? [...new Set(firstRules)].sort((a, b) => a - b) : firstRules,
    anyHits: anyHits.size > 1 ? new Map([...anyHits].sort((a, b) => a[0] - b[0])) : anyHits,
    hasNumberWord,
  };
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
export function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/** How far around a key an "any" rule may reach, in characters (rules span a few words). */
export const KEY_WINDOW_CHARS = 64;
/** Stands in front of a window that does not start the message, so `^` cannot match there. */
const NOT_START = "\u0001 ";

/**
 * Tests an "any" rule only near its key words: the window runs from a word start about
 * KEY_WINDOW_CHARS before the key to a word end about as far after it, so long prompts
 * cost no more per hit than short ones.
 */
export function testNear(rule: CompiledRule, lower: string, positions: readonly number[]): boolean {
  const re = ruleRegex(rule);
  if (lower.length <= 2 * KEY_WINDOW_CHARS + 40) return matchesAtWordStart(re, lower);
  let coveredTo = -1;
  for (const at of positions) {
    if (at < coveredTo) continue;
    let from = Math.max(0, at - KEY_WINDOW_CHARS);
    if (from > 0) {
      const space = lower.indexOf(" ", from);
      from = space < 0 || space >= at ? at : space + 1;
    }
    let to = Math.min(lower.length, at + KEY_WINDOW_CHARS);
    if (to < lower.length) {
      const space = lower.indexOf(" ", to);
      to = space < 0 ? lower.length : space;
    }
    coveredTo = to - KEY_WINDOW_CHARS;
    const window = from === 0 ? lower.slice(0, to) : NOT_START + lower.slice(from, to);
    if (matchesAtWordStart(re, window)) return true;
  }
  return false;
}

/** A match of a global regex that starts a word (the character before is not a letter, digit or "'"). */
function matchesAtWordStart(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const i = m.index;
    if (i === 0 || !isWordChar(text.charCodeAt(i - 1))) return true;
    re.lastIndex = i + 1;
  }
  return false;
}
