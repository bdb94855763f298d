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

import { capturingGroups, expandPattern, isLetterChar, isWordChar, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";

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
  /**
   * For long texts (see `WordTable`, null until it is built or when nothing is known):
   * clauses of word ids, a window must hold a token of one word of each before the regex is
   * tried there, and the word ids a match can start with (null: any word).
   */
  needs: Int32Array[] | null;
  starts: Int32Array | null;
  /** The rule's regex made sticky, to try it at given offsets only (built on first use). */
  sticky: RegExp | null;
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

/** The "any" rule's regex, sticky: `lastIndex` says where a match must start. */
function stickyRegex(rule: CompiledRule): RegExp {
  rule.sticky ??= new RegExp(ruleRegex(rule).source, "y");
  return rule.sticky;
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
  /** Per rule, the index's `needs` (words a match needs; see `ruleNeeds` in index-build.ts). */
  needs: readonly string[];
  /** Every "any" key, number word and needed word by hash (built on the first long text). */
  table: WordTable | null;
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
    needs: null,
    starts: null,
    sticky: null,
  }));
  return {
    rules,
    // The index's own objects, made prototype-free ("constructor" is no key).
    any: keyIndex(ix.any, ix.any_prefix),
    first: keyIndex(ix.first, ix.first_prefix),
    filler: new RegExp(`^(?:${ix.fillers})$`),
    numberWords: Object.setPrototypeOf(ix.numbers, null) as Matchers["numberWords"],
    needs: ix.needs,
    table: null,
  };
}

/**
 * The words a long text is looked up in, by FNV-1a hash in an open-addressing table (no
 * string is made for a word that is none of them): "any" keys (whole tokens), number words
 * and the words rules need (a token's leading run of LETTER characters, see `leadingRunEnd`).
 */
interface WordTable {
  mask: number;
  /** Per slot: the word's hash and its entry + 1 (0: empty). */
  slotHash: Int32Array;
  slotEntry: Int32Array;
  words: string[];
  /** Per entry: the "any" rules keyed by the word, or undefined. */
  anyRules: Array<number[] | undefined>;
  isNumber: Uint8Array;
  /** Per entry: the word's id among needed words, or -1. */
  need: Int32Array;
  /** Needed words. */
  needCount: number;
  /** Per entry: where its characters start in `chars`, and its length. */
  charStart: Int32Array;
  charLength: Int32Array;
  chars: Uint16Array;
  /** Bits of the first two characters of two-character prefix keys, and of the first three of longer ones (see `headBit`). */
  prefixHeads2: Uint32Array;
  prefixHeads3: Uint32Array;
}

/** A bit (of 8192) for the first two or three characters of a word. */
function headBit(c0: number, c1: number, c2: number): number {
  return (Math.imul(c0, 961) + Math.imul(c1, 31) + c2) & 8191;
}

function tableOf(m: Matchers): WordTable {
  if (m.table) return m.table;
  const entries = new Map<string, { rules: number[] | undefined; number: boolean; need: number }>();
  const entry = (w: string): { rules: number[] | undefined; number: boolean; need: number } => {
    let e = entries.get(w);
    if (e === undefined) {
      e = { rules: undefined, number: false, need: -1 };
      entries.set(w, e);
    }
    return e;
  };
  for (const w in m.any.exact) entry(w).rules = m.any.exact[w];
  for (const w in m.numberWords) entry(w).number = true;
  let needCount = 0;
  const needId = (w: string): number => {
    const e = entry(w);
    if (e.need < 0) e.need = needCount++;
    return e.need;
  };
  m.needs.forEach((src, i) => {
    const rule = m.rules[i];
    if (!rule || src === "") return;
    const [starts = "", clauses = ""] = src.split(";");
    rule.starts = starts === "" ? null : Int32Array.from(starts.split(" "), needId);
    rule.needs = clauses === "" ? [] : clauses.split("|").map((clause) => Int32Array.from(clause.split(" "), needId));
  });
  let size = 16;
  while (size < entries.size * 2) size *= 2;
  const t: WordTable = {
    mask: size - 1,
    slotHash: new Int32Array(size),
    slotEntry: new Int32Array(size),
    words: [],
    anyRules: [],
    isNumber: new Uint8Array(entries.size),
    need: new Int32Array(entries.size),
    needCount,
    charStart: new Int32Array(entries.size),
    charLength: new Int32Array(entries.size),
    chars: new Uint16Array([...entries.keys()].reduce((a, w) => a + w.length, 0)),
    prefixHeads2: new Uint32Array(256),
    prefixHeads3: new Uint32Array(256),
  };
  let at = 0;
  for (const [w, e] of entries) {
    const k = t.words.length;
    t.words.push(w);
    t.charStart[k] = at;
    t.charLength[k] = w.length;
    for (let j = 0; j < w.length; j++) t.chars[at++] = w.charCodeAt(j);
    t.anyRules.push(e.rules);
    t.isNumber[k] = e.number ? 1 : 0;
    t.need[k] = e.need;
    const h = hashRange(w, 0, w.length) | 0;
    let slot = (h ^ (h >>> 15)) & t.mask;
    while (t.slotEntry[slot] !== 0) slot = (slot + 1) & t.mask;
    t.slotHash[slot] = h;
    t.slotEntry[slot] = k + 1;
  }
  for (const group of m.any.prefix.values()) {
    for (const p of group) {
      const heads = p.prefix.length === 2 ? t.prefixHeads2 : t.prefixHeads3;
      const bit = headBit(p.prefix.charCodeAt(0), p.prefix.charCodeAt(1), p.prefix.length === 2 ? 0 : p.prefix.charCodeAt(2));
      heads[bit >>> 5] = (heads[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }
  m.table = t;
  return t;
}

/** The table entry of `codes[start, end)` with hash `h`, or -1. */
function lookup(t: WordTable, h: number, codes: Uint16Array, start: number, end: number): number {
  let slot = (h ^ (h >>> 15)) & t.mask;
  const length = end - start;
  for (;;) {
    const e = (t.slotEntry[slot] as number) - 1;
    if (e < 0) return -1;
    if (t.slotHash[slot] === h && t.charLength[e] === length) {
      let j = t.charStart[e] as number;
      let k = start;
      while (k < end && t.chars[j] === codes[k]) {
        j++;
        k++;
      }
      if (k === end) return e;
    }
    slot = (slot + 1) & t.mask;
  }
}

/** The text being scanned as UTF-16 code units (typed-array reads are cheaper than charCodeAt). */
let codeBuffer = Buffer.alloc(0);
let codeView = new Uint16Array(0);
const CODE_BUFFER_MAX_CHARS = 1 << 16;

/** Buffer's "utf16le" is the machine's Uint16Array order only on little-endian machines. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function codesOf(text: string): Uint16Array {
  if (!LITTLE_ENDIAN) return Uint16Array.from({ length: text.length }, (_, k) => text.charCodeAt(k));
  if (text.length > CODE_BUFFER_MAX_CHARS) {
    const b = Buffer.from(text, "utf16le");
    return new Uint16Array(b.buffer, b.byteOffset, text.length);
  }
  if (codeView.length < text.length) {
    let size = 1024;
    while (size < text.length) size *= 2;
    codeBuffer = Buffer.alloc(size * 2);
    codeView = new Uint16Array(codeBuffer.buffer, codeBuffer.byteOffset, size);
  }
  codeBuffer.write(text, 0, "utf16le");
  return codeView;
}

/** Below this length a text is scanned without the word table (building it costs more). */
const HASH_FILTER_MIN_CHARS = 400;

/**
 * Where the needed words of a long text are (token starts per word id), for the scan that
 * made it only: the buffers are shared and reused by the next long text.
 */
export interface NeedHits {
  generation: number;
}
let needGeneration = 0;
/** Per needed word: the generation its list is of, its first and last position slot. */
let needStamp = new Int32Array(0);
let needFirst = new Int32Array(0);
let needLast = new Int32Array(0);
/** Position slots: a token start and the next slot of the same word (-1: none). */
let slotAt = new Int32Array(0);
let slotNext = new Int32Array(0);

function resetNeeds(t: WordTable, n: number): void {
  if (needStamp.length < t.needCount) {
    needStamp = new Int32Array(t.needCount);
    needFirst = new Int32Array(t.needCount);
    needLast = new Int32Array(t.needCount);
  }
  // A text of n characters has at most n / 2 + 1 tokens.
  const slots = (n >>> 1) + 2;
  if (slotAt.length < slots) {
    slotAt = new Int32Array(slots);
    slotNext = new Int32Array(slots);
  }
  needGeneration = (needGeneration + 1) | 0 || 1;
}

/** True when every clause has a word that starts a token in [from, to). */
function needsMet(needs: readonly Int32Array[], from: number, to: number): boolean {
  for (const clause of needs) {
    let met = false;
    for (let k = 0; k < clause.length && !met; k++) {
      const w = clause[k] as number;
      if (needStamp[w] !== needGeneration) continue;
      for (let s = needFirst[w] as number; s >= 0; s = slotNext[s] as number) {
        const at = slotAt[s] as number;
        if (at >= to) break;
        if (at >= from) {
          met = true;
          break;
        }
      }
    }
    if (!met) return false;
  }
  return true;
}

export interface Scan {
  /** Offset of the first word that is not a filler (the text's length when there is none). */
  restStart: number;
  /** "start"/"whole" rules keyed by that first word. */
  firstRules: number[];
  /** ["any" rule index, offsets of its key words], in rule order. */
  anyHits: Array<readonly [number, number[]]>;
  /** A number word occurs (a rating may be spelled out). */
  hasNumberWord: boolean;
  /** For a long text: where the words rules need are (valid until the next long text is scanned). */
  needs: NeedHits | null;
  /** Letters as `shouting` (frustration.ts) counts them. */
  letters: number;
}

/** Per rule: offsets of its key words in the text being scanned (reset after each scan). */
let ruleHits: Array<number[] | undefined> = [];

/**
 * One pass over the text: a hand-written tokenizer and a lookup per word (a regex
 * alternation of a thousand keys would try every key at every position). Long texts look
 * words up by hash in the word table and note where the words rules need are.
 */
export function scan(m: Matchers, lower: string): Scan {
  if (ruleHits.length < m.rules.length) ruleHits = new Array<number[] | undefined>(m.rules.length);
  const hitRules: number[] = [];
  const hit = (r: number, at: number): void => {
    const list = ruleHits[r];
    if (list === undefined) {
      ruleHits[r] = [at];
      hitRules.push(r);
    } else if (list[list.length - 1] !== at) list.push(at);
  };
  let restStart = -1;
  const firstRules: number[] = [];
  let hasNumberWord = false;
  const n = lower.length;
  const t = n >= HASH_FILTER_MIN_CHARS ? tableOf(m) : null;
  if (t) resetNeeds(t, n);
  let usedSlots = 0;
  /** U+1680 is white space to a regex and a word character here: no window is skipped then. */
  let ogham = false;
  let letters = 0;
  const codes = codesOf(lower);
  let i = 0;
  while (i < n) {
    let c = codes[i] as number;
    if ((c < 97 || c > 122) && !isWordChar(c)) {
      i++;
      continue;
    }
    let start = i;
    // Hash the word while reading it: most words are no key, and the hash says so
    // without making a string.
    let h = 0x811c9dc5;
    /** Start of the first character outside LETTER ("'", other scripts), -1 when none. */
    let runEnd = -1;
    for (;;) {
      if (c >= 97 && c <= 122) letters++;
      else {
        if (runEnd < 0 && !isLetterChar(c)) runEnd = i;
        if (c >= 0xdf) {
          if ((c <= 0x24f && c !== 0xf7) || (c >= 0x430 && c <= 0x45f)) letters++;
          else if (c === 0x1680) ogham = true;
        }
      }
      h = Math.imul(h ^ c, 0x01000193);
      if (++i >= n) break;
      c = codes[i] as number;
      if ((c < 97 || c > 122) && !isWordChar(c)) break;
    }
    let end = i;
    if (runEnd >= 0 && (codes[start] === 39 || codes[end - 1] === 39)) {
      while (start < end && codes[start] === 39) start++;
      while (end > start && codes[end - 1] === 39) end--;
      h = 0x811c9dc5;
      runEnd = -1;
      for (let k = start; k < end; k++) {
        const d = codes[k] as number;
        h = Math.imul(h ^ d, 0x01000193);
        if (runEnd < 0 && !isLetterChar(d)) runEnd = k;
      }
    }
    if (end <= start) continue;
    if (restStart < 0) {
      const first = lower.slice(start, end);
      if (!m.filler.test(first)) {
        restStart = start;
        forEachRule(m.first, first, (r) => firstRules.push(r));
      }
    }
    if (t === null) {
      const word = lower.slice(start, end);
      if (!hasNumberWord && m.numberWords[word] !== undefined) hasNumberWord = true;
      const exact = m.any.exact[word];
      if (exact !== undefined) for (let k = 0; k < exact.length; k++) hit(exact[k] as number, start);
      if (end - start >= 2) {
        const group = m.any.prefix.get((codes[start] as number) * 65536 + (codes[start + 1] as number));
        if (group !== undefined) for (const p of group) if (word.startsWith(p.prefix)) for (const r of p.rules) hit(r, start);
      }
      continue;
    }
    const e = lookup(t, h, codes, start, end);
    if (e >= 0) {
      if (t.isNumber[e] === 1) hasNumberWord = true;
      const exact = t.anyRules[e];
      if (exact !== undefined) for (let k = 0; k < exact.length; k++) hit(exact[k] as number, start);
    }
    // The word's leading LETTER run, for the words rules need.
    let need = -1;
    if (runEnd < 0) {
      if (e >= 0) need = t.need[e] as number;
    } else if (runEnd > start) {
      const r = lookup(t, hashCodes(codes, start, runEnd), codes, start, runEnd);
      if (r >= 0) need = t.need[r] as number;
    }
    if (need >= 0) {
      const s = usedSlots++;
      slotAt[s] = start;
      slotNext[s] = -1;
      if (needStamp[need] !== needGeneration) {
        needStamp[need] = needGeneration;
        needFirst[need] = s;
      } else slotNext[needLast[need] as number] = s;
      needLast[need] = s;
    }
    if (end - start >= 2) {
      const c0 = codes[start] as number;
      const c1 = codes[start + 1] as number;
      let maybe = false;
      let bit = headBit(c0, c1, 0);
      if (((t.prefixHeads2[bit >>> 5] as number) & (1 << (bit & 31))) !== 0) maybe = true;
      else if (end - start >= 3) {
        bit = headBit(c0, c1, codes[start + 2] as number);
        maybe = ((t.prefixHeads3[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
      }
      if (maybe) {
        const group = m.any.prefix.get(c0 * 65536 + c1);
        if (group !== undefined) {
          for (const p of group) if (p.prefix.length <= end - start && lower.startsWith(p.prefix, start)) for (const r of p.rules) hit(r, start);
        }
      }
    }
  }
  // Rule order (few rules: insertion sort).
  for (let k = 1; k < hitRules.length; k++) {
    const r = hitRules[k] as number;
    let j = k - 1;
    while (j >= 0 && (hitRules[j] as number) > r) {
      hitRules[j + 1] = hitRules[j] as number;
      j--;
    }
    hitRules[j + 1] = r;
  }
  const anyHits: Array<readonly [number, number[]]> = [];
  for (const r of hitRules) {
    anyHits.push([r, ruleHits[r] as number[]]);
    ruleHits[r] = undefined;
  }
  return {
    restStart: restStart < 0 ? n : restStart,
    firstRules: firstRules.length > 1 ? [...new Set(firstRules)].sort((a, b) => a - b) : firstRules,
    anyHits,
    hasNumberWord,
    needs: t !== null && !ogham ? { generation: needGeneration } : null,
    letters,
  };
}

/** FNV-1a over `codes[start, end)`, as a signed 32-bit number. */
function hashCodes(codes: Uint16Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ (codes[k] as number), 0x01000193);
  return h;
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
 * cost no more per hit than short ones. With the `needs` of the scan of `lower`, a window
 * that lacks a word the rule's match needs is not tried (the regex could not match there).
 */
export function testNear(rule: CompiledRule, lower: string, positions: readonly number[], needs: NeedHits | null = null): boolean {
  const known = needs !== null && needs.generation === needGeneration && rule.needs !== null;
  if (lower.length <= 2 * KEY_WINDOW_CHARS + 40) {
    if (known && !needsMet(rule.needs as Int32Array[], 0, lower.length)) return false;
    return matchesAtWordStart(ruleRegex(rule), lower);
  }
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
    if (known && !needsMet(rule.needs as Int32Array[], from, to)) continue;
    const window = from === 0 ? lower.slice(0, to) : NOT_START + lower.slice(from, to);
    if (known && rule.starts !== null) {
      if (matchesAtStarts(rule, rule.starts, window, from, from === 0 ? 0 : NOT_START.length, to)) return true;
    } else if (matchesAtWordStart(ruleRegex(rule), window)) return true;
  }
  return false;
}

/**
 * Whether the rule matches in `window` (the text's [from, to) after `shift` characters)
 * starting at a word start where a token with one of the `starts` runs begins: the same
 * answer as `matchesAtWordStart`, since a match can start nowhere else.
 */
function matchesAtStarts(rule: CompiledRule, starts: Int32Array, window: string, from: number, shift: number, to: number): boolean {
  for (let k = 0; k < starts.length; k++) {
    const w = starts[k] as number;
    if (needStamp[w] !== needGeneration) continue;
    for (let s = needFirst[w] as number; s >= 0; s = slotNext[s] as number) {
      const at = slotAt[s] as number;
      if (at >= to) break;
      if (at < from) continue;
      const i = at - from + shift;
      if (i > 0 && isWordChar(window.charCodeAt(i - 1))) continue;
      const re = stickyRegex(rule);
      re.lastIndex = i;
      if (re.test(window)) return true;
    }
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
