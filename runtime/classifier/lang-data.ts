/**
 * The capture classifier's language data: one JSON file per language in `lang/`, words and
 * phrase patterns only (no code). Read here with `readFileSync` next to this module by the
 * index writer (index-write.ts) and the tests; a hook process reads none of them (it
 * classifies from `lang/index.json` and the rule files made from them). `lang-files.ts`
 * imports the same files as modules so that tsc copies them into `dist/`. The shape is
 * checked by hand: the classifier loads no zod.
 *
 * Pattern language (see `compile-core.ts`): lower-case text, straight apostrophes; a space is
 * one or more whitespace characters; `{w}` is one word; no capturing groups.
 *
 * Example: `languages().map((l) => l.code)` -> ["en", "fi", "de", "es", "fr", "pt", "ru", "ja", "zh"].
 */
import { readFileSync } from "node:fs";
import { langFile } from "./lang-dir.js";

export type RuleAt = "start" | "any" | "whole";

export interface LangRule {
  id: string;
  at: RuleAt;
  re: string;
  /**
   * Whole words that must occur for the rule to be tried (for "start" and "whole" rules: the
   * message's first word after fillers); a trailing `*` makes a key a prefix.
   */
  keys: string[];
  /** A weak opener ("no"): needs the reply context to count (see classify.ts). */
  weak?: boolean;
  /**
   * The words say it was said or done before ("I told you already", "you did it again"): a
   * correction or directive it decides carries the verdict's `repeat` cue. Never on a weak rule.
   */
  repeat?: boolean;
}

export const RULE_CATEGORIES = ["correction", "closing", "unhappy", "praise", "directive", "profanity", "exasperation", "repeat"] as const;
export type RuleCategory = (typeof RULE_CATEGORIES)[number];

export interface LangData {
  code: string;
  name: string;
  /** Letters typical of the language (breaks ties when two languages' rules fire). */
  letters: string;
  /**
   * Written without spaces between words (Japanese, Chinese): each kana or ideograph is a
   * token, a key is one character, and a match may end inside a run of letters ("不要用npm").
   */
  unspaced?: boolean;
  fillers: string[];
  numbers: Record<string, number>;
  rating: { scale: string[]; lead: string[]; lead_scaled: string[]; count_nouns: string[] };
  correction: LangRule[];
  closing: LangRule[];
  /** Dismay at what the reply brought ("that's too bad"): counts for the unhappy detector, writes no row. */
  unhappy: LangRule[];
  praise: LangRule[];
  directive: LangRule[];
  profanity: LangRule[];
  exasperation: LangRule[];
  repeat: LangRule[];
  reply: { check: string[]; offer: string[]; more: string[]; question_start: string[]; menu: string[]; rating_request: string[] };
}

/** Throws with the file's code and the offending path when the data has the wrong shape. */
export function checkLangData(raw: unknown, where: string): LangData {
  const fail = (path: string, expected: string, found: unknown): never => {
    throw new Error(`language data ${where}: ${path} (expected ${expected}; found ${JSON.stringify(found)?.slice(0, 60)})`);
  };
  const isStrArr = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string" && s.length > 0);
  if (typeof raw !== "object" || raw === null) return fail("root", "an object", raw);
  const o = raw as Record<string, unknown>;
  if (typeof o["code"] !== "string" || !/^[a-z]{2}$/.test(o["code"])) fail("code", "a two-letter code", o["code"]);
  if (typeof o["name"] !== "string") fail("name", "a string", o["name"]);
  if (typeof o["letters"] !== "string") fail("letters", "a string", o["letters"]);
  if (o["unspaced"] !== undefined && typeof o["unspaced"] !== "boolean") fail("unspaced", "a boolean", o["unspaced"]);
  if (!isStrArr(o["fillers"])) fail("fillers", "an array of strings", o["fillers"]);
  const numbers = o["numbers"];
  if (typeof numbers !== "object" || numbers === null) return fail("numbers", "an object", numbers);
  for (const [w, n] of Object.entries(numbers)) {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 10) fail(`numbers.${w}`, "an integer 1-10", n);
  }
  const rating = o["rating"] as Record<string, unknown> | undefined;
  if (!rating || !isStrArr(rating["scale"]) || !isStrArr(rating["lead"]) || !isStrArr(rating["lead_scaled"]) || !isStrArr(rating["count_nouns"])) {
    fail("rating", "{scale, lead, lead_scaled, count_nouns} string arrays", rating);
  }
  const reply = o["reply"] as Record<string, unknown> | undefined;
  const replyKeys = ["check", "offer", "more", "question_start", "menu", "rating_request"];
  if (!reply || !replyKeys.every((k) => isStrArr(reply[k]))) {
    fail("reply", `{${replyKeys.join(", ")}} string arrays`, reply);
  }
  for (const cat of RULE_CATEGORIES) {
    const rules = o[cat];
    if (!Array.isArray(rules)) fail(cat, "an array of rules", rules);
    (rules as unknown[]).forEach((r, i) => {
      const rule = r as Record<string, unknown>;
      const path = `${cat}[${i}]`;
      if (typeof rule["id"] !== "string" || !/^[a-z][a-z0-9_]*$/.test(rule["id"])) fail(`${path}.id`, "a snake_case id", rule["id"]);
      if (rule["at"] !== "start" && rule["at"] !== "any" && rule["at"] !== "whole") fail(`${path}.at`, "start | any | whole", rule["at"]);
      if (typeof rule["re"] !== "string" || rule["re"].length === 0) fail(`${path}.re`, "a pattern", rule["re"]);
      if (!isStrArr(rule["keys"])) fail(`${path}.keys`, "key words (for 'start'/'whole': the first word)", rule["keys"]);
      if (rule["weak"] !== undefined && typeof rule["weak"] !== "boolean") fail(`${path}.weak`, "a boolean", rule["weak"]);
      if (rule["repeat"] !== undefined && (typeof rule["repeat"] !== "boolean" || rule["weak"] === true)) fail(`${path}.repeat`, "a boolean, on a rule that is not weak", rule["repeat"]);
    });
  }
  return raw as LangData;
}

export const LANGUAGE_CODES = ["en", "fi", "de", "es", "fr", "pt", "ru", "ja", "zh"] as const;

export function readLangFile(code: string): unknown {
  return JSON.parse(readFileSync(langFile(`${code}.json`), "utf8"));
}

const loaded = new Map<string, LangData>();

/** One language's data, read and checked on first use. */
export function language(code: string): LangData {
  let l = loaded.get(code);
  if (l === undefined) {
    l = checkLangData(readLangFile(code), `lang/${code}.json`);
    loaded.set(code, l);
  }
  return l;
}

/**
 * Every language, English first (where two share a word, "no", the signal is named after the
 * first), each read and checked on first use.
 */
export function languages(): readonly LangData[] {
  return LANGUAGE_CODES.map(language);
}
