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
import { expandPattern, LETTER, TRAIL, WORD_AFTER, WORD_BEFORE } from "./compile-core.js";
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
    reply: replySources(langs),
  };
}
