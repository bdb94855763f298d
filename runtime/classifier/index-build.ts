/**
 * The classifier's index, built from the language files: every rule's signal and where it
 * applies, the key words that unlock rules, fillers, number words, and the finished regex
 * sources of the rating and reply checks. It is written to `lang/index.json` (see
 * `index-file.ts`) so that a hook process parses one small file instead of seven language
 * files; a test fails when the committed index no longer matches the language files.
 * The rules' regexes are not in it: they go to one rule file per language (`buildRuleFiles`,
 * read by rule-files.ts when a rule of that language is first tried).
 *
 * Example: `buildIndex(languages()).rules.split("|")[0]` -> `"correction.en.no_strong:start:0"`;
 * `.any` holds `" wrong:12,40 "`: the indexes of the rules keyed by "wrong".
 */
import { createHash } from "node:crypto";
import { expandPattern, isLetterChar, isWordChar, LETTER, ruleSource, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";
import { RULE_CATEGORIES, type LangData, type RuleAt, type RuleCategory } from "./lang-data.js";
import { compactTree, parseRegex, type CutTree } from "./prune.js";
import { ruleFileText } from "./rule-files.js";

import { INDEX_SCHEMA } from "./index-file.js";

export { INDEX_SCHEMA };

/** [signal, category, lang, at, weak (0|1)] */
export type IndexRule = [string, RuleCategory, string, RuleAt, 0 | 1];

export interface CaptureIndex {
  schema: typeof INDEX_SCHEMA;
  /** sha256 over the language files' canonical JSON, in LANGUAGE_CODES order. */
  source_sha256: string;
  /**
   * Every rule as "signal:at:weak" ("correction.en.no_strong:start:0"), joined by "|": one
   * string to parse; a process makes a rule's object when it first tries the rule.
   */
  rules: string;
  /**
   * "any" keys: word -> rule indexes as text (" word:1,2 other:3 ", see `keyText`), searched
   * by a process that looks up few words; prefix keys ("fuck*") without the star.
   */
  any: string;
  any_prefix: Record<string, number[]>;
  /** "start"/"whole" keys (as `any`): the message's first word after fillers. */
  first: string;
  first_prefix: Record<string, number[]>;
  /** The filler regex (one filler word, `^(?:…)$`) as a compact tree (see prune.ts). */
  fillers_tree: CutTree;
  numbers: Record<string, number>;
  letters: Record<string, string>;
  /** The rating checks' regexes as compact trees (see prune.ts; `treeSource` gives the regex), cut to the text they run on. */
  rating: { at_start: CutTree; lead_only: CutTree; at_end: CutTree; bare: CutTree; count_before: CutTree };
  /** The reply-shape checks' regexes as compact trees (see `rating`). */
  reply: { check: CutTree; offer: CutTree; more: CutTree; question_start: CutTree; menu: CutTree; rating_request: CutTree };
  /**
   * Per rule (same order as `rules`), for long texts, the words its match can start with and
   * the words it needs: "<starts>;<clause>|<clause>" (see `ruleNeeds`, `needsText`), "" when
   * nothing is known (and for start/whole rules). Like `rating` and `reply`, parsed only
   * when first read (see `indexFileText`).
   */
  needs: string[];
}

const uniq = (xs: string[]): string[] => [...new Set(xs)].sort((a, b) => b.length - a.length);

export function sourceSha256(raws: readonly unknown[]): string {
  const h = createHash("sha256");
  for (const r of raws) h.update(JSON.stringify(r)).update("\n");
  return h.digest("hex");
}

function ratingSources(langs: readonly LangData[], numbers: Record<string, number>): CaptureIndex["rating"] {
  const words = Object.keys(numbers);
  const TEN = uniq(["10", ...words.filter((w) => numbers[w] === 10)]).join("|");
  const NUM = `(?:(10|[1-9](?:[.,][0-9])?)(?![.,]?[0-9])|(${uniq(words).join("|")})${WORD_AFTER})`;
  const SCALE = `(?:\\s*/\\s*(?:${TEN})|\\s+(?:${uniq(langs.flatMap((l) => l.rating.scale.map(expandPattern))).join("|")}))`;
  const COUNT = uniq(langs.flatMap((l) => l.rating.count_nouns.map(expandPattern))).join("|");
  const AFTER = `(?![.,]?[0-9]|\\s*/|\\s*%|[${LETTER}]|\\s+(?:${COUNT})${WORD_AFTER})`;
  const LEAD = uniq(langs.flatMap((l) => l.rating.lead.map(expandPattern))).join("|");
  const LEAD_SCALED = uniq(langs.flatMap((l) => [...l.rating.lead, ...l.rating.lead_scaled].map(expandPattern))).join("|");
  return {
    at_start: treeOf(`^(?:(?:${LEAD_SCALED})\\s*[:=-]?\\s*)?${NUM}${SCALE}${AFTER}`),
    lead_only: treeOf(`(?:^|[.!?;]\\s+)(?:${LEAD})\\s*[:=-]?\\s*${NUM}${AFTER}`),
    at_end: treeOf(`(?<![${LETTER}/.,:#(\\[-])${NUM}${SCALE}${TRAIL}$`),
    bare: treeOf(`^${NUM}${TRAIL}$`),
    count_before: treeOf(`(?:${WORD_BEFORE}(?:${COUNT}|steps?|test|page|part|phase|round|item|task|file|chapter|batch|iteration|level|version|vol|no|nr|number)[\\s:#(\\[]*|[(\\[#/-]\\s*)$`),
  };
}

function replySources(langs: readonly LangData[]): CaptureIndex["reply"] {
  const alt = (key: keyof LangData["reply"]): CutTree =>
    treeOf(`${WORD_BEFORE}(?:${[...new Set(langs.flatMap((l) => l.reply[key].map(expandPattern)))].join("|")})${WORD_AFTER}`);
  return {
    check: alt("check"),
    offer: alt("offer"),
    more: alt("more"),
    question_start: treeOf(`^[\\s"'(«„“]*(?:${[...new Set(langs.flatMap((l) => l.reply.question_start.map(expandPattern)))].join("|")})`),
    menu: alt("menu"),
    rating_request: alt("rating_request"),
  };
}

export function buildIndex(langs: readonly LangData[], raws: readonly unknown[] = langs): CaptureIndex {
  const rules: IndexRule[] = [];
  const needs: string[] = [];
  const maps = { any: {} as Record<string, number[]>, any_prefix: {} as Record<string, number[]>, first: {} as Record<string, number[]>, first_prefix: {} as Record<string, number[]> };
  const add = (map: Record<string, number[]>, key: string, rule: number): void => {
    const list = (map[key] ??= []);
    if (!list.includes(rule)) list.push(rule);
  };
  // Strong rules before weak ones, so the first rule that fits names the signal.
  for (const weakPass of [false, true]) {
    for (const category of RULE_CATEGORIES) {
      for (const lang of langs) {
        for (const r of lang[category]) {
          if (Boolean(r.weak) !== weakPass) continue;
          const index = rules.length;
          rules.push([`${category}.${lang.code}.${r.id}`, category, lang.code, r.at, weakPass ? 1 : 0]);
          needs.push(r.at === "any" ? needsText(ruleNeeds(r.re, r.keys)) : "");
          for (const raw of r.keys) {
            // The tokenizer splits at hyphens: a hyphenated key is looked up by its last part.
            const key = raw.toLowerCase().split("-").pop() ?? raw;
            const prefix = key.endsWith("*");
            const map = r.at === "any" ? (prefix ? maps.any_prefix : maps.any) : prefix ? maps.first_prefix : maps.first;
            add(map, prefix ? key.slice(0, -1) : key, index);
          }
        }
      }
    }
  }
  const numbers: Record<string, number> = {};
  for (const l of langs) for (const [w, n] of Object.entries(l.numbers)) if (!(w in numbers)) numbers[w] = n;
  return {
    schema: INDEX_SCHEMA,
    source_sha256: sourceSha256(raws),
    rules: rules.map(([signal, , , at, weak]) => `${signal}:${at}:${weak}`).join("|"),
    any: keyText(maps.any),
    any_prefix: maps.any_prefix,
    first: keyText(maps.first),
    first_prefix: maps.first_prefix,
    fillers_tree: treeOf(`^(?:${[...new Set(langs.flatMap((l) => l.fillers))].join("|")})$`),
    numbers,
    letters: Object.fromEntries(langs.map((l) => [l.code, l.letters])),
    rating: ratingSources(langs, numbers),
    reply: replySources(langs),
    // Read only for long texts (see `indexFileText`).
    needs,
  };
}

/**
 * Exact keys as the index keeps them: " word:1,2 other:3 " (a key is one token: no space or
 * colon in it). Example: `keyText({ no: [0, 4] })` -> `" no:0,4 "`.
 */
export function keyText(map: Record<string, number[]>): string {
  let out = " ";
  for (const [word, rules] of Object.entries(map)) {
    if (/[\s:]/.test(word)) throw new Error(`capture index: key ${JSON.stringify(word)} holds a space or colon`);
    out += `${word}:${rules.join(",")} `;
  }
  return out;
}

/** A regex source as a compact tree; one the cutter cannot read is kept whole (one piece, no needs). */
export function treeOf(source: string): CutTree {
  const tree = parseRegex(source);
  return tree === null ? [[[], source]] : compactTree(tree);
}

/** Every language's rule file text (see rule-files.ts), by code, for the index with `sourceSha`. */
export function buildRuleFiles(langs: readonly LangData[], sourceSha: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const lang of langs) {
    const trees = new Map<string, CutTree>();
    for (const category of RULE_CATEGORIES) for (const r of lang[category]) trees.set(`${category}.${lang.code}.${r.id}`, treeOf(ruleSource(r.re, r.at)));
    out[lang.code] = ruleFileText(sourceSha, trees);
  }
  return out;
}

/* ---------- Words a rule's match needs (a prefilter for long texts) ---------- */

/*
 * A pattern is read as the set of abstract strings it can match: literal word characters,
 * SEP (one or more characters that end a token, or the start or end of the window), WILD
 * (characters not known) and NLW (characters not known, the first of which is not a LETTER
 * character). The tokenizer (`scan` in compile.ts) notes, for every token, its run of LETTER
 * characters after leading apostrophes; what a piece of word characters tells about that run:
 * - a piece that starts a token (after a SEP, or at the match's start: a match starts where
 *   the character before is no word character) gives the token's run when the run ends inside
 *   the piece ("don't" -> "don") or the piece is followed by SEP, NLW or the match's end (the
 *   regex ends with WORD_AFTER: no LETTER character follows);
 * - a piece after WILD or NLW tells nothing.
 * Where the regex matches in a window, the runs it gives are runs of tokens that start in the
 * window; lookarounds read no characters of their own and are left out (their conditions only
 * make the set of matches smaller).
 */
const SEP = "\u0000";
const WILD = "\u0002";
const NLW = "\u0003";
/** Cross products of exact strings up to this size; larger ones are summarised. */
const EXACT_CAP = 1024;
/** Edges (partial tokens at the ends) kept before they are given up as unknown. */
const EDGE_CAP = 512;
const MAX_CLAUSES = 3;
const MAX_CLAUSE_WORDS = 40;
const MAX_START_CLAUSES = 2;
const MAX_START_CLAUSE_WORDS = 32;

/** What is beside an edge's text, away from the string's end: a marker, or nothing (the string has no marker). */
type Context = "sep" | "nl" | "wild" | "open";
interface Edge {
  text: string;
  ctx: Context;
}
interface Info {
  /** Every abstract string the node can match, while there are few. */
  exact: string[] | null;
  /** Otherwise: the partial tokens at the start and the end, and clauses its inner tokens satisfy. */
  pre: Edge[];
  suf: Edge[];
  cnf: string[][];
}

/** \s without U+1680 (the only white space the tokenizer reads as a word character; a text holding it is never filtered). */
const WHITE = [9, 10, 11, 12, 13, 32, 0xa0, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];

const isMarker = (c: string | undefined): boolean => c === SEP || c === WILD || c === NLW;

/** Two abstract strings one after the other (markers that meet are merged). */
function join(x: string, y: string): string {
  if (x === "" || y === "") return x + y;
  const a = x[x.length - 1] as string;
  const b = y[0] as string;
  if (isMarker(a) && isMarker(b)) {
    // SEP SEP is SEP; unknown characters followed or led by more unknown ones stay unknown.
    if (a === SEP && b === SEP) return x + y.slice(1);
    if (a !== SEP && b !== SEP) return x + y.slice(1);
  }
  return x + y;
}

const exact = (xs: readonly string[]): Info => ({ exact: [...new Set(xs)], pre: [], suf: [], cnf: [] });
const EMPTY = (): Info => exact([""]);

/**
 * The run of LETTER characters a token starting with `text` has (leading apostrophes
 * dropped), or "" when it is not known: when the run reaches the end of `text`, only
 * `endsRun` (what follows is no LETTER character) makes it known.
 */
function runOf(text: string, endsRun: boolean): string {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === 39) i++;
  let j = i;
  while (j < text.length && isLetterChar(text.charCodeAt(j))) j++;
  if (j === i) return "";
  return j < text.length || endsRun ? text.slice(i, j) : "";
}

/** The run of LETTER characters of a token (leading apostrophes dropped): what `scan` notes. */
export function leadingRun(token: string): string {
  return runOf(token, true);
}

/** The key words of the rule being read (set by `ruleNeeds`). */
let keyWords: ReadonlySet<string> = new Set();

/** Rough frequency of a word in prompts, for choosing which clauses to keep (speed only, not meaning). */
const COMMON = new Set(
  "i a an the you your it its is are was were be been to of in on at for with and or not no do don did didn does doesn that this these those what how why me my we our can could would should will just so if but as all any have has had then than there here one ok yes".split(
    " ",
  ),
);
function frequency(w: string): number {
  if (COMMON.has(w) || w.length <= 2) return 0.5;
  if (w.length === 3) return 0.1;
  if (w.length === 4) return 0.05;
  return w.length === 5 ? 0.02 : 0.01;
}
const clauseCost = (c: readonly string[]): number => c.reduce((a, w) => a + frequency(w), 0);

/**
 * Clauses (each: one of these words) that every conjunction of facts satisfies, chosen
 * greedily to be rare; `drop` words are left out of the facts first (they tell nothing).
 */
function clausesOf(facts: ReadonlyArray<ReadonlySet<string>>, drop: ReadonlySet<string>, max = MAX_CLAUSES): string[][] {
  const dnf = facts.map((f) => [...f].filter((w) => !drop.has(w)));
  if (dnf.length === 0 || dnf.some((f) => f.length === 0)) return [];
  const out: string[][] = [];
  const banned = new Set<string>();
  for (let round = 0; round < max; round++) {
    let open = dnf.map((f) => f.filter((w) => !banned.has(w)));
    if (open.some((f) => f.length === 0)) break;
    const clause: string[] = [];
    while (open.length > 0) {
      const count = new Map<string, number>();
      for (const f of open) for (const w of f) count.set(w, (count.get(w) ?? 0) + 1);
      let best = "";
      let bestScore = -1;
      for (const [w, n] of count) {
        const score = n / frequency(w);
        if (score > bestScore || (score === bestScore && w < best)) [best, bestScore] = [w, score];
      }
      clause.push(best);
      open = open.filter((f) => !f.includes(best));
    }
    // Greedy choices can leave words every conjunction with them has another for: drop them, commonest first.
    for (const w of [...clause].sort((x, y) => frequency(y) - frequency(x) || (x < y ? -1 : 1))) {
      const rest = clause.filter((v) => v !== w);
      if (rest.length > 0 && dnf.every((f) => !f.includes(w) || f.some((v) => rest.includes(v)))) clause.splice(clause.indexOf(w), 1);
    }
    out.push(clause.sort());
    for (const w of clause) banned.add(w);
  }
  return out;
}

interface Piece {
  text: string;
  /** The marker before and after the piece, "" at the string's ends. */
  before: string;
  after: string;
}

function pieces(s: string): Piece[] {
  const out: Piece[] = [];
  let start = 0;
  let before = "";
  for (let i = 0; i <= s.length; i++) {
    const c = s[i];
    if (i === s.length || isMarker(c)) {
      out.push({ text: s.slice(start, i), before, after: i === s.length ? "" : (c as string) });
      if (i < s.length) before = c as string;
      start = i + 1;
    }
  }
  return out;
}

const contextOf = (marker: string): Context => (marker === SEP ? "sep" : marker === NLW ? "nl" : "wild");

function toStruct(info: Info): Info {
  if (info.exact === null) return info;
  const pre: Edge[] = [];
  const suf: Edge[] = [];
  const dnf: Array<Set<string>> = [];
  for (const s of info.exact) {
    const ps = pieces(s);
    const facts = new Set<string>();
    if (ps.length === 1) {
      pre.push({ text: s, ctx: "open" });
      suf.push({ text: s, ctx: "open" });
    } else {
      const first = ps[0] as Piece;
      const last = ps[ps.length - 1] as Piece;
      pre.push({ text: first.text, ctx: contextOf(first.after) });
      suf.push({ text: last.text, ctx: last.before === SEP ? "sep" : "wild" });
      ps.forEach((p, k) => {
        if (k === 0 || p.before !== SEP) return;
        const w = runOf(p.text, k < ps.length - 1 && (p.after === SEP || p.after === NLW));
        if (w) facts.add(w);
      });
    }
    dnf.push(facts);
  }
  // Key words are kept here: a start word's clauses may use them (the rule's own clauses drop them at the end).
  return { exact: null, pre: capEdges(pre), suf: capEdges(suf), cnf: clausesOf(dnf, new Set()) };
}

function capEdges(edges: Edge[]): Edge[] {
  const seen = new Map<string, Edge>();
  for (const e of edges) seen.set(`${e.ctx}:${e.text}`, e);
  const out = [...seen.values()];
  return out.length > EDGE_CAP ? [{ text: "", ctx: "wild" }] : out;
}

function tidy(cnf: string[][], maxWords = MAX_CLAUSE_WORDS): string[][] {
  const seen = new Map<string, string[]>();
  for (const c of cnf) {
    if (c.length === 0 || c.length > maxWords) continue;
    const sorted = [...new Set(c)].sort();
    seen.set(sorted.join(" "), sorted);
  }
  return [...seen.values()].sort((a, b) => clauseCost(a) - clauseCost(b) || (a.join(" ") < b.join(" ") ? -1 : 1)).slice(0, 8);
}

function concat(a: Info, b: Info): Info {
  if (a.exact && b.exact && a.exact.length * b.exact.length <= EXACT_CAP) {
    const out: string[] = [];
    for (const x of a.exact) for (const y of b.exact) out.push(join(x, y));
    return exact(out);
  }
  const A = toStruct(a);
  const B = toStruct(b);
  const cnf = [...A.cnf, ...B.cnf];
  // The token where A's end meets B's start.
  const joint = new Set<string>();
  let known = true;
  for (const x of A.suf) {
    for (const y of B.pre) {
      const w = x.ctx === "sep" ? runOf(x.text + y.text, y.ctx === "sep" || y.ctx === "nl") : "";
      if (w === "") known = false;
      else joint.add(w);
    }
  }
  if (known && joint.size > 0) cnf.push([...joint]);
  const pre: Edge[] = [];
  for (const x of A.pre) {
    if (x.ctx !== "open") pre.push(x);
    else for (const y of B.pre) pre.push({ text: x.text + y.text, ctx: y.ctx });
  }
  const suf: Edge[] = [];
  for (const y of B.suf) {
    if (y.ctx !== "open") suf.push(y);
    else for (const x of A.suf) suf.push({ text: x.text + y.text, ctx: x.ctx });
  }
  return { exact: null, pre: capEdges(pre), suf: capEdges(suf), cnf: tidy(cnf) };
}

function union(a: Info, b: Info): Info {
  if (a.exact && b.exact && a.exact.length + b.exact.length <= EXACT_CAP) return exact([...a.exact, ...b.exact]);
  const A = toStruct(a);
  const B = toStruct(b);
  const cnf: string[][] = [];
  for (const x of A.cnf) for (const y of B.cnf) cnf.push([...x, ...y]);
  return { exact: null, pre: capEdges([...A.pre, ...B.pre]), suf: capEdges([...A.suf, ...B.suf]), cnf: tidy(cnf) };
}

/** x* / x+ / x{n,m}: the repeated part is not known, except how it starts and whether it ends at a SEP. */
function repeat(x: Info, min: number): Info {
  let body: string;
  if (x.exact && x.exact.every((s) => s === SEP)) body = SEP;
  else if (x.exact && !x.exact.includes("")) {
    const first = x.exact.map((s) => s[0] as string);
    const lead = first.every((c) => c === SEP) ? SEP + WILD : first.every((c) => c === SEP || c === NLW || (!isMarker(c) && !isLetterChar(c.charCodeAt(0)))) ? NLW : WILD;
    body = x.exact.every((s) => s.endsWith(SEP)) ? join(lead, SEP) : lead;
  } else body = WILD;
  return exact(min === 0 ? ["", body] : [body]);
}

function classInfo(items: number[], negated: boolean, unknown: boolean): Info {
  if (negated || unknown) return exact([WILD]);
  if (items.every((c) => !isWordChar(c))) return exact([SEP]);
  if (items.every((c) => isWordChar(c)) && items.length <= 8) return exact(items.map((c) => String.fromCharCode(c)));
  return exact([WILD]);
}

/** Reads an expanded pattern (the subset of JavaScript regex syntax the rules use). */
function parsePattern(src: string): Info {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`rule pattern: ${what} at ${i} in ${JSON.stringify(src)}`);
  };
  const alternation = (): Info => {
    let out = sequence();
    while (src[i] === "|") {
      i++;
      out = union(out, sequence());
    }
    return out;
  };
  const sequence = (): Info => {
    let out = EMPTY();
    while (i < src.length && src[i] !== "|" && src[i] !== ")") out = concat(out, quantified(atom()));
    return out;
  };
  const quantified = (x: Info): Info => {
    const c = src[i];
    let out = x;
    if (c === "?") {
      i++;
      out = union(x, EMPTY());
    } else if (c === "*" || c === "+") {
      i++;
      out = repeat(x, c === "*" ? 0 : 1);
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return x;
      i += m[0].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      out = max === 1 ? (min === 0 ? union(x, EMPTY()) : x) : repeat(x, min);
    } else return x;
    if (src[i] === "?") i++; // lazy
    return out;
  };
  const escapeCode = (): number | "space" | "unknown" | "zero" => {
    const c = src[i + 1];
    if (c === undefined) return fail("trailing backslash");
    if (c === "u") {
      const hex = src.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
      i += 6;
      return parseInt(hex, 16);
    }
    i += 2;
    if (c === "s") return "space";
    if (c === "b" || c === "B") return "zero";
    if ("SwWdDpPkcx0123456789".includes(c)) return "unknown";
    if (c === "n") return 10;
    if (c === "t") return 9;
    if (c === "r") return 13;
    if (c === "f") return 12;
    if (c === "v") return 11;
    return c.charCodeAt(0);
  };
  const charClass = (): Info => {
    i++; // [
    let negated = false;
    if (src[i] === "^") {
      negated = true;
      i++;
    }
    const items: number[] = [];
    let unknown = false;
    while (i < src.length && src[i] !== "]") {
      const code = src[i] === "\\" ? escapeCode() : src.charCodeAt(i++);
      if (code === "space") items.push(...WHITE);
      else if (code === "unknown" || code === "zero") unknown = true;
      else if (src[i] === "-" && src[i + 1] !== "]" && src[i + 1] !== undefined) {
        i++;
        const hi = src[i] === "\\" ? escapeCode() : src.charCodeAt(i++);
        if (typeof hi !== "number") return fail("bad class range");
        if (hi - code > 4096) unknown = true;
        else for (let k = code; k <= hi; k++) items.push(k);
      } else items.push(code);
    }
    if (src[i] !== "]") fail("unclosed class");
    i++;
    return classInfo(items, negated, unknown);
  };
  const atom = (): Info => {
    const c = src[i] as string;
    if (c === "(") {
      i++;
      let look = false;
      if (src[i] === "?") {
        const kind = src.slice(i, i + 3);
        if (kind.startsWith("?:")) i += 2;
        else if (kind.startsWith("?=") || kind.startsWith("?!")) [i, look] = [i + 2, true];
        else if (kind === "?<=" || kind === "?<!") [i, look] = [i + 3, true];
        else fail("unsupported group");
      }
      const inner = alternation();
      if (src[i] !== ")") fail("unclosed group");
      i++;
      return look ? EMPTY() : inner;
    }
    if (c === "[") return charClass();
    if (c === "\\") {
      const code = escapeCode();
      if (code === "space") return exact([SEP]);
      if (code === "zero") return EMPTY();
      if (code === "unknown") return exact([WILD]);
      return exact([isWordChar(code) ? String.fromCharCode(code) : SEP]);
    }
    i++;
    if (c === "^" || c === "$") return exact([SEP]);
    if (c === ".") return exact([WILD]);
    if (c === "*" || c === "+" || c === "?" || c === "{") fail("quantifier without an atom");
    return exact([isWordChar(c.charCodeAt(0)) ? c : SEP]);
  };
  const out = alternation();
  if (i !== src.length) fail("unbalanced )");
  return out;
}

export interface RuleNeeds {
  /** Clauses: in a window where the rule matches, each has a word that is the run of a token there. */
  clauses: string[][];
  /**
   * The runs a match can start with (the token at the match's start), each with clauses the
   * tokens from there to the window's end satisfy when the match starts with it; null when
   * not known: the regex need then be tried only at tokens with these runs.
   */
  starts: Array<{ word: string; clauses: string[][] }> | null;
}

/**
 * Words an "any" rule's match needs, read from its pattern: clauses, each listing words of
 * which at least one must be the run of LETTER characters of a token (after leading
 * apostrophes) in any window where the rule matches, and the runs a match can start with.
 * Clauses a key word satisfies are left out of the first (every window holds a key).
 *
 * Example: `ruleNeeds("great (?:job|work)", ["great"])` -> `{ clauses: [["job", "work"]],
 * starts: [{ word: "great", clauses: [["job", "work"]] }] }`.
 */
export function ruleNeeds(pattern: string, keys: readonly string[]): RuleNeeds {
  keyWords = new Set(keys.filter((k) => !k.endsWith("*")).map((k) => leadingRun(k.toLowerCase().split("-").pop() ?? k)));
  // Each top-level alternative on its own: what a match needs when it starts with a word
  // depends on the alternatives that can start with it.
  const alternatives = topLevelAlternatives(expandPattern(pattern)).map(alternativeNeeds);
  let clauses: string[][] = [];
  alternatives.forEach((alt, k) => {
    clauses = k === 0 ? alt.clauses : orClauses(clauses, alt.clauses, MAX_CLAUSE_WORDS);
  });
  let starts: RuleNeeds["starts"] = null;
  if (alternatives.every((alt) => alt.starts !== null)) {
    const byWord = new Map<string, string[][]>();
    for (const alt of alternatives) {
      for (const [word, c] of alt.starts as Map<string, string[][]>) {
        const before = byWord.get(word);
        byWord.set(word, before === undefined ? c : orClauses(before, c, MAX_START_CLAUSE_WORDS));
      }
    }
    starts = [...byWord]
      .sort((x, y) => (x[0] < y[0] ? -1 : 1))
      .map(([word, c]) => ({ word, clauses: tidy(c.filter((cl) => !cl.includes(word)), MAX_START_CLAUSE_WORDS).slice(0, MAX_START_CLAUSES) }));
  }
  // A clause a key word is in holds in every window; one that holds every start word holds
  // wherever a match can start: both tell nothing.
  const startWords = starts === null ? null : starts.map((x) => x.word);
  const told = (c: readonly string[]): boolean => !c.some((w) => keyWords.has(w)) && !(startWords !== null && startWords.every((w) => c.includes(w)));
  return { clauses: tidy(clauses.filter(told)).slice(0, MAX_CLAUSES), starts };
}

/** (A1 and A2 ...) or (B1 and B2 ...) as clauses: every Ai or Bj, the rarest few kept. */
function orClauses(a: readonly string[][], b: readonly string[][], maxWords: number): string[][] {
  const out: string[][] = [];
  for (const x of a) for (const y of b) out.push([...x, ...y]);
  return tidy(out, maxWords);
}

/** The alternatives of a pattern's outermost alternation. */
function topLevelAlternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(src.slice(start, i));
      start = i + 1;
    }
  }
  out.push(src.slice(start));
  return out;
}

/**
 * One alternative's clauses (key words left out: the rule's own clauses) and, when known,
 * its start words with the clauses a match starting with each needs (key words kept).
 */
function alternativeNeeds(src: string): { clauses: string[][]; starts: Map<string, string[][]> | null } {
  const info = parsePattern(src);
  if (info.exact) {
    const byStart = new Map<string, Array<Set<string>>>();
    let startsKnown = true;
    const dnf = info.exact.map((s) => {
      const facts = new Set<string>();
      const ps = pieces(s);
      ps.forEach((p, k) => {
        if (k > 0 && p.before !== SEP) return;
        const w = runOf(p.text, k === ps.length - 1 || p.after === SEP || p.after === NLW);
        if (w) facts.add(w);
        if (k === 0) {
          // A match starts a token: with a LETTER character first, the token starts there.
          if (w === "" || !isLetterChar(p.text.charCodeAt(0))) startsKnown = false;
          else byStart.set(w, [...(byStart.get(w) ?? []), facts]);
        }
      });
      return facts;
    });
    const starts = startsKnown ? new Map([...byStart].map(([word, group]) => [word, clausesOf(group, new Set([word]), MAX_START_CLAUSES)])) : null;
    return { clauses: clausesOf(dnf, keyWords), starts };
  }
  const cnf = [...info.cnf];
  const first = info.pre.map((e) => (e.ctx === "wild" ? runOf(e.text, false) : runOf(e.text, true)));
  const last = info.suf.map((e) => (e.ctx === "wild" ? "" : runOf(e.text, true)));
  if (last.every((w) => w !== "")) cnf.push(last);
  const known = info.pre.every((e, k) => first[k] !== "" && isLetterChar(e.text.charCodeAt(0)));
  const starts = known ? new Map([...new Set(first)].map((word) => [word, tidy(cnf, MAX_START_CLAUSE_WORDS)])) : null;
  if (first.every((w) => w !== "")) cnf.push(first);
  return { clauses: tidy(cnf.filter((c) => !c.some((w) => keyWords.has(w)))), starts };
}

/**
 * `ruleNeeds` as the index stores it: "<starts>;<clauses>", clauses joined by "|" and their
 * words by " "; starts are groups joined by " ": start words joined by ",", then, when
 * they need something, "=" and clauses joined by "/" (words by "+").
 * "" when nothing is known.
 */
export function needsText(n: RuleNeeds): string {
  const clauses = n.clauses.map((c) => c.join(" ")).join("|");
  if (n.starts === null && clauses === "") return "";
  const groups = new Map<string, string[]>();
  for (const s of n.starts ?? []) {
    const need = s.clauses.map((c) => c.join("+")).join("/");
    groups.set(need, [...(groups.get(need) ?? []), s.word]);
  }
  const starts = [...groups].map(([need, words]) => (need === "" ? words.join(",") : `${words.join(",")}=${need}`));
  return `${starts.join(" ")};${clauses}`;
}
