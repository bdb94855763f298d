/**
 * Near-misses of a provider's format, by the token's prefix (issue 34, item 5: over-redaction
 * down). A prefixed token (`sgp_…`, `gsk_…`) found by an own broad rule is judged by the provider
 * rules of its prefix (upstream-verdict.ts, `prefixedDisowned`): when every one finds nothing on
 * it, the provider's format says no. Which rules those are, and by how much a token falls short
 * of their format, is here.
 *
 * - The rules of a prefix: gitleaks' rules (and the rules an owner imported, betterleaks',
 *   "betterleaks' rules at run time" in docs/privacy.md) one of whose keywords is a prefix the
 *   token starts with ("sgp_", "vcp_"). When no such rule exists, the own provider rules of the
 *   prefix (Groq's "gsk_", xAI's "xai-", Replicate's "r8_", Hugging Face's "hf_": own-rules.ts)
 *   judge; when one does, it judges alone: the own rules take any length of 30 or 40 and more on
 *   purpose, so that a format that grows stays caught, and say nothing of a provider's length.
 * - Short of the format (`unguessablyShort`): the rule would take the token were it longer,
 *   and what is missing holds 64 bits or more at the body's alphabet (11 characters of 62, 16 hex
 *   digits). Such a token is no key: it is the provider's format cut, and what it shows of a real
 *   key leaves more unknown than anyone can try against the provider's API (2^64 requests). A
 *   token longer than the format, or of another alphabet, is not short: a format that grew is
 *   still the provider's key (Shopify's longer keys), so a random body there stays redacted. A
 *   token a few characters short ("rnd_" and 27 where 28 are taken) leaks nearly all of a key
 *   and stays redacted too.
 *
 * A prefix that is a word (`live_`, `test_`, `sk_`) or a single letter names no provider,
 * and gives no length (`wordPrefix`).
 *
 * Example: with an own rule taking `gsk_` and 40 or more, `gsk_` and 24 random letters and
 * digits lacks 16 characters (95 bits): unguessably short; `gsk_` and 36 lacks 4: not.
 */
import { gitleaksFindings, gitleaksRules, rulesGeneration, type GitleaksRule } from "./gitleaks.js";
import { GENERIC_RULE_ID } from "./gitleaks.js";
import { RULE_COUNT, ruleHead } from "./gitleaks-data.js";
import { SPECIFIC_RULES } from "./own-rules.js";

/** A rule as a function from a line to the [start, end) of what it would replace there. */
export type Finder = (line: string) => Array<[number, number]>;

/** The own rules that name a provider by its prefix, and the prefix (own-rules.ts). */
export const OWN_PROVIDER_PREFIXES: ReadonlyArray<readonly [kind: string, prefix: string]> = [
  ["groq-api-key", "gsk_"],
  ["xai-api-key", "xai-"],
  ["replicate-token", "r8_"],
  ["huggingface-token", "hf_"],
];
export const OWN_PROVIDER_KINDS: ReadonlySet<string> = new Set(OWN_PROVIDER_PREFIXES.map(([k]) => k));

function gitleaksFinder(r: GitleaksRule): Finder {
  return (line) => {
    const lower = line.toLowerCase();
    return gitleaksFindings(r, line, { has: (k) => lower.includes(k) });
  };
}

function ownFinder(re: RegExp): Finder {
  return (line) => [...line.matchAll(new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`))].map((m) => [m.index, m.index + m[0].length] as [number, number]);
}

/**
 * Keyword -> the upstream rules it gates (gitleaks' and an owner's imported ones, not the generic
 * rule), for the keywords `kind` takes, made again after an import changes the rules. gitleaks'
 * keywords of an id stay the id's when an imported rule replaced it with other keywords
 * (betterleaks' 1Password rule is gated by "ops_eyj", gitleaks' by "ops_").
 */
const KEYWORD_KINDS = {
  /** A token's prefix: 3 or more, ending in "_" or "-" ("sgp_", "bedrock-api-key-"). */
  prefix: (k: string): boolean => k.length >= 3 && /^[a-z0-9]/.test(k) && /[_-]$/.test(k),
  /** A provider's name: four or more letters ("meraki", "sumo"). */
  name: (k: string): boolean => /^[a-z]{4,}$/.test(k),
  /** A token's start: four or more letters and digits ("aiza", "eaaa"). */
  start: (k: string): boolean => /^[a-z0-9]{4,}$/.test(k),
};
const byKeyword = new Map<keyof typeof KEYWORD_KINDS, { generation: number; rules: Map<string, GitleaksRule[]> }>();
export function upstreamByKeyword(kind: keyof typeof KEYWORD_KINDS): Map<string, GitleaksRule[]> {
  const had = byKeyword.get(kind);
  if (had !== undefined && had.generation === rulesGeneration()) return had.rules;
  const rules = new Map<string, GitleaksRule[]>();
  const dataKeywords = new Map<string, readonly string[]>();
  for (let i = 0; i < RULE_COUNT; i++) dataKeywords.set(ruleHead(i).id, ruleHead(i).keywords);
  const takes = KEYWORD_KINDS[kind];
  for (const r of gitleaksRules()) {
    if (r.id === GENERIC_RULE_ID) continue;
    for (const k of new Set([...r.keywords, ...(dataKeywords.get(r.id) ?? [])])) if (takes(k)) rules.set(k, [...(rules.get(k) ?? []), r]);
  }
  byKeyword.set(kind, { generation: rulesGeneration(), rules });
  return rules;
}

let ownByPrefix: Map<string, Finder> | null = null;
function ownRulesByPrefix(): Map<string, Finder> {
  if (ownByPrefix !== null) return ownByPrefix;
  ownByPrefix = new Map();
  for (const [kind, prefix] of OWN_PROVIDER_PREFIXES) {
    const rule = SPECIFIC_RULES.find((r) => r.kind === kind);
    if (rule === undefined) throw new Error(`near-miss.ts: no own rule of kind ${kind}`);
    ownByPrefix.set(prefix, ownFinder(rule.re));
  }
  return ownByPrefix;
}

/**
 * Prefixes that are words any provider may put before a key (`live_`, `test_`, `api-`: gitleaks
 * gates GoCardless', Lob's and Octopus Deploy's rules by them): a rule of such a prefix names no
 * provider, so its length says nothing of a token that starts so (`wordPrefix`).
 */
const WORD_PREFIXES: ReadonlySet<string> = new Set(["live", "test", "api", "key", "token", "ext", "prod", "dev", "app", "user", "pub", "sk", "pk", "sc"]);
export function wordPrefix(token: string): boolean {
  const head = /^([a-z0-9]+)[_-]/.exec(token.toLowerCase())?.[1];
  return head === undefined || head.length < 2 || WORD_PREFIXES.has(head);
}

/** The provider rules of the prefixes `token` (lower-cased) starts with: upstream's when any, else the own ones (see above). */
export function providerFindersOf(token: string): Finder[] {
  const upstream: Finder[] = [];
  for (const [k, rules] of upstreamByKeyword("prefix")) if (token.startsWith(k)) for (const r of rules) upstream.push(gitleaksFinder(r));
  if (upstream.length > 0) return upstream;
  return [...ownRulesByPrefix()].filter(([k]) => token.startsWith(k)).map(([, f]) => f);
}

/** The most characters appended that are tried: longer than any provider format's body read so far. */
const MAX_MISSING = 128;

/**
 * How many characters the token at [start, end) of `line` lacks for `find` to take it (the
 * token's own last run repeated, so its alphabet and case stay, appended one at a time until a
 * finding runs to their end), or null when no length up to MAX_MISSING is taken.
 */
export function missingFor(find: Finder, line: string, start: number, end: number): number | null {
  const run = line.slice(start, end).match(/[A-Za-z0-9]+$/)?.[0] ?? "";
  if (run === "") return null;
  let pad = "";
  for (let k = 1; k <= MAX_MISSING; k++) {
    pad += run[(k - 1) % run.length]!;
    const padded = line.slice(0, end) + pad + line.slice(end);
    if (find(padded).some(([a, b]) => a < end && b === end + k)) return k;
  }
  return null;
}

/** Bits a character of `body` carries at its alphabet: hex 4, one case and digits 5.2, both cases 5.95, with "_" or "-" 6. */
export function bitsPerChar(body: string): number {
  if (/^[0-9a-f]+$|^[0-9A-F]+$/.test(body)) return 4;
  if (/^[a-z0-9]+$|^[A-Z0-9]+$/.test(body)) return Math.log2(36);
  return /[_-]/.test(body) ? 6 : Math.log2(62);
}

/** Characters of the line read on either side of a token (unguessablyShort). */
const WINDOW = 40;

/** What a key that shows only its start must still hide: more than can be tried against an API. */
export const UNGUESSABLE_BITS = 64;

/**
 * Whether every rule of `finders` would take the token at [start, end) of `line` only longer, by
 * UNGUESSABLE_BITS or more at the alphabet of `body` (see above). False for no rule.
 */
export function unguessablyShort(finders: readonly Finder[], line: string, start: number, end: number, body: string): boolean {
  if (finders.length === 0 || wordPrefix(line.slice(start, end))) return false;
  const bits = bitsPerChar(body);
  // A window of the line around the token: up to 128 tries a rule, each a run of its pattern, on a
  // minified file's line of megabytes would cost; a prefix rule reads the token and what touches it.
  const from = Math.max(0, start - WINDOW);
  const window = line.slice(from, end + WINDOW);
  return finders.every((f) => {
    const k = missingFor(f, window, start - from, end - from);
    return k !== null && k * bits >= UNGUESSABLE_BITS;
  });
}
