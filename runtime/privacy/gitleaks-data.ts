/**
 * gitleaks' rule data (gitleaks-rules.json), served a rule at a time: a rule's id and keywords
 * (what gates it) apart from the rest of its data (its pattern and allowlists), which only a
 * rule a text wakes needs. As an ES module this reads the JSON module; the hook's redactor part
 * replaces this module with one that holds each rule's data as a JSON string and parses it on
 * first use (scripts/bundle-hook.js), because a cold hook process that built the whole data as
 * an object literal paid for every rule's objects to redact a text that wakes one or two
 * (docs/privacy.md "Cost"). test/privacy/redact-part.test.ts checks the two agree.
 *
 * Example: `ruleHead(0)` -> `{ id: "1password-secret-key", keywords: ["a3-"] }`;
 * `ruleAllowData(i)` -> that rule's allowlists.
 */
import data from "./gitleaks-rules.json" with { type: "json" };

export interface Pattern {
  src: string;
  flags: string;
}
export interface AllowEntry {
  target: string;
  regexes?: Pattern[];
  stopwords?: string[];
}
export interface RuleData {
  id: string;
  src: string;
  flags: string;
  keywords: string[];
  entropy?: number;
  secretGroup?: number;
  allow?: AllowEntry[];
}
export interface GlobalAllowData {
  regexes: Pattern[];
  stopwords: string[];
}

const rules = data.rules as RuleData[];

export const RULE_COUNT: number = rules.length;

/** A rule's id and keywords. */
export function ruleHead(i: number): { id: string; keywords: string[] } {
  const r = rules[i]!;
  return { id: r.id, keywords: r.keywords };
}

/** A rule's pattern and settings (its allowlists apart: ruleAllowData). */
export function ruleData(i: number): Omit<RuleData, "allow"> {
  return rules[i]!;
}

/**
 * A rule's allowlists, apart from its pattern: only a match that passes the rule's entropy
 * needs them, and the generic rule's hold 1,446 stopwords, whose parsing (and the collection of
 * what it allocates) cost a cold hook process more than the rest of that rule's data.
 */
export function ruleAllowData(i: number): AllowEntry[] {
  return rules[i]!.allow ?? [];
}

/** The allowlist every rule shares. */
export function globalAllowData(): GlobalAllowData {
  return data.global;
}
