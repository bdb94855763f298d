/**
 * Turns the index into matchers. Nothing is compiled up front: every rule is a regex built on
 * first use, and a rule is tried only when one of its key words occurs (for "start" and
 * "whole" rules: when the message's first word, after fillers, is a key). A hook process
 * classifies one prompt, so it builds only the few rules that prompt can fire, and those cut
 * to the prompt (see prune.ts); the rules come from the generated rule files (rule-files.ts),
 * not the language files. The text is tokenized once and every word looked up in the index's
 * keys (a regex alternation of a thousand keys would try every key at every position).
 *
 * Example: `scan(buildMatchers(), "no, that's wrong").firstRules.length > 0` -> true (rules
 * keyed by the first word "no").
 */
import type { CaptureIndex } from "./index-build.js";
import { loadIndex } from "./index-file.js";
import type { RuleAt, RuleCategory } from "./lang-data.js";
import { CUT_USES, SubjectRegex } from "./prune.js";
import { ruleTree } from "./rule-files.js";

import { capturingGroups, expandPattern, isCjk, isWordChar, LETTER, ruleFlags, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";

export { capturingGroups, expandPattern, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE };

export interface CompiledRule {
  /** Stable signal name: "<category>.<lang>.<id>". */
  signal: string;
  category: RuleCategory;
  lang: string;
  at: RuleAt;
  weak: boolean;
  /** The rule says the thing was said or done before ("I told you already"): the verdict's repeat cue. */
  repeat: boolean;
  /** The rule's regex (from its language's rule file), made on first use: cut to its subject at first (see prune.ts). */
  regex: SubjectRegex | null;
}

interface KeyIndex {
  /** Exact keys as the index keeps them: " word:1,2 other:3 " (see `keyText` in index-build.ts). */
  text: string;
  /**
   * The same as a prototype-free object, made once `KEY_SEARCHES` words were looked up in the
   * text: a process that classifies one prompt, as the hook's, never makes it (a thousand-key
   * object is much of what such a process would allocate).
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
  /** The index's rule entries ("signal:at:flag", flag 1 weak, r a repeat, else 0), by index. */
  ruleEntries: string[];
  /** Keys of "any" rules: any word of the text. */
  any: KeyIndex;
  /** Keys of "start" and "whole" rules: the first word after fillers. */
  first: KeyIndex;
  /** Matches one filler word ("oh", "hmm", "ok", "niin", "ну"). */
  filler: SubjectRegex;
  /** Number words of every language (a rating may be spelled out). */
  numberWords: Record<string, number | undefined>;
  /** Uses of each rule's regex cut to its subject (see `SubjectRegex`). */
  cutUses: number;
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

/** The first two characters of a word as one number. */
function headOf(word: string): number {
  return word.charCodeAt(0) * 65536 + word.charCodeAt(1);
}

/** Appends (rule, `at`) for every rule keyed by `word` in `index`, exact and prefix keys (a rule may repeat). */
function addKeyed(index: KeyIndex, word: string, at: number, out: number[]): void {
  const exact = exactRules(index, word);
  if (exact !== undefined) for (let j = 0; j < exact.length; j++) out.push(exact[j]!, at);
  if (word.length < 2) return;
  const group = index.prefix.get(headOf(word));
  if (group !== undefined) for (const p of group) if (word.startsWith(p.prefix)) for (const r of p.rules) out.push(r, at);
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
    repeat: entry.slice(c2 + 1) === "r",
    regex: null,
  };
  m.rules[i] = rule;
  return rule;
}

/** The matchers of an index (by default the committed `lang/index.json`); `cutUses` as `SubjectRegex` takes it. */
export function buildMatchers(ix: CaptureIndex = loadIndex(), cutUses: number = CUT_USES): Matchers {
  const ruleEntries = ix.rules.split("|");
  return {
    rules: new Array<CompiledRule | undefined>(ruleEntries.length),
    ruleEntries,
    any: keyIndex(ix.any, ix.any_prefix),
    first: keyIndex(ix.first, ix.first_prefix),
    filler: new SubjectRegex(ix.fillers_tree, "", cutUses),
    // The index's own object, made prototype-free ("constructor" is no key).
    numberWords: Object.setPrototypeOf(ix.numbers, null) as Matchers["numberWords"],
    cutUses,
  };
}

/**
 * The rule's regex for `subject` (the string it is run on): cut to it for the rule's first
 * uses (see prune.ts), null when it cannot match there. With a `prefix`, for windows of the
 * subject with the prefix in front (see `testNear`).
 */
export function ruleRegexOn(m: Matchers, rule: CompiledRule, subject: string, prefix = ""): RegExp | null {
  rule.regex ??= new SubjectRegex(ruleTree(rule.signal, rule.lang), ruleFlags(rule.at), m.cutUses);
  return rule.regex.onWindowsOf(subject, prefix);
}

export interface Scan {
  /** Offset of the first word that is not a filler (the text's length when there is none). */
  restStart: number;
  /** "start"/"whole" rules keyed by that first word, in rule order. */
  firstRules: number[];
  /** The "any" rules whose keys occur, in rule order, each with the offsets of its key words in text order. */
  anyHits: Array<{ rule: number; at: number[] }>;
  /** A number word occurs (a rating may be spelled out). */
  hasNumberWord: boolean;
}

/**
 * One pass over the text: each token (a run of word characters, apostrophes trimmed at both
 * ends; a kana or CJK ideograph is a token of its own) looked up in the keys of "any" rules and the number words; the first token that is no
 * filler in the keys of "start" and "whole" rules.
 */
export function scan(m: Matchers, lower: string): Scan {
  let restStart = -1;
  let hasNumberWord = false;
  // Key hits as (rule, offset) pairs in text order.
  const hits: number[] = [];
  const first: number[] = [];
  const n = lower.length;
  let i = 0;
  while (i < n) {
    let c = lower.charCodeAt(i);
    if ((c < 97 || c > 122) && !isWordChar(c)) {
      i++;
      continue;
    }
    let start = i;
    let apostrophe = false;
    if (c >= 0x3040 && isCjk(c)) i++;
    else {
      for (;;) {
        if (c === 39) apostrophe = true;
        if (++i >= n) break;
        c = lower.charCodeAt(i);
        if (((c < 97 || c > 122) && !isWordChar(c)) || (c >= 0x3040 && isCjk(c))) break;
      }
    }
    let end = i;
    if (apostrophe) {
      while (start < end && lower.charCodeAt(start) === 39) start++;
      while (end > start && lower.charCodeAt(end - 1) === 39) end--;
      if (end <= start) continue;
    }
    const word = lower.slice(start, end);
    if (!hasNumberWord && m.numberWords[word] !== undefined) hasNumberWord = true;
    addKeyed(m.any, word, start, hits);
    if (restStart < 0 && m.filler.on(word)?.test(word) !== true) {
      restStart = start;
      addKeyed(m.first, word, start, first);
    }
  }
  const firstRules = first.filter((_, k) => k % 2 === 0);
  return { restStart: restStart < 0 ? n : restStart, firstRules: firstRules.length > 1 ? [...new Set(firstRules)].sort((a, b) => a - b) : firstRules, anyHits: groupHits(hits), hasNumberWord };
}

/**
 * Key hits (rule, offset pairs in text order) grouped by rule, in rule order, each rule's
 * offsets in text order; a rule hit twice at one offset (an exact and a prefix key) keeps it once.
 */
function groupHits(hits: readonly number[]): Scan["anyHits"] {
  const byRule = new Map<number, number[]>();
  for (let k = 0; k < hits.length; k += 2) {
    const rule = hits[k]!;
    const at = hits[k + 1]!;
    const list = byRule.get(rule);
    if (list === undefined) byRule.set(rule, [at]);
    else if (list[list.length - 1] !== at) list.push(at);
  }
  return [...byRule].sort((a, b) => a[0] - b[0]).map(([rule, at]) => ({ rule, at }));
}

/** How far around a key an "any" rule may reach, in characters (rules span a few words). */
export const KEY_WINDOW_CHARS = 64;
/** Texts up to this long are tried whole (a window would be most of them). */
const WHOLE_TEXT_CHARS = 2 * KEY_WINDOW_CHARS + 40;
/** Stands in front of a window that does not start the message, so `^` cannot match there. */
const NOT_START = "\u0001 ";

/**
 * Tests an "any" rule only near its key words (at `positions`): the window runs from a word
 * start about KEY_WINDOW_CHARS before the key to a word end about as far after it, so a long
 * prompt costs no more per key than a short one. What a rule matches is so bounded: a match
 * must lie in a window around one of its keys.
 */
export function testNear(m: Matchers, rule: CompiledRule, lower: string, positions: readonly number[]): boolean {
  if (lower.length <= WHOLE_TEXT_CHARS) {
    const re = ruleRegexOn(m, rule, lower);
    return re !== null && matchesAtWordStart(re, lower);
  }
  // One regex for every window of the text (cut to the text at first).
  let windows: RegExp | null | undefined;
  let coveredTo = -1;
  for (const at of positions) {
    if (at < coveredTo) continue;
    if (windows === undefined) windows = ruleRegexOn(m, rule, lower, NOT_START);
    if (windows === null) return false;
    const from = windowFrom(lower, at);
    const to = windowTo(lower, at);
    coveredTo = to - KEY_WINDOW_CHARS;
    if (matchesAtWordStart(windows, from === 0 ? lower.slice(0, to) : NOT_START + lower.slice(from, to))) return true;
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

/**
 * A match of a global regex that starts a word (the character before is not a letter, digit
 * or "'"). Rules have no leading lookbehind (see `ruleSource` in compile-core.ts): it is checked here.
 */
function matchesAtWordStart(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const i = m.index;
    const before = text.charCodeAt(i - 1);
    if (i === 0 || !isWordChar(before) || (before >= 0x3040 && isCjk(before)) || isCjk(text.charCodeAt(i))) return true;
    re.lastIndex = i + 1;
  }
  return false;
}
