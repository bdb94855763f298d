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
import { expandPattern, LETTER, ruleSource, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";
import { RULE_CATEGORIES, type LangData, type RuleAt, type RuleCategory } from "./lang-data.js";
import { compactTree, parseRegex, type CutTree } from "./prune.js";
import { ruleFileText } from "./rule-files.js";

import { INDEX_SCHEMA } from "./index-file.js";

export { INDEX_SCHEMA };

/** [signal, category, lang, at, flag: 1 weak, "r" a repeat (see `LangRule.repeat`), else 0] */
export type IndexRule = [string, RuleCategory, string, RuleAt, 0 | 1 | "r"];

export interface CaptureIndex {
  schema: typeof INDEX_SCHEMA;
  /** sha256 over the language files' canonical JSON, in LANGUAGE_CODES order. */
  source_sha256: string;
  /**
   * Every rule as "signal:at:flag" ("correction.en.no_strong:start:0"), joined by "|": one
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
          rules.push([`${category}.${lang.code}.${r.id}`, category, lang.code, r.at, weakPass ? 1 : r.repeat === true ? "r" : 0]);
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

/** A regex source as a compact tree; one the cutter cannot read is kept whole (one piece, no literal runs to check). */
export function treeOf(source: string): CutTree {
  const tree = parseRegex(source);
  return tree === null ? [[[], source]] : compactTree(tree);
}

/** Every language's rule file text (see rule-files.ts), by code, for the index with `sourceSha`. */
export function buildRuleFiles(langs: readonly LangData[], sourceSha: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const lang of langs) {
    const trees = new Map<string, CutTree>();
    for (const category of RULE_CATEGORIES) for (const r of lang[category]) trees.set(`${category}.${lang.code}.${r.id}`, treeOf(ruleSource(r.re, r.at, lang.unspaced === true)));
    out[lang.code] = ruleFileText(sourceSha, trees);
  }
  return out;
}
