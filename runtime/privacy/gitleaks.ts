/**
 * gitleaks' default rules (MIT, see NOTICE), kept as data in `gitleaks-rules.json` and run the
 * way gitleaks runs them: a rule's pattern is tried only when one of its keywords occurs in
 * the lower-cased text; its secret is the rule's secret group, else the first non-empty
 * group, else the whole match; a secret at or below the rule's entropy, or allowed by the
 * global or the rule's allowlists (regexes on the secret, the match or the line; stopwords
 * in the secret), is left as it is. Only the secret is replaced, so `API_KEY=<secret>` keeps
 * its name. Patterns are compiled on first use (most texts wake a handful of rules).
 *
 * Why the data and not secretlint at run time: secretlint's `lintSource` is asynchronous and
 * its preset is a 600 KB bundle; the hook must stay synchronous and small. docs/privacy.md
 * has the comparison of the rule sets on the test corpus.
 *
 * Example: `runGitleaks("SENDGRID=SG.<22>.<43>", rules)` -> the token replaced by
 * `[REDACTED:sendgrid-api-token]`.
 */
import { globalAllowData, ruleAllowData, ruleData, ruleHead, RULE_COUNT, type Pattern } from "./gitleaks-data.js";
import type { Finding } from "./filter-eval.js";
import { loadMergeImported } from "./imported-load.js";
import { importedRules } from "./imported-rules.js";
import { shannonEntropy } from "./entropy.js";

interface CompiledAllow {
  target: string;
  regexes: RegExp[];
  stopwords: string[];
}
export interface GitleaksRule {
  id: string;
  keywords: string[];
  /**
   * How far back (in `[\w.-]` characters) the match's name reaches. gitleaks' patterns for
   * "NAME = secret" start with a lazy `[\w.-]{0,50}?` that only takes the name into the
   * match; run as it is, a backtracking engine tries it at every position of the text (most
   * of the cost on ordinary text), so it is cut off and the name is found by walking back
   * from the match instead, for the allowlists that read the match.
   */
  /** The rest of its data but the allowlists, read on first use; `reachBack` as above. */
  body: () => { reachBack: number; src: string; flags: string; entropy: number; secretGroup: number; wholeMatch: boolean };
  /** Compiled on first use. */
  re: () => RegExp;
  allow: () => CompiledAllow[];
  /** A betterleaks rule the owner imported (imported-rule.ts): gated by its keywords, judged by `discards`. */
  imported?: true;
  /** Its filters: whether upstream discards a finding (in place of entropy and allowlists). */
  discards?: (f: Finding) => boolean;
}

function once<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => (v ??= make());
}

const compile = (p: Pattern, global = false): RegExp => new RegExp(p.src, global ? `${p.flags}g` : p.flags);

const LAZY_NAME = "[\\w.-]{0,50}?";

/** Rule `i`: its id and keywords at once, its pattern and allowlists read and compiled on first use. */
function toRule(i: number): GitleaksRule {
  const head = ruleHead(i);
  const body = once(() => {
    const r = ruleData(i);
    const cut = r.src.startsWith(LAZY_NAME);
    const src = cut ? r.src.slice(LAZY_NAME.length) : r.src;
    const secretGroup = r.secretGroup ?? 0;
    return { reachBack: cut ? 50 : 0, src, flags: r.flags, entropy: r.entropy ?? 0, secretGroup, wholeMatch: secretGroup === 0 && firstGroupRepeated(src) };
  });
  return {
    id: head.id,
    keywords: head.keywords,
    body,
    re: once(() => compile(body(), true)),
    // Read apart from the pattern: only a match above the rule's entropy needs them.
    allow: once(() => ruleAllowData(i).map((a) => ({ target: a.target, regexes: (a.regexes ?? []).map((p) => compile(p)), stopwords: a.stopwords ?? [] }))),
  };
}

// Each rule is made when first asked for: a hook process whose text wakes no gitleaks rule
// makes none of the ~220.
const made: GitleaksRule[] = [];
const ruleAt = (i: number): GitleaksRule => (made[i] ??= toRule(i));
let byId: Map<string, number> | null = null;

/** gitleaks' rules with the owner's imported betterleaks rules in (imported-rule.ts), made once. */
let merged: GitleaksRule[] | null = null;
function withImported(): GitleaksRule[] | null {
  if (merged !== null) return merged;
  const data = importedRules();
  return data === null ? null : (merged = loadMergeImported()(Array.from({ length: RULE_COUNT }, (_, i) => ruleAt(i)), data));
}

/** The rules, in the file's order (the generic rule is split off: it runs after the specific ones). */
export function gitleaksRules(): readonly GitleaksRule[] {
  return withImported() ?? Array.from({ length: RULE_COUNT }, (_, i) => ruleAt(i));
}

/** One rule by id, with its place in the file's order, or null when the data has none. */
export function gitleaksRule(id: string): { rule: GitleaksRule; index: number } | null {
  const all = withImported();
  if (all !== null) {
    const at = all.findIndex((r) => r.id === id);
    return at < 0 ? null : { rule: all[at]!, index: at };
  }
  if (byId === null) {
    byId = new Map();
    for (let i = 0; i < RULE_COUNT; i++) byId.set(ruleHead(i).id, i);
  }
  const i = byId.get(id);
  return i === undefined ? null : { rule: ruleAt(i), index: i };
}

/** Counts the forgets below, so that a plan made of the rules (engine.ts) is made again after one. */
let generation = 0;
export const rulesGeneration = (): number => generation;

/** Forgets the merged list (tests, and an import's check of its samples, in the same process). */
export function resetImportedMerge(): void {
  merged = null;
  generation++;
}

const globalAllow = once((): CompiledAllow => {
  const g = globalAllowData();
  return { target: "secret", regexes: g.regexes.map((p) => compile(p)), stopwords: g.stopwords };
});

/** What a rule's keywords are checked against: keyword-gate.ts, or a plain `includes`. */
export interface KeywordCheck {
  has(keyword: string): boolean;
}

export const GENERIC_RULE_ID = "generic-api-key";

export { shannonEntropy }; // in its own module (entropy.ts): the hook's pre-filter uses it without gitleaks' data

/**
 * The last answers of each allowlist, by subject and secret: a finding of the generic rule is
 * judged twice on the same secret and line (gitleaksFindings, then upstream-verdict.ts), and in
 * a fresh hook process V8 compiles a pattern a second time, to machine code, when it runs it a
 * second time (docs/privacy.md "Cost"). A pure function of its inputs, so a remembered answer is
 * the one a new run would give. Bounded: emptied when full.
 */
const allowAnswers = new WeakMap<CompiledAllow, Map<string, Exclude<UpstreamReject, "entropy"> | null>>();
const ALLOW_ANSWERS_MAX = 256;

function allowedBy(a: CompiledAllow, secret: string, match: string, line: string): Exclude<UpstreamReject, "entropy"> | null {
  const subject = a.target === "match" ? match : a.target === "line" ? line : secret;
  let answers = allowAnswers.get(a);
  if (answers === undefined) allowAnswers.set(a, (answers = new Map()));
  const key = a.target === "secret" ? secret : `${subject}\u0000${secret}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  if (answers.size >= ALLOW_ANSWERS_MAX) answers.clear();
  const answer = allowedByUncached(a, subject, secret);
  answers.set(key, answer);
  return answer;
}

function allowedByUncached(a: CompiledAllow, subject: string, secret: string): Exclude<UpstreamReject, "entropy"> | null {
  if (a.regexes.some((re) => re.test(subject))) return a.target === "match" || a.target === "line" ? "allowlist" : "shape";
  const lower = secret.toLowerCase();
  return a.stopwords.some((w) => lower.includes(w)) ? "stopword" : null;
}

/**
 * Why a rule would let a secret through: at or below its entropy; an allowlist's regex on the
 * match or the line ("allowlist": the name or the line says it is no secret: `csrf-token=`,
 * `key_id =`, an import) or on the secret ("shape": letters only, `$VAR`, a path); a stopword in it.
 */
export type UpstreamReject = "entropy" | "allowlist" | "shape" | "stopword";

/**
 * The rule's own verdict on a secret it (or a broader rule) found: null when the rule would report
 * it, else why not. `match` is the text of the match with the name before it ("API_KEY = …"),
 * `line` its line. gitleaks' order: entropy, then the global allowlist, then the rule's.
 *
 * Example: `upstreamRejects(generic, "6fe4476ee5a1832882e326b506d14126", …)` -> "stopword" (a
 * documented example key among the generic rule's stopwords).
 */
export function upstreamRejects(rule: GitleaksRule, secret: string, match: string, line: string): UpstreamReject | null {
  if (rule.discards !== undefined) return rule.discards(findingOf(secret, match, line, Math.max(0, line.indexOf(match)))) ? "allowlist" : null;
  const { entropy } = rule.body();
  if (entropy > 0 && shannonEntropy(secret) <= entropy) return "entropy";
  const g = allowedBy(globalAllow(), secret, match, line);
  if (g !== null) return g;
  for (const a of rule.allow()) {
    const r = allowedBy(a, secret, match, line);
    if (r !== null) return r;
  }
  return null;
}

/** The stopwords of a rule's allowlists (and the global ones) that `secret` contains, lower-cased. */
export function stopwordsIn(rule: GitleaksRule, secret: string): string[] {
  const lower = secret.toLowerCase();
  return [...globalAllow().stopwords, ...rule.allow().flatMap((a) => a.stopwords)].filter((w) => lower.includes(w));
}

/** What betterleaks' filters read of a finding (filter-eval.ts): `fragment` is the text the match is at `offset` in. */
function findingOf(secret: string, match: string, fragment: string, offset: number): Finding {
  const lineStart = fragment.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = fragment.indexOf("\n", offset + match.length);
  const end = lineEnd < 0 ? fragment.length : lineEnd;
  return {
    secret,
    match,
    line: fragment.slice(lineStart, end),
    fragment_raw: fragment,
    match_start_idx: offset,
    match_end_idx: offset + match.length,
    match_line_start_idx: lineStart,
    match_line_end_idx: end,
  };
}

/** The `[\w.-]` characters (at most `max`) just before `offset`: the rest of the match's name. */
function nameBefore(text: string, offset: number, max: number): string {
  let from = offset;
  while (from > 0 && offset - from < max && /[\w.-]/.test(text[from - 1]!)) from--;
  return text.slice(from, offset);
}

export function lineAt(text: string, offset: number, length: number): string {
  const from = text.lastIndexOf("\n", offset - 1) + 1;
  const to = text.indexOf("\n", offset + length);
  return text.slice(from, to < 0 ? text.length : to);
}

/**
 * Where a pattern walk resumes after the escape or character class starting at `i` (the index
 * of its last character), or `i` itself when neither starts there: a parenthesis inside either
 * opens no group. Shared by the two hand-written walks over patterns' sources
 * (firstGroupRepeated here, groupSource in upstream-verdict.ts).
 */
export function pastLiteral(src: string, i: number): number {
  if (src[i] === "\\") return i + 1;
  if (src[i] !== "[") return i;
  let j = i + 1;
  if (src[j] === "^") j++;
  if (src[j] === "]") j++;
  while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
  return j;
}

/**
 * Whether the pattern's first capturing group is repeated (`([a-z0-9]{4}-){3}`): such a group
 * holds only its last repetition, a few characters of the token, never the secret (gitleaks'
 * Teams webhook rule), so the whole match is taken instead.
 */
export function firstGroupRepeated(src: string): boolean {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const past = pastLiteral(src, i);
    if (past !== i) {
      i = past;
      continue;
    }
    if (c === "(") {
      if (open < 0 && src[i + 1] !== "?") open = depth;
      depth++;
    } else if (c === ")") {
      depth--;
      if (depth === open) return /[{*+?]/.test(src[i + 1] ?? "");
    }
  }
  return false;
}

/**
 * One rule's findings on `text` (whose keywords are checked by `gate`: keyword-gate.ts, or a
 * plain `includes` on the lower-cased text): the [start, end) of each secret it would replace,
 * after its entropy and allowlists.
 */
export function gitleaksFindings(rule: GitleaksRule, text: string, gate: KeywordCheck): Array<[number, number]> {
  if (rule.keywords.length > 0 && !rule.keywords.some((k) => gate.has(k))) return [];
  const found: Array<[number, number]> = [];
  const re = rule.re();
  const { entropy, reachBack, secretGroup, wholeMatch } = rule.body();
  for (const m of text.matchAll(re)) {
    const match = m[0];
    if (match.length === 0) continue;
    const offset = m.index;
    let secret = match;
    if (m.length > 1 && !wholeMatch) {
      const chosen = secretGroup > 0 ? m[secretGroup] : m.slice(1).find((g) => typeof g === "string" && g.length > 0);
      if (typeof chosen === "string" && chosen.length > 0) secret = chosen;
    }
    if (secret.includes("[REDACTED:")) continue;
    if (entropy > 0 && shannonEntropy(secret) <= entropy) continue;
    const line = lineAt(text, offset, match.length);
    if (rule.discards !== undefined) {
      if (rule.discards(findingOf(secret, match, text, offset))) continue;
      const at = offset + match.lastIndexOf(secret);
      found.push([at, at + secret.length]);
      continue;
    }
    const named = reachBack > 0 ? `${nameBefore(text, offset, reachBack)}${match}` : match;
    if (allowedBy(globalAllow(), secret, named, line) !== null || rule.allow().some((a) => allowedBy(a, secret, named, line) !== null)) continue;
    const at = offset + match.lastIndexOf(secret);
    found.push([at, at + secret.length]);
  }
  return found;
}
