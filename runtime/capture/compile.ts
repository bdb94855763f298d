/**
 * Turns the language data into matchers, once, at module load: one anchored regex per
 * category for "start" rules and one for "whole" rules (every language in one alternation,
 * a capturing group per rule), and for "any" rules a single trigger regex over their key
 * words, so a prompt is scanned once and only the rules whose keys occur are tried.
 *
 * A space followed by `*` or `?` is optional whitespace; `{w}?` is an optional word tail.
 *
 * Example: `expandPattern("i told you {w}")` ->
 * `"i\\s+told\\s+you\\s+[\\p{L}\\p{N}'-]+"`.
 */
import { LANGUAGES, RULE_CATEGORIES, type LangData, type RuleCategory } from "./lang-data.js";

/** Letters and digits on either side make a word continue. */
export const WORD_BEFORE = "(?<![\\p{L}\\p{N}_'])";
export const WORD_AFTER = "(?![\\p{L}\\p{N}_])";
/** What may trail a whole-message match: spaces, punctuation, symbols and emoji joiners. */
export const TRAIL = "[\\s\\p{P}\\p{S}\\u200d\\ufe0f]*";
const WORD = "[\\p{L}\\p{N}'-]+";
const WORD_OPTIONAL = "[\\p{L}\\p{N}'-]*";

/** Expands the data's pattern shorthand: a space outside a class is `\s+`, `{w}` one word. */
export function expandPattern(src: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    if (c === "\\") {
      out += c + (src[i + 1] ?? "");
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c === " " ? "\\s" : c;
    } else if (c === "[") {
      inClass = true;
      out += c;
    } else if (c === " ") {
      // " *" and " ?" make the space optional; " +" is the same as " ".
      const next = src[i + 1];
      if (next === "*" || next === "?") {
        out += "\\s*";
        i++;
      } else {
        out += "\\s+";
        if (next === "+") i++;
      }
    } else if (src.startsWith("{w}?", i)) {
      out += WORD_OPTIONAL;
      i += 3;
    } else if (src.startsWith("{w}", i)) {
      out += WORD;
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

function capturingGroups(source: string): number {
  return (new RegExp(`(?:${source})|`, "u").exec("")?.length ?? 1) - 1;
}

export interface CompiledRule {
  /** Stable signal name: "<category>.<lang>.<id>". */
  signal: string;
  category: RuleCategory;
  lang: string;
  weak: boolean;
}

/** An anchored alternation: group k+1 matched means rules[k] fired. */
export interface Alternation {
  re: RegExp;
  rules: CompiledRule[];
}

export interface AnyRule extends CompiledRule {
  re: RegExp;
}

export interface Matchers {
  fillers: string;
  start: Partial<Record<RuleCategory, Alternation>>;
  whole: Partial<Record<RuleCategory, Alternation>>;
  any: AnyRule[];
  /** Finds key words; `keyRules` maps a key to the indexes of `any` rules it unlocks. */
  trigger: RegExp;
  keyRules: Map<string, number[]>;
  prefixKeys: Array<{ prefix: string; rules: number[] }>;
}

function escapeLiteral(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function buildMatchers(langs: readonly LangData[] = LANGUAGES): Matchers {
  const fillerAlt = [...new Set(langs.flatMap((l) => l.fillers.map(expandPattern)))].join("|");
  const fillers = `(?:(?:${fillerAlt})${WORD_AFTER}[\\s,.!;:…-]*)*`;
  const start: Matchers["start"] = {};
  const whole: Matchers["whole"] = {};
  const any: AnyRule[] = [];
  const keyRules = new Map<string, number[]>();
  const prefixMap = new Map<string, number[]>();

  for (const category of RULE_CATEGORIES) {
    for (const at of ["start", "whole"] as const) {
      const parts: string[] = [];
      const rules: CompiledRule[] = [];
      // Strong rules of every language before any weak one: alternation order decides.
      for (const weakPass of [false, true]) {
        for (const lang of langs) {
          for (const r of lang[category]) {
            if (r.at !== at || Boolean(r.weak) !== weakPass) continue;
            const src = expandPattern(r.re);
            if (capturingGroups(src) !== 0) throw new Error(`${lang.code} ${category}.${r.id}: use (?:...) groups only`);
            parts.push(`(${src})`);
            rules.push({ signal: `${category}.${lang.code}.${r.id}`, category, lang: lang.code, weak: weakPass });
          }
        }
      }
      if (parts.length === 0) continue;
      const tail = at === "start" ? WORD_AFTER : `${TRAIL}$`;
      const re = new RegExp(`^${fillers}(?:${parts.join("|")})${tail}`, "u");
      (at === "start" ? start : whole)[category] = { re, rules };
    }
    for (const lang of langs) {
      for (const r of lang[category]) {
        if (r.at !== "any") continue;
        const src = expandPattern(r.re);
        if (capturingGroups(src) !== 0) throw new Error(`${lang.code} ${category}.${r.id}: use (?:...) groups only`);
        const index = any.length;
        any.push({
          signal: `${category}.${lang.code}.${r.id}`,
          category,
          lang: lang.code,
          weak: Boolean(r.weak),
          re: new RegExp(`${WORD_BEFORE}(?:${src})${WORD_AFTER}`, "u"),
        });
        for (const key of r.keys ?? []) {
          const k = key.toLowerCase();
          const map = k.endsWith("*") ? prefixMap : keyRules;
          const name = k.endsWith("*") ? k.slice(0, -1) : k;
          const list = map.get(name) ?? [];
          if (!list.includes(index)) list.push(index);
          map.set(name, list);
        }
      }
    }
  }
  const exact = [...keyRules.keys()].sort((a, b) => b.length - a.length).map(escapeLiteral);
  const prefixes = [...prefixMap.keys()].sort((a, b) => b.length - a.length).map((p) => `${escapeLiteral(p)}[\\p{L}]*`);
  const trigger = new RegExp(`${WORD_BEFORE}(?:${[...prefixes, ...exact].join("|")})${WORD_AFTER}`, "gu");
  const prefixKeys = [...prefixMap.entries()].map(([prefix, rules]) => ({ prefix, rules }));
  return { fillers, start, whole, any, trigger, keyRules, prefixKeys };
}

/** The rules of `alt` that the text matches at its start (the first alternative that fits). */
export function matchAlternation(alt: Alternation | undefined, text: string): CompiledRule | null {
  if (!alt) return null;
  const m = alt.re.exec(text);
  if (!m) return null;
  for (let g = 1; g < m.length; g++) if (m[g] !== undefined) return alt.rules[g - 1] ?? null;
  return null;
}

/** Indexes of the `any` rules whose keys occur in `lower`, in rule order. */
export function candidateRules(m: Matchers, lower: string): number[] {
  const found = new Set<number>();
  m.trigger.lastIndex = 0;
  let hit: RegExpExecArray | null;
  while ((hit = m.trigger.exec(lower)) !== null) {
    const word = hit[0];
    const exact = m.keyRules.get(word);
    if (exact) for (const i of exact) found.add(i);
    if (m.prefixKeys.length > 0) {
      for (const p of m.prefixKeys) if (word.startsWith(p.prefix)) for (const i of p.rules) found.add(i);
    }
  }
  return [...found].sort((a, b) => a - b);
}
