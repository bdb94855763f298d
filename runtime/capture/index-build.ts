/**
 * The classifier's index, built from the language files: every rule's signal and where it
 * applies, the key words that unlock rules, fillers, number words, and the finished regex
 * sources of the rating and reply checks. It is written to `lang/index.json` (see
 * `index-file.ts`) so that a hook process parses one small file instead of seven language
 * files; a test fails when the committed index no longer matches the language files.
 * Patterns of the rules themselves are not in it: a rule's pattern is read from its
 * language file when the rule is first tried.
 *
 * Example: `buildIndex(languages()).rules[0]` -> `["correction.en.no_strong", "correction",
 * "en", "start", 0]`; `.any["wrong"]` -> the indexes of the rules keyed by "wrong".
 */
import { createHash } from "node:crypto";
import { expandPattern, isLetterChar, isWordChar, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";
import { RULE_CATEGORIES, type LangData, type RuleAt, type RuleCategory } from "./lang-data.js";

import { INDEX_SCHEMA } from "./index-file.js";

export { INDEX_SCHEMA };

/** [signal, category, lang, at, weak (0|1)] */
export type IndexRule = [string, RuleCategory, string, RuleAt, 0 | 1];

export interface CaptureIndex {
  schema: typeof INDEX_SCHEMA;
  /** sha256 over the language files' canonical JSON, in LANGUAGE_CODES order. */
  source_sha256: string;
  rules: IndexRule[];
  /** "any" keys: word -> rule indexes; prefix keys ("fuck*") without the star. */
  any: Record<string, number[]>;
  any_prefix: Record<string, number[]>;
  /** "start"/"whole" keys: the message's first word after fillers. */
  first: Record<string, number[]>;
  first_prefix: Record<string, number[]>;
  fillers: string;
  numbers: Record<string, number>;
  letters: Record<string, string>;
  rating: { at_start: string; lead_only: string; at_end: string; bare: string; count_before: string };
  /**
   * Per rule (same order as `rules`), for long texts, the words its match can start with and
   * the words it needs: "<start words>;<clause>|<clause>" (see `ruleNeeds`, `needsText`), ""
   * when nothing is known (and for start/whole rules).
   */
  needs: string[];
  reply: { check: string; offer: string; more: string; question_start: string; menu: string; rating_request: string };
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
    at_start: `^(?:(?:${LEAD_SCALED})\\s*[:=-]?\\s*)?${NUM}${SCALE}${AFTER}`,
    lead_only: `(?:^|[.!?;]\\s+)(?:${LEAD})\\s*[:=-]?\\s*${NUM}${AFTER}`,
    at_end: `(?<![${LETTER}/.,:#(\\[-])${NUM}${SCALE}${TRAIL}$`,
    bare: `^${NUM}${TRAIL}$`,
    count_before: `(?:${WORD_BEFORE}(?:${COUNT}|steps?|test|page|part|phase|round|item|task|file|chapter|batch|iteration|level|version|vol|no|nr|number)[\\s:#(\\[]*|[(\\[#/-]\\s*)$`,
  };
}

function replySources(langs: readonly LangData[]): CaptureIndex["reply"] {
  const alt = (key: keyof LangData["reply"]): string =>
    `${WORD_BEFORE}(?:${[...new Set(langs.flatMap((l) => l.reply[key].map(expandPattern)))].join("|")})${WORD_AFTER}`;
  return {
    check: alt("check"),
    offer: alt("offer"),
    more: alt("more"),
    question_start: `^[\\s"'(«„“]*(?:${[...new Set(langs.flatMap((l) => l.reply.question_start.map(expandPattern)))].join("|")})`,
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
    rules,
    ...maps,
    fillers: [...new Set(langs.flatMap((l) => l.fillers))].join("|"),
    numbers,
    letters: Object.fromEntries(langs.map((l) => [l.code, l.letters])),
    rating: ratingSources(langs, numbers),
    needs,
    reply: replySources(langs),
  };
}

/* ---------- Words a rule's match needs (prefilter for long texts) ---------- */

/**
 * Abstract strings stand for what a pattern can match: literal word characters, SEP (one or
 * more characters that end a token, or the start or end of the window) and WILD (characters
 * not known). A piece of word characters with a SEP (or the match's start) on its left and a
 * SEP on its right is a whole token of the text; the match's last piece is followed by a
 * character outside LETTER (WORD_AFTER), so the token there starts with it.
 */
const SEP = "\u0000";
const WILD = "\u0002";
/** Cross products of exact strings up to this size; larger ones are summarised. */
const EXACT_CAP = 256;
/** Edges (first/last partial tokens) kept before they are given up as unknown. */
const EDGE_CAP = 512;
const MAX_CLAUSES = 3;
const MAX_CLAUSE_WORDS = 24;

type EdgeKind = "open" | "closed" | "unknown";
interface Edge {
  text: string;
  kind: EdgeKind;
}
interface Info {
  /** Every abstract string the node can match, while there are few. */
  exact: string[] | null;
  /** Otherwise: the partial tokens at the start and the end, and clauses its whole tokens satisfy. */
  pre: Edge[];
  suf: Edge[];
  cnf: string[][];
}

/** \s without U+1680 (the only white space the tokenizer reads as a word character; a text holding it is never filtered). */
const WHITE = [9, 10, 11, 12, 13, 32, 0xa0, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];

function normalize(s: string): string {
  return s.replace(/\u0000+/g, SEP).replace(/\u0002+/g, WILD);
}
const exact = (xs: string[]): Info => ({ exact: [...new Set(xs.map(normalize))], pre: [], suf: [], cnf: [] });
const EMPTY = (): Info => exact([""]);

/** The token a whole piece (or the start of a token) gives: leading apostrophes dropped, then its LETTER run. */
export function leadingRun(piece: string): string {
  let i = 0;
  while (i < piece.length && piece.charCodeAt(i) === 39) i++;
  let j = i;
  while (j < piece.length && isLetterChar(piece.charCodeAt(j))) j++;
  return piece.slice(i, j);
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

/** Clauses (each: one of these words) that every conjunction of facts satisfies. */
function clausesOf(facts: ReadonlyArray<ReadonlySet<string>>): string[][] {
  // A key word is in every window the rule is tried in: it tells nothing.
  const dnf = facts.map((f) => new Set([...f].filter((w) => !keyWords.has(w))));
  if (dnf.length === 0 || dnf.some((f) => f.size === 0)) return [];
  const out: string[][] = [];
  const banned = new Set<string>();
  for (let round = 0; round < MAX_CLAUSES; round++) {
    const clause: string[] = [];
    let open = dnf.map((f) => [...f].filter((w) => !banned.has(w)));
    if (open.some((f) => f.length === 0)) break;
    while (open.length > 0) {
      const count = new Map<string, number>();
      for (const f of open) for (const w of f) count.set(w, (count.get(w) ?? 0) + 1);
      let best = "";
      let bestScore = -1;
      for (const [w, n] of [...count].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        const score = n / frequency(w);
        if (score > bestScore) [best, bestScore] = [w, score];
      }
      clause.push(best);
      open = open.filter((f) => !f.includes(best));
    }
    clause.sort();
    out.push(clause);
    for (const w of clause) banned.add(w);
  }
  return out;
}

function pieces(s: string): Array<{ text: string; before: string; after: string }> {
  const out: Array<{ text: string; before: string; after: string }> = [];
  let start = 0;
  let before = "";
  for (let i = 0; i <= s.length; i++) {
    const c = s[i];
    if (i === s.length || c === SEP || c === WILD) {
      out.push({ text: s.slice(start, i), before, after: i === s.length ? "" : (c as string) });
      if (i < s.length) before = c as string;
      start = i + 1;
    }
  }
  return out;
}

function toStruct(info: Info): Info {
  if (info.exact === null) return info;
  const pre: Edge[] = [];
  const suf: Edge[] = [];
  const dnf: Array<Set<string>> = [];
  for (const s of info.exact) {
    const ps = pieces(s);
    const facts = new Set<string>();
    if (ps.length === 1) {
      pre.push({ text: s, kind: "open" });
      suf.push({ text: s, kind: "open" });
    } else {
      const first = ps[0] as (typeof ps)[number];
      const last = ps[ps.length - 1] as (typeof ps)[number];
      pre.push({ text: first.text, kind: first.after === SEP ? "closed" : "unknown" });
      suf.push({ text: last.text, kind: last.before === SEP ? "closed" : "unknown" });
      for (const p of ps.slice(1, -1)) {
        if (p.before === SEP && p.after === SEP) {
          const w = leadingRun(p.text);
          if (w) facts.add(w);
        }
      }
    }
    dnf.push(facts);
  }
  return { exact: null, pre: capEdges(pre), suf: capEdges(suf), cnf: clausesOf(dnf) };
}

function capEdges(edges: Edge[]): Edge[] {
  const seen = new Map<string, Edge>();
  for (const e of edges) seen.set(`${e.kind}:${e.text}`, e);
  const out = [...seen.values()];
  return out.length > EDGE_CAP ? [{ text: "", kind: "unknown" }] : out;
}

function tidy(cnf: string[][]): string[][] {
  const seen = new Map<string, string[]>();
  for (const c of cnf) {
    if (c.length === 0 || c.length > MAX_CLAUSE_WORDS) continue;
    const sorted = [...new Set(c)].sort();
    seen.set(sorted.join(" "), sorted);
  }
  return [...seen.values()].sort((a, b) => clauseCost(a) - clauseCost(b) || (a.join(" ") < b.join(" ") ? -1 : 1)).slice(0, 8);
}

function concat(a: Info, b: Info): Info {
  if (a.exact && b.exact && a.exact.length * b.exact.length <= EXACT_CAP) {
    const out: string[] = [];
    for (const x of a.exact) for (const y of b.exact) out.push(x + y);
    return exact(out);
  }
  const A = toStruct(a);
  const B = toStruct(b);
  const cnf = [...A.cnf, ...B.cnf];
  // The token where A's end meets B's start.
  const joint = new Set<string>();
  let whole = true;
  for (const x of A.suf) {
    for (const y of B.pre) {
      const w = leadingRun(x.text + y.text);
      if (x.kind !== "closed" || y.kind !== "closed" || w === "") whole = false;
      else joint.add(w);
    }
  }
  if (whole && joint.size > 0) cnf.push([...joint]);
  const pre: Edge[] = [];
  for (const x of A.pre) {
    if (x.kind !== "open") pre.push(x);
    else for (const y of B.pre) pre.push({ text: x.text + y.text, kind: y.kind });
  }
  const suf: Edge[] = [];
  for (const y of B.suf) {
    if (y.kind !== "open") suf.push(y);
    else for (const x of A.suf) suf.push({ text: x.text + y.text, kind: x.kind });
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

/** x* / x+ / x{n,m}: the repeated part is not known, except where its strings start or end at a SEP. */
function repeat(x: Info, min: number): Info {
  let body: string;
  if (x.exact && x.exact.every((s) => s === SEP)) body = SEP;
  else if (x.exact && !x.exact.includes("")) {
    const lead = x.exact.every((s) => s.startsWith(SEP)) ? SEP : "";
    const tail = x.exact.every((s) => s.endsWith(SEP)) ? SEP : "";
    body = lead + WILD + tail;
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
    if ("SwWdDpPk0123456789".includes(c)) return "unknown";
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
    let prev: number | null = null;
    while (i < src.length && src[i] !== "]") {
      let code: number | "space" | "unknown" | "zero";
      if (src[i] === "\\") code = escapeCode();
      else code = src.charCodeAt(i++);
      if (code === "space") {
        items.push(...WHITE);
        prev = null;
      } else if (code === "unknown" || code === "zero") {
        unknown = true;
        prev = null;
      } else if (src[i] === "-" && src[i + 1] !== "]" && src[i + 1] !== undefined) {
        i++;
        let hi: number | "space" | "unknown" | "zero";
        if (src[i] === "\\") hi = escapeCode();
        else hi = src.charCodeAt(i++);
        if (typeof hi !== "number") fail("bad class range");
        if ((hi as number) - code > 4096) unknown = true;
        else for (let k = code; k <= (hi as number); k++) items.push(k);
        prev = null;
      } else {
        items.push(code);
        prev = code;
      }
    }
    void prev;
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
    const code = c.charCodeAt(0);
    return exact([isWordChar(code) ? c : SEP]);
  };
  const out = alternation();
  if (i !== src.length) fail("unbalanced )");
  return out;
}

export interface RuleNeeds {
  /** Clauses: in a window where the rule matches, each has a word that starts a token. */
  clauses: string[][];
  /**
   * The words a match can start with (the LETTER run of the token at the match's start), or
   * null when not known: the regex need then be tried only at tokens with these runs.
   */
  starts: string[] | null;
}

/**
 * Words an "any" rule's match needs, read from its pattern: clauses, each listing words of
 * which at least one must start a token (as its run of LETTER characters, after leading
 * apostrophes) in any window where the rule matches, and the words a match can start with.
 * Clauses a key word satisfies are left out (every window holds a key).
 *
 * Example: `ruleNeeds("great (?:job|work)", ["great"])` -> `{ clauses: [["job", "work"]], starts: ["great"] }`.
 */
export function ruleNeeds(pattern: string, keys: readonly string[]): RuleNeeds {
  keyWords = new Set(keys.filter((k) => !k.endsWith("*")).map((k) => leadingRun(k.toLowerCase().split("-").pop() ?? k)));
  const info = parsePattern(expandPattern(pattern));
  let cnf: string[][];
  const starts = new Set<string>();
  let startsKnown = true;
  const startWord = (text: string, whole: boolean): void => {
    // The match starts a token (the character before is no word character); when the first
    // character is a LETTER one, the token starts there and its run is known.
    if (!whole || text === "" || !isLetterChar(text.charCodeAt(0))) startsKnown = false;
    else starts.add(leadingRun(text));
  };
  if (info.exact) {
    const dnf = info.exact.map((s) => {
      const facts = new Set<string>();
      const ps = pieces(s);
      ps.forEach((p, k) => {
        const startsToken = k === 0 || p.before === SEP;
        const endsToken = k === ps.length - 1 || p.after === SEP;
        if (k === 0) startWord(p.text, endsToken);
        if (!startsToken || !endsToken) return;
        const w = leadingRun(p.text);
        if (w) facts.add(w);
      });
      return facts;
    });
    cnf = clausesOf(dnf);
  } else {
    cnf = [...info.cnf];
    for (const edges of [info.pre, info.suf]) {
      const words = edges.map((e) => (e.kind === "unknown" ? "" : leadingRun(e.text)));
      if (words.every((w) => w !== "")) cnf.push(words);
    }
    for (const e of info.pre) startWord(e.text, e.kind !== "unknown");
  }
  return {
    clauses: tidy(cnf.filter((c) => !c.some((w) => keyWords.has(w)))).slice(0, MAX_CLAUSES),
    starts: startsKnown ? [...starts].sort() : null,
  };
}

/** `ruleNeeds` as the index stores it: "<start words>;<clause>|<clause>", words joined by spaces. */
export function needsText(n: RuleNeeds): string {
  const clauses = n.clauses.map((c) => c.join(" ")).join("|");
  return n.starts === null && clauses === "" ? "" : `${(n.starts ?? []).join(" ")};${clauses}`;
}
