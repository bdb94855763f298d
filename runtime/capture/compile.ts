/**
 * Turns the language data into matchers. Nothing is compiled up front: every rule is a
 * regex built on first use, and a rule is tried only when one of its key words occurs (for
 * "start" and "whole" rules: when the message's first word, after fillers, is a key). A hook
 * process classifies one prompt, so it builds only the few rules that prompt can fire, and
 * those cut to the prompt (see prune.ts: V8 takes about a millisecond to build a rule's
 * whole regex, a tenth of that for the cut one); the rules come from the generated rule files
 * (rule-files.ts), not the language files. A long prompt is scanned once by a hand-written
 * tokenizer.
 *
 * Long texts (400 characters and more) take a faster way to the same verdicts. Every token
 * is looked up by hash in one word table (built on the first long text) that also holds the
 * words rules need (`needs` in the index, read from the patterns by `ruleNeeds` in
 * index-build.ts); a window around a key is tried only when its tokens hold what a match
 * needs, and a rule with known start words only at tokens with those words, with a sticky
 * regex. `setLongTextFilters(false)` turns this off (tests compare both ways).
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
import { SubjectRegex } from "./prune.js";
import { ruleTree } from "./rule-files.js";

import { capturingGroups, expandPattern, isLetterChar, isWordChar, LETTER, ruleFlags, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";

export { capturingGroups, expandPattern, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE };

export interface CompiledRule {
  /** Stable signal name: "<category>.<lang>.<id>". */
  signal: string;
  category: RuleCategory;
  lang: string;
  at: RuleAt;
  weak: boolean;
  /** The data's pattern, read from its language file on first use. */
  pattern: string | null;
  /** The rule's regex (see `ruleRegex`), made on first use: cut to its subject at first (see prune.ts). */
  regex: SubjectRegex | null;
  /**
   * For long texts (see `WordTable`; null until it is built, or when nothing is known), from
   * the index's `needs`: clauses of word ids, a window must hold a token of one word of each
   * before the regex is tried there; the word ids a match can start with (null: any word), in
   * groups with the clauses the tokens from a match's start to the window's end then hold.
   */
  needs: Int32Array[] | null;
  starts: Int32Array | null;
  /** Per start word (in `starts` order): the clauses of its group. */
  startNeeds: Int32Array[][] | null;
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

/** The rule's regex, not compiled yet, from its language's rule file (see prune.ts). */
function subjectRegex(rule: CompiledRule): SubjectRegex {
  rule.regex ??= new SubjectRegex(ruleTree(rule.signal, rule.lang), ruleFlags(rule.at));
  return rule.regex;
}

/** The rule's whole regex, compiled. */
export function ruleRegex(rule: CompiledRule): RegExp {
  return subjectRegex(rule).compiled();
}

/**
 * The rule's regex for `subject` (the string it is run on): cut to it for the rule's first
 * uses (see prune.ts), null when it cannot match there.
 */
export function ruleRegexOn(rule: CompiledRule, subject: string): RegExp | null {
  return subjectRegex(rule).on(subject);
}

/** The "any" rule's regex, sticky: `lastIndex` says where a match must start. */
function stickyRegex(rule: CompiledRule): RegExp {
  rule.sticky ??= new RegExp(ruleRegex(rule).source, "y");
  return rule.sticky;
}

interface KeyIndex {
  /** Exact keys as the index keeps them: " word:1,2 other:3 " (see `keyText` in index-build.ts). */
  text: string;
  /**
   * The same as a prototype-free object, made once `KEY_SEARCHES` words were looked up in the
   * text (or for the first long text): a process that classifies one prompt, as the hook's,
   * never makes it (it would be a fifth of what the hook allocates).
   */
  exact: Record<string, number[] | undefined> | null;
  searches: number;
  /** Prefix keys ("fuck*") grouped by their first two characters (as one number). */
  prefix: Map<number, Array<{ prefix: string; rules: number[] }>>;
}

/** Words looked up in a key text before it is made an object. */
const KEY_SEARCHES = 200;

/** The rules keyed by `word` (exactly), or undefined. */
function exactRules(index: KeyIndex, word: string): number[] | undefined {
  if (index.exact !== null) return index.exact[word];
  if (index.searches++ >= KEY_SEARCHES) return exactObject(index)[word];
  const text = index.text;
  const at = text.indexOf(` ${word}:`);
  if (at < 0) return undefined;
  const rules: number[] = [];
  let n = 0;
  for (let i = at + word.length + 2; ; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n = n * 10 + (c - 48);
    else {
      rules.push(n);
      n = 0;
      if (c !== 44) return rules;
    }
  }
}

/** The key text as an object (made once). */
function exactObject(index: KeyIndex): Record<string, number[] | undefined> {
  if (index.exact !== null) return index.exact;
  const exact = Object.create(null) as Record<string, number[] | undefined>;
  for (const entry of index.text.split(" ")) {
    if (entry === "") continue;
    const colon = entry.lastIndexOf(":");
    exact[entry.slice(0, colon)] = entry.slice(colon + 1).split(",").map(Number);
  }
  index.exact = exact;
  return exact;
}

export interface Matchers {
  rules: CompiledRule[];
  /** Keys of "any" rules: any word of the text. */
  any: KeyIndex;
  /** Keys of "start" and "whole" rules: the first word after fillers. */
  first: KeyIndex;
  /** Matches one filler word ("oh", "hmm", "ok", "niin", "ну"). */
  filler: SubjectRegex;
  /** Number words of every language (a rating may be spelled out). */
  numberWords: Record<string, number | undefined>;
  /** The index: its `needs` (words a rule's match needs; see `ruleNeeds` in index-build.ts) are read with the word table. */
  index: CaptureIndex;
  /** Every "any" key, number word and needed word by hash (built on the first long text). */
  table: WordTable | null;
}

function keyIndex(text: string, prefixes: Record<string, number[]>): KeyIndex {
  const prefix = new Map<number, Array<{ prefix: string; rules: number[] }>>();
  for (const [p, rules] of Object.entries(prefixes)) {
    const head = headOf(p);
    const group = prefix.get(head) ?? [];
    group.push({ prefix: p, rules });
    prefix.set(head, group);
  }
  return { text, exact: null, searches: 0, prefix };
}

/** The first two characters of a word as one number (no string is made per word). */
function headOf(word: string): number {
  return word.charCodeAt(0) * 65536 + word.charCodeAt(1);
}

/** Calls `visit` for every rule keyed by `word` in `index`, exact and prefix keys (may repeat). */
export function forEachRule(index: KeyIndex, word: string, visit: (rule: number) => void): void {
  const exact = exactRules(index, word);
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
    regex: null,
    needs: null,
    starts: null,
    startNeeds: null,
    sticky: null,
  }));
  return {
    rules,
    // The index's own objects, made prototype-free ("constructor" is no key).
    any: keyIndex(ix.any, ix.any_prefix),
    first: keyIndex(ix.first, ix.first_prefix),
    filler: new SubjectRegex(ix.fillers_tree, ""),
    numberWords: Object.setPrototypeOf(ix.numbers, null) as Matchers["numberWords"],
    index: ix,
    table: null,
  };
}

/**
 * The words a long text is looked up in, by FNV-1a hash in an open-addressing table (no
 * string is made for a word that is none of them): "any" keys (whole tokens), number words
 * and the words rules need (a token's leading run of LETTER characters, see `tokRun`).
 */
interface WordTable {
  mask: number;
  /**
   * Per slot: the high 16 bits of the word's hash, then its entry + 1 in the low 16 (0: empty).
   * Small enough (16 KB) to stay in the first-level cache while a text is scanned.
   */
  slots: Int32Array;
  words: string[];
  /** Per entry: the "any" rules keyed by the word, or undefined. */
  anyRules: Array<number[] | undefined>;
  isNumber: Uint8Array;
  /** Per entry: the word's id among needed words, or -1. */
  need: Int32Array;
  /** Needed words. */
  needCount: number;
  /**
   * Per entry: 1 when a token must be compared with it character by character: a key or a
   * number word, or a word that shares the high 16 bits of its hash and its length with
   * another. A word only rules need is taken on those alone: a rare false hit only costs a
   * regex try.
   */
  verify: Uint8Array;
  /** Per entry: where its characters start in `chars`, and its length. */
  charStart: Int32Array;
  charLength: Int32Array;
  chars: Uint16Array;
  /**
   * Bits (see `headBit`) of the two-character prefix keys and of the first three characters
   * of longer ones: a word whose head has no bit set starts with no prefix key.
   */
  prefixHeads2: Uint32Array;
  prefixHeads3: Uint32Array;
}

/** A bit (of 32768) for the first two or three characters of a word (c2 = 0 for two). */
function headBit(c0: number, c1: number, c2: number): number {
  return ((c0 & 31) << 10) | ((c1 & 31) << 5) | (c2 & 31);
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
  const anyExact = exactObject(m.any);
  for (const w in anyExact) entry(w).rules = anyExact[w];
  for (const w in m.numberWords) entry(w).number = true;
  let needCount = 0;
  const needId = (w: string): number => {
    const e = entry(w);
    if (e.need < 0) e.need = needCount++;
    return e.need;
  };
  m.index.needs.forEach((src, i) => {
    const rule = m.rules[i];
    if (!rule || src === "") return;
    // "<starts>;<clauses>" (see `needsText` in index-build.ts).
    const [starts = "", clauses = ""] = src.split(";");
    const groups = (starts === "" ? [] : starts.split(" ")).map((group) => {
      const [list = "", c] = group.split("=");
      return { words: Int32Array.from(list.split(","), needId), clauses: c === undefined ? [] : c.split("/").map((clause) => Int32Array.from(clause.split("+"), needId)) };
    });
    rule.starts = starts === "" ? null : Int32Array.from(groups.flatMap((g) => [...g.words]));
    rule.startNeeds = groups.flatMap((g) => [...g.words].map(() => g.clauses));
    rule.needs = clauses === "" ? [] : clauses.split("|").map((clause) => Int32Array.from(clause.split(" "), needId));
  });
  if (entries.size >= 0xffff) throw new Error(`capture word table: ${entries.size} words, at most 65534`);
  let size = 16;
  while (size < entries.size * 2.5) size *= 2;
  const t: WordTable = {
    mask: size - 1,
    slots: new Int32Array(size),
    words: [],
    anyRules: [],
    isNumber: new Uint8Array(entries.size),
    need: new Int32Array(entries.size),
    needCount,
    verify: new Uint8Array(entries.size),
    charStart: new Int32Array(entries.size),
    charLength: new Int32Array(entries.size),
    chars: new Uint16Array([...entries.keys()].reduce((a, w) => a + w.length, 0)),
    prefixHeads2: new Uint32Array(1024),
    prefixHeads3: new Uint32Array(1024),
  };
  let at = 0;
  const shapes = new Map<string, number>();
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
    const shape = `${h >>> 16}:${w.length}`;
    const other = shapes.get(shape);
    if (other !== undefined) t.verify[other] = 1;
    shapes.set(shape, k);
    t.verify[k] = e.rules !== undefined || e.number || other !== undefined ? 1 : 0;
    let slot = (h ^ (h >>> 15)) & t.mask;
    while (t.slots[slot] !== 0) slot = (slot + 1) & t.mask;
    t.slots[slot] = (h & 0xffff0000) | (k + 1);
  }
  for (const group of m.any.prefix.values()) {
    for (const p of group) {
      const x = p.prefix;
      const heads = x.length === 2 ? t.prefixHeads2 : t.prefixHeads3;
      const bit = headBit(x.charCodeAt(0), x.charCodeAt(1), x.length === 2 ? 0 : x.charCodeAt(2));
      heads[bit >>> 5] = (heads[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }
  m.table = t;
  return t;
}

/**
 * The table entry of `codes[start, end)` with hash `h`, or -1. For an entry that needs no
 * check (see `WordTable.verify`) a word with the same high hash bits and length may be taken
 * for it.
 */
function lookup(t: WordTable, h: number, codes: Uint16Array, start: number, end: number): number {
  const slots = t.slots;
  let slot = (h ^ (h >>> 15)) & t.mask;
  const length = end - start;
  const high = h & 0xffff0000;
  for (;;) {
    const v = slots[slot] as number;
    if (v === 0) return -1;
    const e = (v & 0xffff) - 1;
    if ((v & 0xffff0000) === high && t.charLength[e] === length) {
      if (t.verify[e] === 0) return e;
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
  const n = text.length;
  let view: Uint16Array;
  if (!LITTLE_ENDIAN) view = Uint16Array.from({ length: n + 1 }, (_, k) => (k < n ? text.charCodeAt(k) : 0));
  else if (n >= CODE_BUFFER_MAX_CHARS) {
    const b = Buffer.alloc(2 * n + 2);
    b.write(text, 0, "utf16le");
    view = new Uint16Array(b.buffer, b.byteOffset, n + 1);
  } else {
    if (codeView.length <= n) {
      let size = 1024;
      while (size <= n) size *= 2;
      codeBuffer = Buffer.alloc(size * 2);
      codeView = new Uint16Array(codeBuffer.buffer, codeBuffer.byteOffset, size);
    }
    codeBuffer.write(text, 0, "utf16le");
    view = codeView;
  }
  // A sentinel (no word character) after the text.
  view[n] = 0;
  return view;
}

/** Below this length a text is scanned without the word table (building it costs more). */
const HASH_FILTER_MIN_CHARS = 400;

/**
 * Scratch buffers sized for a text of more characters than this are dropped at the next
 * smaller text (a huge prompt does not keep megabytes alive).
 */
const KEEP_CHARS = 1 << 16;

/**
 * Off: long texts go the plain way (no word table, every window tried with the whole regex),
 * and short texts try every unlocked rule's regex (no `mayMatchShort`). For tests.
 */
let longTextFilters = true;

/**
 * Turns the filters (the word table, the words rules need, start words, for short texts
 * `mayMatchShort`) off or on; the verdicts are the same either way (tests compare them). Returns the previous setting.
 */
export function setLongTextFilters(on: boolean): boolean {
  const before = longTextFilters;
  longTextFilters = on;
  return before;
}

/**
 * Short texts (no word table): whether an "any" rule can match anywhere in `lower`, from the
 * words its match needs (the index's `needs`, as the long-text filter reads them): every
 * clause must have a word that is some token's run of LETTER characters, and, when the rule's
 * start words are known, one of them must be. A necessary condition only: true means "try the
 * regex". Spares compiling the regexes of rules a text cannot satisfy (a hook process
 * compiles every regex it tries afresh); a rule already compiled is simply tried. `runs` is
 * the text's token runs (see `tokenRuns`).
 */
export function mayMatchShort(m: Matchers, ruleIndex: number, runs: ReadonlySet<string> | null): boolean {
  if (!longTextFilters || runs === null) return true;
  // Once compiled, trying the regex costs less than the check (tests check every time).
  if (!shortFilterAlways && m.rules[ruleIndex]?.regex?.whole != null) return true;
  let parsed = shortNeeds.get(ruleIndex);
  if (parsed === undefined) {
    const src = m.index.needs[ruleIndex] ?? "";
    if (src === "") parsed = null;
    else {
      // "<starts>;<clauses>" (see `needsText` in index-build.ts).
      const [starts = "", clauses = ""] = src.split(";");
      parsed = {
        starts: starts === "" ? null : starts.split(" ").flatMap((group) => (group.split("=")[0] ?? "").split(",")),
        clauses: clauses === "" ? [] : clauses.split("|").map((c) => c.split(" ")),
      };
    }
    shortNeeds.set(ruleIndex, parsed);
  }
  if (parsed === null) return true;
  if (parsed.starts !== null && !parsed.starts.some((w) => runs.has(w))) return false;
  return parsed.clauses.every((c) => c.some((w) => runs.has(w)));
}

let shortFilterAlways = false;

/** Makes `mayMatchShort` check rules already compiled too (tests: the filter must change no verdict). Returns the previous setting. */
export function setShortFilterAlways(on: boolean): boolean {
  const before = shortFilterAlways;
  shortFilterAlways = on;
  return before;
}

const shortNeeds = new Map<number, { starts: string[] | null; clauses: string[][] } | null>();

/**
 * The runs of a text's tokens as the long-text tokenizer makes them: a token is a maximal
 * stretch of word characters, apostrophes trimmed at both ends, and its run the LETTER
 * characters it starts with. Null when the text holds U+1680 (white space to a regex, a word
 * character to the tokenizer): then nothing is known.
 */
export function tokenRuns(lower: string): Set<string> | null {
  const cls = classes();
  const runs = new Set<string>();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    if (cls[lower.charCodeAt(i)] === 0) {
      i++;
      continue;
    }
    let start = i;
    while (i < n && cls[lower.charCodeAt(i)] !== 0) {
      if (cls[lower.charCodeAt(i)] === 4) return null;
      i++;
    }
    let end = i;
    while (start < end && lower.charCodeAt(start) === 39) start++;
    while (end > start && lower.charCodeAt(end - 1) === 39) end--;
    let r = start;
    while (r < end && (cls[lower.charCodeAt(r)] as number) < 3) r++;
    if (r > start) runs.add(lower.slice(start, r));
  }
  return runs;
}

/** Whether a scratch array of `length` has to be made anew for `size` (too small, or huge and no longer needed). */
const remake = (length: number, size: number): boolean => length < size || (length > KEEP_CHARS && size <= KEEP_CHARS);

/**
 * The scan of a long text that noted where the words rules need are, for that scan only: the
 * buffers are shared and reused by the next long text.
 */
export interface NeedHits {
  generation: number;
}
let needGeneration = 0;
/** Per needed word: the generation of the last scan that saw it, and its first and last position slots then. */
let needStamp = new Int32Array(0);
let needFirst = new Int32Array(0);
let needLast = new Int32Array(0);
/** Position slots: a token's start and the next slot of the same word (-1: none). */
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
  if (remake(slotAt.length, slots)) {
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

/** True when every clause has a word that is some token's run (in the text last scanned). */
function needsAnywhere(needs: readonly Int32Array[]): boolean {
  for (const clause of needs) if (!anyOccurs(clause)) return false;
  return true;
}

/** Whether a token of one of these words occurs in the text last scanned. */
function anyOccurs(words: Int32Array): boolean {
  for (let k = 0; k < words.length; k++) if (needStamp[words[k] as number] === needGeneration) return true;
  return false;
}

export interface Scan {
  /** Offset of the first word that is not a filler (the text's length when there is none). */
  restStart: number;
  /** "start"/"whole" rules keyed by that first word. */
  firstRules: number[];
  /**
   * The "any" rules whose keys occur, in rule order, and the offsets of their key words:
   * rule `anyRules[i]` has `anyAt[anyFrom[i]]` to `anyAt[anyFrom[i + 1] - 1]`.
   */
  anyRules: number[];
  anyFrom: number[];
  anyAt: number[];
  /** A number word occurs (a rating may be spelled out). */
  hasNumberWord: boolean;
  /** For a long text: where the words rules need are (valid until the next long text is scanned). */
  needs: NeedHits | null;
  /** Letters as `shouting` (frustration.ts) counts them. */
  letters: number;
}

/** Key hits of the text being scanned: rule and offset, in token order. */
let hitRule = new Int32Array(64);
let hitAt = new Int32Array(64);
let hitCount = 0;

function hit(r: number, at: number): void {
  if (hitCount === hitRule.length) {
    const rules = new Int32Array(hitCount * 2);
    const ats = new Int32Array(hitCount * 2);
    rules.set(hitRule);
    ats.set(hitAt);
    [hitRule, hitAt] = [rules, ats];
  }
  hitRule[hitCount] = r;
  hitAt[hitCount] = at;
  hitCount++;
}

/** The tokens of the text being scanned: start, end, FNV-1a hash, end of the leading LETTER run (-1: the whole token). */
let tokStart = new Int32Array(0);
let tokEnd = new Int32Array(0);
let tokHash = new Int32Array(0);
let tokRun = new Int32Array(0);

/**
 * Character classes for long texts (built on the first one): 0 no word character, 1 a LETTER
 * character `shouting` counts as a letter, 2 another LETTER character (digits, "_", capital
 * Cyrillic), 3 another word character ("'", other scripts), 4 U+1680.
 */
let charClasses: Uint8Array | null = null;

function classes(): Uint8Array {
  if (charClasses) return charClasses;
  const c = new Uint8Array(65536);
  // Runs of one class (see isWordChar, isLetterChar and shouting's letters).
  c.fill(3, 0xc0); // every other character is a word character outside LETTER...
  c.fill(0, 0x80, 0xc0); // ...but Latin-1 punctuation,
  c.fill(0, 0x2000, 0x2c00); // general punctuation to miscellaneous symbols,
  c.fill(0, 0x3000, 0x3040); // CJK punctuation,
  c[0xfeff] = 0;
  c[0xd7] = 0;
  c[0xf7] = 0;
  c[0x1680] = 4;
  c.fill(1, 0x61, 0x7b); // a-z
  c.fill(2, 0x30, 0x3a); // 0-9
  c[0x5f] = 2; // _
  c.fill(3, 0x41, 0x5b); // A-Z
  c[0x27] = 3; // '
  c.fill(1, 0xdf, 0xf7);
  c.fill(1, 0xf8, 0x250);
  c.fill(2, 0x400, 0x500);
  c.fill(1, 0x430, 0x460);
  charClasses = c;
  return c;
}

function tokenArrays(n: number): void {
  // A text of n characters has at most n / 2 + 1 tokens.
  const size = (n >>> 1) + 2;
  if (!remake(tokStart.length, size)) return;
  tokStart = new Int32Array(size);
  tokEnd = new Int32Array(size);
  tokHash = new Int32Array(size);
  tokRun = new Int32Array(size);
}

/** Counts of the tokenizer pass besides the tokens. */
let tokCount = 0;
let tokLetters = 0;
let tokOgham = false;

/** Splits `codes[0, n)` into tokens (long texts: with the class table; `codes[n]` is 0). */
function tokenizeLong(codes: Uint16Array, n: number): void {
  const cls = classes();
  const starts = tokStart;
  const ends = tokEnd;
  const hashes = tokHash;
  const runs = tokRun;
  let count = 0;
  let letters = 0;
  let ogham = false;
  let i = 0;
  while (i < n) {
    let c = codes[i] as number;
    let k = cls[c] as number;
    if (k === 0) {
      i++;
      continue;
    }
    let start = i;
    let h = 0x811c9dc5;
    let runEnd = -1;
    do {
      if (k === 1) letters++;
      else if (k >= 3) {
        if (runEnd < 0) runEnd = i;
        if (k === 4) ogham = true;
      }
      h = Math.imul(h ^ c, 0x01000193);
      c = codes[++i] as number;
      k = cls[c] as number;
    } while (k !== 0);
    let end = i;
    if (runEnd >= 0 && (codes[start] === 39 || codes[end - 1] === 39)) {
      while (start < end && codes[start] === 39) start++;
      while (end > start && codes[end - 1] === 39) end--;
      if (end <= start) continue;
      h = 0x811c9dc5;
      runEnd = -1;
      for (let j = start; j < end; j++) {
        const d = codes[j] as number;
        h = Math.imul(h ^ d, 0x01000193);
        if (runEnd < 0 && (cls[d] as number) >= 3) runEnd = j;
      }
    }
    starts[count] = start;
    ends[count] = end;
    hashes[count] = h;
    runs[count] = runEnd;
    count++;
  }
  tokCount = count;
  tokLetters = letters;
  tokOgham = ogham;
}

/** Splits `codes[0, n)` into tokens (short texts: no table). */
function tokenizeShort(codes: Uint16Array, n: number): void {
  let count = 0;
  let letters = 0;
  let i = 0;
  while (i < n) {
    let c = codes[i] as number;
    if ((c < 97 || c > 122) && !isWordChar(c)) {
      i++;
      continue;
    }
    let start = i;
    let apostrophe = false;
    for (;;) {
      if (c >= 97 && c <= 122) letters++;
      else if (c === 39) apostrophe = true;
      else if (c >= 0xdf && ((c <= 0x24f && c !== 0xf7) || (c >= 0x430 && c <= 0x45f))) letters++;
      if (++i >= n) break;
      c = codes[i] as number;
      if ((c < 97 || c > 122) && !isWordChar(c)) break;
    }
    let end = i;
    if (apostrophe) {
      while (start < end && codes[start] === 39) start++;
      while (end > start && codes[end - 1] === 39) end--;
      if (end <= start) continue;
    }
    tokStart[count] = start;
    tokEnd[count] = end;
    count++;
  }
  tokCount = count;
  tokLetters = letters;
  tokOgham = false;
}

/**
 * One pass over the text: a hand-written tokenizer and a lookup per word (a regex
 * alternation of a thousand keys would try every key at every position). Long texts look
 * words up by hash in the word table and note where the words rules need are.
 */
export function scan(m: Matchers, lower: string): Scan {
  let restStart = -1;
  const firstRules: number[] = [];
  const n = lower.length;
  const t = n >= HASH_FILTER_MIN_CHARS && longTextFilters ? tableOf(m) : null;
  const codes = codesOf(lower);
  tokenArrays(n);
  hitCount = 0;
  if (t === null) tokenizeShort(codes, n);
  else {
    resetNeeds(t, n);
    tokenizeLong(codes, n);
  }
  // The first word that is no filler: "start" and "whole" rules are keyed by it.
  for (let k = 0; k < tokCount && restStart < 0; k++) {
    const first = lower.slice(tokStart[k] as number, tokEnd[k] as number);
    if (m.filler.on(first)?.test(first) !== true) {
      restStart = tokStart[k] as number;
      forEachRule(m.first, first, (r) => firstRules.push(r));
    }
  }
  const hasNumberWord = t === null ? lookupShort(m, lower, codes) : lookupLong(m, t, lower, codes);
  // Group the hits by rule (a stable sort keeps each rule's offsets in order); a rule hit
  // twice at one offset (an exact and a prefix key) keeps it once.
  const count = hitCount;
  for (let k = 1; k < count; k++) {
    const r = hitRule[k] as number;
    const at = hitAt[k] as number;
    let j = k - 1;
    while (j >= 0 && (hitRule[j] as number) > r) {
      hitRule[j + 1] = hitRule[j] as number;
      hitAt[j + 1] = hitAt[j] as number;
      j--;
    }
    hitRule[j + 1] = r;
    hitAt[j + 1] = at;
  }
  const anyRules: number[] = [];
  const anyFrom: number[] = [];
  const anyAt: number[] = [];
  for (let k = 0; k < count; k++) {
    const r = hitRule[k] as number;
    const at = hitAt[k] as number;
    if (k === 0 || r !== hitRule[k - 1]) {
      anyRules.push(r);
      anyFrom.push(anyAt.length);
    } else if (at === anyAt[anyAt.length - 1]) continue;
    anyAt.push(at);
  }
  anyFrom.push(anyAt.length);
  return {
    restStart: restStart < 0 ? n : restStart,
    firstRules: firstRules.length > 1 ? [...new Set(firstRules)].sort((a, b) => a - b) : firstRules,
    anyRules,
    anyFrom,
    anyAt,
    hasNumberWord,
    needs: t !== null && !tokOgham ? { generation: needGeneration } : null,
    letters: tokLetters,
  };
}

/** The tokens of a short text looked up in the index's own maps; true when a number word occurs. */
function lookupShort(m: Matchers, lower: string, codes: Uint16Array): boolean {
  let hasNumberWord = false;
  for (let k = 0; k < tokCount; k++) {
    const start = tokStart[k] as number;
    const end = tokEnd[k] as number;
    const word = lower.slice(start, end);
    if (!hasNumberWord && m.numberWords[word] !== undefined) hasNumberWord = true;
    const exact = exactRules(m.any, word);
    if (exact !== undefined) for (let j = 0; j < exact.length; j++) hit(exact[j] as number, start);
    if (end - start >= 2) {
      const group = m.any.prefix.get((codes[start] as number) * 65536 + (codes[start + 1] as number));
      if (group !== undefined) for (const p of group) if (word.startsWith(p.prefix)) for (const r of p.rules) hit(r, start);
    }
  }
  return hasNumberWord;
}

/**
 * The tokens of a long text looked up in the word table: key hits, number words, and where
 * the words rules need are. True when a number word occurs.
 */
function lookupLong(m: Matchers, t: WordTable, lower: string, codes: Uint16Array): boolean {
  let hasNumberWord = false;
  const { slots, mask, charLength, verify, charStart, chars, need: needOfEntry, isNumber, anyRules, prefixHeads2, prefixHeads3 } = t;
  const starts = tokStart;
  const ends = tokEnd;
  const hashes = tokHash;
  const runs = tokRun;
  const count = tokCount;
  const generation = needGeneration;
  const stamp = needStamp;
  const first = needFirst;
  const last = needLast;
  const at = slotAt;
  const next = slotNext;
  let used = 0;
  for (let k = 0; k < count; k++) {
    const start = starts[k] as number;
    const end = ends[k] as number;
    const length = end - start;
    // The token's entry (see `lookup`, written out here: this loop runs for every token).
    const h = hashes[k] as number;
    const high = h & 0xffff0000;
    let e = -1;
    for (let slot = (h ^ (h >>> 15)) & mask; ; slot = (slot + 1) & mask) {
      const v = slots[slot] as number;
      if (v === 0) break;
      if ((v & 0xffff0000) !== high) continue;
      const x = (v & 0xffff) - 1;
      if (charLength[x] !== length) continue;
      if (verify[x] === 1) {
        let j = charStart[x] as number;
        let i = start;
        while (i < end && chars[j] === codes[i]) {
          j++;
          i++;
        }
        if (i < end) continue;
      }
      e = x;
      break;
    }
    let need = -1;
    if (e >= 0) {
      if (isNumber[e] === 1) hasNumberWord = true;
      const exact = anyRules[e];
      if (exact !== undefined) for (let j = 0; j < exact.length; j++) hit(exact[j] as number, start);
      need = needOfEntry[e] as number;
    }
    // The words rules need are runs of LETTER characters: a token with others has its own.
    const runEnd = runs[k] as number;
    if (runEnd >= 0) {
      need = -1;
      if (runEnd > start) {
        const r = lookup(t, hashCodes(codes, start, runEnd), codes, start, runEnd);
        if (r >= 0) need = needOfEntry[r] as number;
      }
    }
    if (need >= 0) {
      const s = used++;
      at[s] = start;
      next[s] = -1;
      if (stamp[need] !== generation) {
        stamp[need] = generation;
        first[need] = s;
      } else next[last[need] as number] = s;
      last[need] = s;
    }
    if (length >= 2) {
      const c0 = codes[start] as number;
      const c1 = codes[start + 1] as number;
      let bit = headBit(c0, c1, 0);
      let maybe = ((prefixHeads2[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
      if (!maybe && length >= 3) {
        bit = headBit(c0, c1, codes[start + 2] as number);
        maybe = ((prefixHeads3[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
      }
      if (maybe) {
        const group = m.any.prefix.get(c0 * 65536 + c1);
        if (group !== undefined) {
          for (const p of group) if (p.prefix.length <= length && lower.startsWith(p.prefix, start)) for (const r of p.rules) hit(r, start);
        }
      }
    }
  }
  return hasNumberWord;
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
export function testNear(rule: CompiledRule, lower: string, positions: ArrayLike<number>, needs: NeedHits | null = null, begin = 0, end = positions.length): boolean {
  const known = needs !== null && needs.generation === needGeneration && rule.needs !== null && lower.length > 2 * KEY_WINDOW_CHARS + 40;
  if (lower.length <= 2 * KEY_WINDOW_CHARS + 40) {
    const re = ruleRegexOn(rule, lower);
    return re !== null && matchesAtWordStart(re, lower);
  }
  // Nowhere in the text: no window needs to be made.
  if (known && (!needsAnywhere(rule.needs as Int32Array[]) || (rule.starts !== null && !anyOccurs(rule.starts)))) return false;
  let coveredTo = -1;
  for (let p = begin; p < end; p++) {
    const at = positions[p] as number;
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
    if (known) {
      if (matchesByWords(rule, lower, from, to)) return true;
      continue;
    }
    if (matchesAtWordStart(ruleRegex(rule), windowText(lower, from, to))) return true;
  }
  return false;
}

/**
 * Whether the rule matches in the window [from, to) of `lower` (as `testNear` makes it), the
 * same answer as `matchesAtWordStart` on the window, trying the regex only where it can
 * match: with start words, only at a word start where a token with one of them begins and the
 * tokens from there on hold what a match starting with it needs; otherwise not at all when
 * the window lacks a word of one of the rule's clauses.
 */
function matchesByWords(rule: CompiledRule, lower: string, from: number, to: number): boolean {
  const starts = rule.starts;
  if (starts === null) {
    if (!needsMet(rule.needs as Int32Array[], from, to)) return false;
    return matchesAtWordStart(ruleRegex(rule), windowText(lower, from, to));
  }
  const startNeeds = rule.startNeeds as Int32Array[][];
  let window: string | null = null;
  for (let k = 0; k < starts.length; k++) {
    const w = starts[k] as number;
    if (needStamp[w] !== needGeneration) continue;
    const needs = startNeeds[k] as Int32Array[];
    for (let s = needFirst[w] as number; s >= 0; s = slotNext[s] as number) {
      const at = slotAt[s] as number;
      if (at >= to) break;
      if (at < from) continue;
      // The window starts a word at `from` (after a space, a key's start or the text's start).
      if (at > from && isWordChar(lower.charCodeAt(at - 1))) continue;
      if (needs.length > 0 && !needsMet(needs, at, to)) continue;
      window ??= windowText(lower, from, to);
      const re = stickyRegex(rule);
      re.lastIndex = at - from + (from === 0 ? 0 : NOT_START.length);
      if (re.test(window)) return true;
    }
  }
  return false;
}

/** The text a rule's regex is tried on for the window [from, to): `NOT_START` in front of one that does not start the text. */
function windowText(lower: string, from: number, to: number): string {
  return from === 0 ? lower.slice(0, to) : NOT_START + lower.slice(from, to);
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
