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
 * Long texts (400 characters and more) take a faster way to the same verdicts. One pass
 * tokenizes the text and looks every token up, as it ends, by hash in one word table (built on
 * the first long text) that also holds the words rules need (`needs` in the index, read from
 * the patterns by `ruleNeeds` in index-build.ts); key hits are noted by token, and the rules a
 * token keys share its window. A window around a key is tried only when its tokens hold what
 * a match needs, and a rule with known start words only at tokens with those words, with a
 * sticky regex (the window's tokens read once, from its end). `setLongTextFilters(false)`
 * turns this off (tests compare both ways).
 *
 * Pattern shorthand: a space outside a character class is `\s+` (" *" and " ?" optional
 * whitespace), `{w}` is one word and `{w}?` an optional word tail.
 *
 * Example: `expandPattern("i told you {w}")` ->
 * `"i\\s+told\\s+you\\s+[a-z0-9_\\u00df-\\u024f\\u0400-\\u04ff'-]+"`.
 */
import type { CaptureIndex } from "./index-build.js";
import { loadIndex } from "./index-file.js";
import type { RuleAt, RuleCategory } from "./lang-data.js";
import { cutsFresh, SubjectRegex } from "./prune.js";
import { ruleTree } from "./rule-files.js";

import { capturingGroups, expandPattern, isWordChar, LETTER, ruleFlags, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";

export { capturingGroups, expandPattern, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE };

export interface CompiledRule {
  /** Stable signal name: "<category>.<lang>.<id>". */
  signal: string;
  category: RuleCategory;
  lang: string;
  at: RuleAt;
  weak: boolean;
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

/** The rule's regex, not compiled yet, from its language's rule file (see prune.ts). */
function subjectRegex(rule: CompiledRule): SubjectRegex {
  rule.regex ??= new SubjectRegex(ruleTree(rule.signal, rule.lang), ruleFlags(rule.at));
  return rule.regex;
}

/**
 * Whether the rule's next try runs a regex cut to the text (see prune.ts), which itself drops
 * what cannot match: a prefilter (`mayMatchShort`) then saves nothing.
 */
export function ruleCutsNext(rule: CompiledRule): boolean {
  return rule.regex === null ? cutsFresh() : rule.regex.cutsNext();
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

/** The rule's regex for the windows of `text` (see `testNear`; `SubjectRegex.onWindowsOf`). */
function ruleRegexOnWindows(rule: CompiledRule, text: string): RegExp | null {
  return subjectRegex(rule).onWindowsOf(text, NOT_START);
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
  /** Rules by index, each made on first use (read them with `ruleAt`). */
  rules: Array<CompiledRule | undefined>;
  /** The index's rule entries ("signal:at:weak"), by index. */
  ruleEntries: string[];
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
  /** Long texts scanned so far (the word table is built after `PLAIN_LONG_TEXTS`). */
  longTexts: number;
  /** Every "any" key, number word and needed word by hash (built on a later long text, see `PLAIN_LONG_TEXTS`). */
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

/**
 * Rule `i` of the matchers, made on first use from the index's "signal:at:weak" entry (a hook
 * process makes only the few rules its prompt unlocks); undefined past the last rule.
 */
export function ruleAt(m: Matchers, i: number): CompiledRule | undefined {
  const made = m.rules[i];
  if (made !== undefined) return made;
  const entry = m.ruleEntries[i];
  if (entry === undefined) return undefined;
  const c1 = entry.indexOf(":");
  const c2 = entry.indexOf(":", c1 + 1);
  const signal = entry.slice(0, c1);
  const d1 = signal.indexOf(".");
  const d2 = signal.indexOf(".", d1 + 1);
  const rule: CompiledRule = {
    signal,
    category: signal.slice(0, d1) as RuleCategory,
    lang: signal.slice(d1 + 1, d2),
    at: entry.slice(c1 + 1, c2) as RuleAt,
    weak: entry.slice(c2 + 1) === "1",
    regex: null,
    needs: null,
    starts: null,
    startNeeds: null,
    sticky: null,
  };
  m.rules[i] = rule;
  return rule;
}

/** The matchers of an index (by default the committed `lang/index.json`). */
export function buildMatchers(ix: CaptureIndex = loadIndex()): Matchers {
  const ruleEntries = ix.rules.split("|");
  return {
    rules: new Array<CompiledRule | undefined>(ruleEntries.length),
    ruleEntries,
    // The index's own objects, made prototype-free ("constructor" is no key).
    any: keyIndex(ix.any, ix.any_prefix),
    first: keyIndex(ix.first, ix.first_prefix),
    filler: new SubjectRegex(ix.fillers_tree, ""),
    numberWords: Object.setPrototypeOf(ix.numbers, null) as Matchers["numberWords"],
    index: ix,
    longTexts: 0,
    table: null,
  };
}

/**
 * The words a long text is looked up in, by FNV-1a hash in an open-addressing table (no
 * string is made for a word that is none of them): "any" keys (whole tokens), number words
 * and the words rules need (a token's leading run of LETTER characters, see `scanLong`).
 */
interface WordTable {
  mask: number;
  /**
   * Two numbers per slot: the word's whole hash, then its entry + 1 in the low 16 bits, its
   * length (at most 255) in the next 8 and, in bit 24, whether a token must be compared with
   * it character by character (0: an empty slot). One read of a cache line per probe.
   */
  slots: Int32Array;
  words: string[];
  /** Per entry: the "any" rules keyed by the word, or undefined. */
  anyRules: Array<number[] | undefined>;
  isNumber: Uint8Array;
  /** Per entry: the word's id among needed words (1 to `needCount`), or 0. */
  need: Int32Array;
  /** Needed words. */
  needCount: number;
  /** Per entry: where its characters start in `chars` (they end where the next entry's start: one more number at the end). */
  charStart: Int32Array;
  chars: Uint16Array;
  /**
   * Bits (see `headBit`) of the two-character prefix keys and of the first three characters
   * of longer ones: a word whose head has no bit set starts with no prefix key.
   */
  prefixHeads2: Uint32Array;
  prefixHeads3: Uint32Array;
}

/** A slot's length field holds lengths below this; longer words are compared character by character. */
const SLOT_MAX_LENGTH = 255;
/** The slot bit that says "compare the characters". */
const SLOT_VERIFY = 1 << 24;

/** A bit (of 32768) for the first two or three characters of a word (c2 = 0 for two). */
function headBit(c0: number, c1: number, c2: number): number {
  return ((c0 & 31) << 10) | ((c1 & 31) << 5) | (c2 & 31);
}

/** The slot a hash is looked up from (then the next ones). */
function homeSlot(h: number, mask: number): number {
  return (h ^ (h >>> 15)) & mask;
}

/** A word's length as a slot holds it (bits 16-23). */
function slotLength(length: number): number {
  return (length < SLOT_MAX_LENGTH ? length : SLOT_MAX_LENGTH) << 16;
}

function tableOf(m: Matchers): WordTable {
  if (m.table) return m.table;
  const entries = new Map<string, { rules: number[] | undefined; number: boolean; need: number }>();
  const entry = (w: string): { rules: number[] | undefined; number: boolean; need: number } => {
    let e = entries.get(w);
    if (e === undefined) {
      e = { rules: undefined, number: false, need: 0 };
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
    if (e.need === 0) e.need = ++needCount;
    return e.need;
  };
  m.index.needs.forEach((src, i) => {
    const rule = ruleAt(m, i);
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
    slots: new Int32Array(2 * size),
    words: [],
    anyRules: [],
    isNumber: new Uint8Array(entries.size),
    need: new Int32Array(entries.size),
    needCount,
    charStart: new Int32Array(entries.size + 1),
    chars: new Uint16Array([...entries.keys()].reduce((a, w) => a + w.length, 0)),
    prefixHeads2: new Uint32Array(1024),
    prefixHeads3: new Uint32Array(1024),
  };
  // Words that share a hash and a length are all compared character by character.
  const shapes = new Map<string, number>();
  for (const w of entries.keys()) {
    const shape = `${hashRange(w, 0, w.length)}:${w.length}`;
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  let at = 0;
  for (const [w, e] of entries) {
    const k = t.words.length;
    t.words.push(w);
    t.charStart[k] = at;
    for (let j = 0; j < w.length; j++) t.chars[at++] = w.charCodeAt(j);
    t.anyRules.push(e.rules);
    t.isNumber[k] = e.number ? 1 : 0;
    t.need[k] = e.need;
    const h = hashRange(w, 0, w.length) | 0;
    const shared = (shapes.get(`${h >>> 0}:${w.length}`) ?? 0) > 1;
    const verify = e.rules !== undefined || e.number || shared || w.length >= SLOT_MAX_LENGTH;
    let slot = homeSlot(h, t.mask);
    while (t.slots[2 * slot + 1] !== 0) slot = (slot + 1) & t.mask;
    t.slots[2 * slot] = h;
    t.slots[2 * slot + 1] = (k + 1) | slotLength(w.length) | (verify ? SLOT_VERIFY : 0);
  }
  t.charStart[entries.size] = at;
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
 * check (see `WordTable.slots`) a word with the same hash and length may be taken for it.
 */
function lookup(t: WordTable, h: number, codes: Uint16Array, start: number, end: number): number {
  const slots = t.slots;
  const length = slotLength(end - start);
  for (let slot = homeSlot(h, t.mask); ; slot = (slot + 1) & t.mask) {
    const v = slots[2 * slot + 1] as number;
    if (v === 0) return -1;
    if (slots[2 * slot] !== h || (v & 0xff0000) !== length) continue;
    const e = (v & 0xffff) - 1;
    if ((v & SLOT_VERIFY) === 0 || sameChars(t, e, codes, start, end)) return e;
  }
}

/** Whether entry `e` is the word `codes[start, end)`. */
function sameChars(t: WordTable, e: number, codes: Uint16Array, start: number, end: number): boolean {
  let j = t.charStart[e] as number;
  if ((t.charStart[e + 1] as number) - j !== end - start) return false;
  const chars = t.chars;
  for (let k = start; k < end; k++, j++) if (chars[j] !== codes[k]) return false;
  return true;
}

/**
 * What every scratch array below starts as: one empty array made at load (a hook process
 * that classifies a short prompt grows only the few it uses).
 */
const NO_NUMBERS = new Int32Array(0);

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
 * Long texts a process classifies the plain way before it builds the word table: building it
 * costs a fresh process about 20 ms (every word of the index and every rule's needs, in code
 * not yet optimized), twenty times the plain way for one long prompt, as the hook's.
 */
const PLAIN_LONG_TEXTS = 1;

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
  if (!shortFilterAlways && m.rules[ruleIndex]?.regex?.whole != null) return true; // (a rule not made yet is not compiled)
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
  /** The token of each key offset of the scan's `anyAt` (the same order). */
  tokens: number[];
}
let needGeneration = 0;
/** Per needed word (by id, see `WordTable.need`; 0 is no word): the generation of the last scan that saw it. */
let needStamp = NO_NUMBERS;
/** Per needed word: the mark of the last window (see `markWindow`) that held it. */
let needSeen = NO_NUMBERS;
let windowMark = 0;
/**
 * Per needed word, while one rule is tried in a window: 1 + the first index in the rule's
 * `starts` that holds it (0: none; see `startNext` for the others).
 */
let startMark = NO_NUMBERS;
/** Per index of a rule's `starts`: the next index with the same word, or -1 (filled for one rule at a time). */
let startNext = NO_NUMBERS;

function resetNeeds(t: WordTable): void {
  if (needStamp.length <= t.needCount) {
    needStamp = new Int32Array(t.needCount + 1);
    needSeen = new Int32Array(t.needCount + 1);
    startMark = new Int32Array(t.needCount + 1);
    windowMark = 0;
  }
}

/**
 * Marks the needed words of the tokens before `hi` that start at `from` or after (of the text
 * last scanned) as held by a new window; returns its mark.
 */
function markWindow(from: number, hi: number): number {
  if (windowMark >= 0x3fffffff) {
    needSeen.fill(0);
    windowMark = 0;
  }
  const mark = ++windowMark;
  const seen = needSeen;
  const words = tokNeed;
  const starts = tokStart;
  for (let k = hi - 1; k >= 0 && (starts[k] as number) >= from; k--) seen[words[k] as number] = mark;
  return mark;
}

/** True when every clause has a word marked `mark` in `seen` (`needSeen`, see `markWindow`). */
function clausesHeld(needs: readonly Int32Array[], seen: Int32Array, mark: number): boolean {
  for (let c = 0; c < needs.length; c++) {
    const clause = needs[c] as Int32Array;
    let held = false;
    for (let k = 0; k < clause.length; k++) {
      if (seen[clause[k] as number] === mark) {
        held = true;
        break;
      }
    }
    if (!held) return false;
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
  const stamp = needStamp;
  const generation = needGeneration;
  for (let k = 0; k < words.length; k++) if (stamp[words[k] as number] === generation) return true;
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

/** Key hits of the text being scanned: rule and offset (long texts: token), in token order. */
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

/** The tokens of the text being scanned: start, end, and (long texts) the id of the needed word of its run (0: none). */
let tokStart = NO_NUMBERS;
let tokEnd = NO_NUMBERS;
let tokNeed = NO_NUMBERS;

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

/** Sizes the token arrays for a text of n characters (`tokNeed` for a long text only). */
function tokenArrays(n: number, long: boolean): void {
  // A text of n characters has at most n / 2 + 1 tokens.
  const size = (n >>> 1) + 2;
  if (remake(tokStart.length, size)) {
    tokStart = new Int32Array(size);
    tokEnd = new Int32Array(size);
  }
  if (long && tokNeed.length !== tokStart.length) tokNeed = new Int32Array(tokStart.length);
}

/** Counts of the tokenizer pass besides the tokens. */
let tokCount = 0;
let tokLetters = 0;
let tokOgham = false;

const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * One pass over a long text `codes[0, n)` (`codes[n]` is 0): splits it into tokens (with the
 * class table) and looks each up in the word table as it ends: key hits (see `hit`), the
 * needed word of the token's run, number words. True when a number word occurs.
 *
 * A token's run is its leading stretch of LETTER characters (the words rules need are such
 * runs): the whole token when it has no other character, otherwise looked up on its own (the
 * hash of a prefix is the hash the token had there).
 */
function scanLong(m: Matchers, t: WordTable, lower: string, codes: Uint16Array, n: number): boolean {
  const cls = classes();
  const { slots, mask, need: needOfEntry, isNumber, anyRules, prefixHeads2, prefixHeads3 } = t;
  const starts = tokStart;
  const ends = tokEnd;
  const needs = tokNeed;
  const stamp = needStamp;
  const generation = needGeneration;
  let hasNumberWord = false;
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
    let h = FNV_BASIS;
    let runEnd = -1;
    let runHash = 0;
    do {
      if (k === 1) letters++;
      else if (k >= 3) {
        if (runEnd < 0) {
          runEnd = i;
          runHash = h;
        }
        if (k === 4) ogham = true;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
      c = codes[++i] as number;
      k = cls[c] as number;
    } while (k !== 0);
    let end = i;
    if (runEnd >= 0 && (codes[start] === 39 || codes[end - 1] === 39)) {
      while (start < end && codes[start] === 39) start++;
      while (end > start && codes[end - 1] === 39) end--;
      if (end <= start) continue;
      h = FNV_BASIS;
      runEnd = -1;
      for (let j = start; j < end; j++) {
        const d = codes[j] as number;
        if (runEnd < 0 && (cls[d] as number) >= 3) {
          runEnd = j;
          runHash = h;
        }
        h = Math.imul(h ^ d, FNV_PRIME);
      }
    }
    const length = end - start;
    // The token's entry (see `lookup`, written out here: this runs for every token).
    const want = slotLength(length);
    let e = -1;
    for (let slot = homeSlot(h, mask); ; slot = (slot + 1) & mask) {
      const v = slots[2 * slot + 1] as number;
      if (v === 0) break;
      if (slots[2 * slot] !== h || (v & 0xff0000) !== want) continue;
      const x = (v & 0xffff) - 1;
      if ((v & SLOT_VERIFY) !== 0 && !sameChars(t, x, codes, start, end)) continue;
      e = x;
      break;
    }
    let need = 0;
    if (e >= 0) {
      if (isNumber[e] === 1) hasNumberWord = true;
      const exact = anyRules[e];
      // Long texts note a hit's token (see `groupHitsByLists`).
      if (exact !== undefined) for (let j = 0; j < exact.length; j++) hit(exact[j] as number, count);
      need = needOfEntry[e] as number;
    }
    // A token with characters outside LETTER has its run looked up on its own.
    if (runEnd >= 0) {
      need = 0;
      if (runEnd > start) {
        const r = lookup(t, runHash, codes, start, runEnd);
        if (r >= 0) need = needOfEntry[r] as number;
      }
    }
    starts[count] = start;
    ends[count] = end;
    needs[count] = need;
    stamp[need] = generation;
    count++;
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
          for (const p of group) if (p.prefix.length <= length && lower.startsWith(p.prefix, start)) for (const r of p.rules) hit(r, count - 1);
        }
      }
    }
  }
  tokCount = count;
  tokLetters = letters;
  tokOgham = ogham;
  return hasNumberWord;
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
  const t = n >= HASH_FILTER_MIN_CHARS && longTextFilters && (m.table !== null || ++m.longTexts > PLAIN_LONG_TEXTS) ? tableOf(m) : null;
  const codes = codesOf(lower);
  tokenArrays(n, t !== null);
  hitCount = 0;
  // A new scan: what the last one noted (`NeedHits`) no longer holds.
  needGeneration = (needGeneration + 1) | 0 || 1;
  let hasNumberWord: boolean;
  if (t === null) {
    tokenizeShort(codes, n);
    hasNumberWord = lookupShort(m, lower, codes);
  } else {
    resetNeeds(t);
    hasNumberWord = scanLong(m, t, lower, codes, n);
  }
  // The first word that is no filler: "start" and "whole" rules are keyed by it.
  for (let k = 0; k < tokCount && restStart < 0; k++) {
    const first = lower.slice(tokStart[k] as number, tokEnd[k] as number);
    if (m.filler.on(first)?.test(first) !== true) {
      restStart = tokStart[k] as number;
      forEachRule(m.first, first, (r) => firstRules.push(r));
    }
  }
  const anyRules: number[] = [];
  const anyFrom: number[] = [];
  const anyAt: number[] = [];
  const anyTok: number[] = [];
  if (t === null) groupHits(anyRules, anyFrom, anyAt);
  else groupHitsByLists(m.ruleEntries.length, anyRules, anyFrom, anyAt, anyTok);
  return {
    restStart: restStart < 0 ? n : restStart,
    firstRules: firstRules.length > 1 ? [...new Set(firstRules)].sort((a, b) => a - b) : firstRules,
    anyRules,
    anyFrom,
    anyAt,
    hasNumberWord,
    needs: t !== null && !tokOgham ? { generation: needGeneration, tokens: anyTok } : null,
    letters: tokLetters,
  };
}

/**
 * The key hits grouped by rule, in rule order, each rule's offsets in token order; a rule hit
 * twice at one offset (an exact and a prefix key) keeps it once. Short texts: a stable
 * insertion sort of the few hits.
 */
function groupHits(anyRules: number[], anyFrom: number[], anyAt: number[]): void {
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
}

/** Per rule: the grouping that last saw it, and its first and last hit then; per hit: the next hit of its rule (-1: none). */
let ruleSeen = NO_NUMBERS;
let ruleFirstHit = NO_NUMBERS;
let ruleLastHit = NO_NUMBERS;
let hitNext = NO_NUMBERS;
let groupings = 0;

/**
 * As `groupHits`, for long texts (tens of hits, noted by token): each rule's hits linked in
 * token order, then only the rules sorted. `anyTok` gets the token of each offset.
 */
function groupHitsByLists(ruleCount: number, anyRules: number[], anyFrom: number[], anyAt: number[], anyTok: number[]): void {
  if (ruleSeen.length < ruleCount) {
    ruleSeen = new Int32Array(ruleCount);
    ruleFirstHit = new Int32Array(ruleCount);
    ruleLastHit = new Int32Array(ruleCount);
    groupings = 0;
  }
  if (hitNext.length < hitRule.length) hitNext = new Int32Array(hitRule.length);
  const seen = ruleSeen;
  const mark = (groupings = (groupings + 1) | 0 || 1);
  const count = hitCount;
  for (let k = 0; k < count; k++) {
    const r = hitRule[k] as number;
    hitNext[k] = -1;
    if (seen[r] !== mark) {
      seen[r] = mark;
      ruleFirstHit[r] = k;
      anyRules.push(r);
    } else hitNext[ruleLastHit[r] as number] = k;
    ruleLastHit[r] = k;
  }
  // Insertion sort: a long text hits a few tens of rules.
  for (let k = 1; k < anyRules.length; k++) {
    const r = anyRules[k] as number;
    let j = k - 1;
    while (j >= 0 && (anyRules[j] as number) > r) {
      anyRules[j + 1] = anyRules[j] as number;
      j--;
    }
    anyRules[j + 1] = r;
  }
  for (let i = 0; i < anyRules.length; i++) {
    anyFrom.push(anyAt.length);
    let last = -1;
    for (let k = ruleFirstHit[anyRules[i] as number] as number; k >= 0; k = hitNext[k] as number) {
      const tok = hitAt[k] as number;
      if (tok === last) continue;
      anyAt.push(tokStart[tok] as number);
      anyTok.push(tok);
      last = tok;
    }
  }
  anyFrom.push(anyAt.length);
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
  // The plain way: the rule's regex for the windows of `lower` (cut to the text at first).
  let windows: RegExp | null | undefined;
  for (let p = begin; p < end; p++) {
    const at = positions[p] as number;
    if (at < coveredTo) continue;
    if (known) {
      // Rules keyed by one word share its window: made once per key token and scan.
      const key = (needs as NeedHits).tokens[p] as number;
      if (windowStamp.length < tokCount) windowArrays(tokCount);
      if (windowStamp[key] !== needGeneration) {
        const from = windowFrom(lower, at);
        const to = windowTo(lower, at);
        // The window's tokens end before `hi`: a few steps from the key's token.
        const starts = tokStart;
        const count = tokCount;
        let hi = key + 1;
        while (hi < count && (starts[hi] as number) < to) hi++;
        windowStamp[key] = needGeneration;
        windowStart[key] = from;
        windowEnd[key] = to;
        windowTokens[key] = hi;
      }
      const to = windowEnd[key] as number;
      coveredTo = to - KEY_WINDOW_CHARS;
      if (matchesByWords(rule, lower, windowStart[key] as number, to, windowTokens[key] as number)) return true;
      continue;
    }
    if (windows === undefined) windows = ruleRegexOnWindows(rule, lower);
    if (windows === null) return false;
    const to = windowTo(lower, at);
    coveredTo = to - KEY_WINDOW_CHARS;
    if (matchesAtWordStart(windows, windowText(lower, windowFrom(lower, at), to))) return true;
  }
  return false;
}

/** Where the window around a key at `at` starts: at a word start about KEY_WINDOW_CHARS before it. */
function windowFrom(lower: string, at: number): number {
  const from = Math.max(0, at - KEY_WINDOW_CHARS);
  if (from === 0) return 0;
  const space = lower.indexOf(" ", from);
  return space < 0 || space >= at ? at : space + 1;
}

/** Where the window around a key at `at` ends: at a word end about KEY_WINDOW_CHARS after it. */
function windowTo(lower: string, at: number): number {
  const to = Math.min(lower.length, at + KEY_WINDOW_CHARS);
  if (to === lower.length) return to;
  const space = lower.indexOf(" ", to);
  return space < 0 ? lower.length : space;
}

/** Per key token of a long text: the scan its window was made for, the window's bounds and the token after its last. */
let windowStamp = NO_NUMBERS;
let windowStart = NO_NUMBERS;
let windowEnd = NO_NUMBERS;
let windowTokens = NO_NUMBERS;

function windowArrays(tokens: number): void {
  const size = Math.max(tokens, 2 * windowStamp.length);
  windowStamp = new Int32Array(size);
  windowStart = new Int32Array(size);
  windowEnd = new Int32Array(size);
  windowTokens = new Int32Array(size);
}

/**
 * Whether the rule matches in the window [from, to) of `lower` (as `testNear` makes it; its
 * last token is `hi - 1` of the text last scanned), the
 * same answer as `matchesAtWordStart` on the window, trying the regex only where it can
 * match: with start words, only at a word start where a token with one of them begins and the
 * tokens from there on hold what a match starting with it needs; otherwise not at all when
 * the window lacks a word of one of the rule's clauses. One pass over the window's tokens,
 * from its end: each token's word is marked as held before the start word it may be is
 * checked, so the marks are what the tokens from there to the end hold.
 */
function matchesByWords(rule: CompiledRule, lower: string, from: number, to: number, hi: number): boolean {
  const starts = rule.starts;
  if (starts === null) {
    if (!clausesHeld(rule.needs as Int32Array[], needSeen, markWindow(from, hi))) return false;
    return matchesAtWordStart(ruleRegex(rule), windowText(lower, from, to));
  }
  const startNeeds = rule.startNeeds as Int32Array[][];
  // Module variables read once (the loop below runs for every token of the window).
  const marks = startMark;
  const seen = needSeen;
  const words = tokNeed;
  const tokens = tokStart;
  // The start words, marked for this rule (a word may start several groups: chained).
  if (startNext.length < starts.length) startNext = new Int32Array(2 * starts.length);
  const chain = startNext;
  for (let k = starts.length - 1; k >= 0; k--) {
    const w = starts[k] as number;
    chain[k] = (marks[w] as number) - 1;
    marks[w] = k + 1;
  }
  const mark = markWindow(to, hi);
  let window: string | null = null;
  let found = false;
  for (let j = hi - 1; j >= 0; j--) {
    const at = tokens[j] as number;
    if (at < from) break;
    const w = words[j] as number;
    seen[w] = mark;
    let s = (marks[w] as number) - 1;
    if (s < 0) continue;
    // The window starts a word at `from` (after a space, a key's start or the text's start).
    if (at > from && isWordChar(lower.charCodeAt(at - 1))) continue;
    for (; s >= 0; s = chain[s] as number) {
      const needs = startNeeds[s] as Int32Array[];
      if (needs.length > 0 && !clausesHeld(needs, seen, mark)) continue;
      // Tried once at this token, whichever group let it.
      window ??= windowText(lower, from, to);
      const re = stickyRegex(rule);
      re.lastIndex = at - from + (from === 0 ? 0 : NOT_START.length);
      found = re.test(window);
      break;
    }
    if (found) break;
  }
  for (let k = 0; k < starts.length; k++) marks[starts[k] as number] = 0;
  return found;
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
