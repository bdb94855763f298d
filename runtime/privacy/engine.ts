/**
 * The full redactor (redact.ts is its front: it runs this only on text its pre-filter cannot
 * clear). Every secret found is replaced by a typed marker `[REDACTED:<kind>]`.
 * Every rule runs on the text as given and its findings are joined before anything is replaced
 * (spans.ts): overlapping findings become one marker, named by the first rule in this order.
 * Two rule sets, in this order: the redactor's own rules for blocks (own-rules.ts), gitleaks'
 * specific rules (gitleaks.ts, kept as data), the own rules for cut and placed secrets,
 * gitleaks' generic rule, and the own rules for named values and e-mail addresses.
 * Synchronous, deterministic and zod-free (the capture hook bundles it). Idempotent: markers
 * match no rule, so redacting twice changes nothing.
 *
 * Kinds are the gitleaks rule id, except for a stable vocabulary kept from the first
 * redactor (kindOf below): a GitHub token of any sort is `github-token`, and so on.
 *
 * Example: `redactAll("export OPENAI_API_KEY=sk-proj-…T3BlbkFJ…")`
 * -> `{ text: "export OPENAI_API_KEY=[REDACTED:openai-api-key]", kinds: ["openai-api-key"] }`
 */
import { gitleaksFindings, GENERIC_RULE_ID, gitleaksRule, gitleaksRules, rulesGeneration, type GitleaksRule, type KeywordCheck } from "./gitleaks.js";
import { KeywordGate } from "./keyword-gate.js";
import { WITNESSED_GITLEAKS_RULES } from "./witnessed.js";
import { EARLY_RULES, LATE_RULES, SPECIFIC_RULES, type OwnRule } from "./own-rules.js";
import { applySpans, widenToToken, type Span } from "./spans.js";
import { caselessOf } from "./caseless-table.js";
import { notASecret, onlyReferences } from "./placeholders.js";
import { publicByDesign } from "./own-shapes.js";
import { keptByFamily } from "./own-families.js";
import { keptByPlace } from "./own-families-9.js";
import { keptByPlace10 } from "./own-families-10.js";
import { spellsItsName, upstreamDisowns } from "./upstream-verdict.js";

export interface Redaction {
  text: string;
  /** The kinds replaced, in the text's order, each once. */
  kinds: string[];
}

/** Markers kept from the first redactor, so ledgers and tests read the same kinds. */
const KIND_ALIASES: Record<string, string> = {
  "anthropic-admin-api-key": "anthropic-api-key",
  "stripe-access-token": "stripe-key",
  "npm-access-token": "npm-token",
  "aws-access-token": "aws-access-key",
  "gcp-api-key": "google-api-key",
  "huggingface-access-token": "huggingface-token",
  "huggingface-organization-api-token": "huggingface-token",
  [GENERIC_RULE_ID]: "env-assignment",
};

export function kindOf(ruleId: string): string {
  const alias = KIND_ALIASES[ruleId];
  if (alias !== undefined) return alias;
  if (ruleId.startsWith("github-")) return "github-token";
  if (ruleId.startsWith("gitlab-")) return "gitlab-token";
  if (ruleId.startsWith("slack-") && ruleId !== "slack-webhook-url") return "slack-token";
  return ruleId;
}

type Step = { own: OwnRule; kind: string; marker: string } | { gitleaks: GitleaksRule; kind: string; marker: string };
const withMarker = <T extends { kind: string }>(x: T): T & { marker: string } => ({ ...x, marker: `[REDACTED:${x.kind}]` });

/** Which sets run: both (the redactor), or one alone (to compare them, docs/privacy.md). */
export type RuleSet = "all" | "gitleaks" | "own";

function steps(set: RuleSet): Step[] {
  const own = (rs: readonly OwnRule[]): Step[] => (set === "gitleaks" ? [] : rs.map((r) => withMarker({ own: r, kind: r.kind })));
  const gl = (pick: (r: GitleaksRule) => boolean): Step[] =>
    set === "own" ? [] : gitleaksRules().filter(pick).map((r) => withMarker({ gitleaks: r, kind: kindOf(r.id) }));
  return [
    ...own(EARLY_RULES),
    ...gl((r) => r.id !== GENERIC_RULE_ID),
    ...own(SPECIFIC_RULES),
    ...gl((r) => r.id === GENERIC_RULE_ID),
    ...own(LATE_RULES),
  ];
}
// Made on first use: a hook run needs only the whole plan, and building the one-set plans (for
// the comparison of the sets) would cost it a pass over every rule twice more.
let plans: Partial<Record<RuleSet, Step[]>> = {};
let plansOf = rulesGeneration();
const plan = (set: RuleSet): Step[] => {
  // Made again when the imported rules were set anew (gitleaks.ts resetImportedMerge).
  if (plansOf !== rulesGeneration()) [plans, plansOf] = [{}, rulesGeneration()];
  return (plans[set] ??= steps(set));
};

/**
 * With `only` (the pre-filter's candidates, prefilter.ts): of the own rules and the witnessed
 * gitleaks rules, only those named there run ("own:<kind>", "gitleaks:<id>"); gitleaks' other
 * rules are gated by their keywords as always, and skipped at once when the pre-filter found
 * none of their keywords in the text (`keywordSeen` false): its keyword list holds a part of
 * every keyword of theirs (test/privacy/prefilter.test.ts), and a marker matches no rule.
 */
export function redactAll(text: string, only?: ReadonlySet<string>, keywordSeen = true, scanAgain?: (text: string) => PassCandidates | null): Redaction {
  // The pre-filter's candidates hold for `text` only: a later pass reads its input whole, or,
  // given `scanAgain` (the pre-filter itself, from the front), runs the rules the pre-filter
  // names on that pass's input (null: it clears it, so the pass changes nothing). Without it, a
  // capture whose first pass redacted something made and ran all ~250 rules a second time.
  return untilStable(text, (t, first) => {
    if (first) return redactCandidates(t, only, keywordSeen);
    if (scanAgain === undefined) return redactWith(t, plan("all"), true);
    const c = scanAgain(t);
    return c === null ? { text: t, kinds: [] } : redactCandidates(t, c.rules, c.keywordSeen);
  });
}

/** What the pre-filter says of a text it cannot clear: the rules that may match, and whether it saw a gitleaks keyword. */
export interface PassCandidates {
  rules: ReadonlySet<string>;
  keywordSeen: boolean;
}

function redactCandidates(text: string, only: ReadonlySet<string> | undefined, keywordSeen: boolean): Redaction {
  return redactWith(text, only !== undefined && !keywordSeen ? candidatePlan(only) : plan("all"), true, only, keywordSeen);
}

/** Passes at most: each pass that changes the text can only shorten what is left to read. */
const MAX_PASSES = 4;

/**
 * The redaction run again on its own output until it changes nothing (at most MAX_PASSES): a
 * match a rule took and kept (an identifier under a secret name, `token =MY_APP_TOKEN`) or
 * redacted in part (a tool's first `-p` flag) can hide the next secret on the same run, which
 * the rule sees only once the first is a marker (found by spans.test's idempotence property,
 * seeds 100 and -424242; kept as examples there). Texts with nothing to redact pay one pass.
 */
function untilStable(text: string, pass: (t: string, first: boolean) => Redaction): Redaction {
  let r = pass(text, true);
  for (let i = 1; i < MAX_PASSES && r.kinds.length > 0; i++) {
    const next = pass(r.text, false);
    if (next.text === r.text) break;
    const at = (k: string): number => next.text.indexOf(`[REDACTED:${k}]`);
    r = { text: next.text, kinds: [...new Set([...r.kinds, ...next.kinds])].sort((a, b) => at(a) - at(b)) };
  }
  return r;
}

/**
 * The whole plan's steps that `only` names, in the plan's order, made without the whole plan:
 * for a text in which the pre-filter found no gitleaks keyword, only the named own rules and
 * witnessed gitleaks rules can fire, and a hook process then makes none of the other ~220.
 */
function candidatePlan(only: ReadonlySet<string>): Step[] {
  const own = (rs: readonly OwnRule[]): Step[] => rs.filter((r) => only.has(`own:${r.kind}`)).map((r) => withMarker({ own: r, kind: r.kind }));
  const gl = (generic: boolean): Step[] =>
    WITNESSED_GITLEAKS_RULES.filter((id) => (id === GENERIC_RULE_ID) === generic && only.has(`gitleaks:${id}`))
      .map((id) => gitleaksRule(id))
      .filter((r) => r !== null)
      .sort((a, b) => a.index - b.index)
      .map(({ rule }) => withMarker({ gitleaks: rule, kind: kindOf(rule.id) }));
  return [...own(EARLY_RULES), ...gl(false), ...own(SPECIFIC_RULES), ...gl(true), ...own(LATE_RULES)];
}

/** The same redaction with every own rule's regex run, whatever its `need` says (for tests). */
export function redactAllUnfiltered(text: string): Redaction {
  return untilStable(text, (t) => redactWith(t, plan("all"), false));
}

/**
 * The whole redaction with the own rules `off` names left out (for the measure of what
 * each family of rules catches alone, docs/privacy.md "Context, not families"; tests only).
 */
export function redactAllExcept(text: string, off: (rule: OwnRule) => boolean): Redaction {
  const kept = plan("all").filter((s) => !("own" in s) || !off(s.own));
  return untilStable(text, (t) => redactWith(t, kept, true));
}

/** One rule set alone (for the comparison of the sets). */
export function redactWithRuleSet(text: string, set: RuleSet): Redaction {
  return redactWith(text, plan(set), true);
}

const WITNESSED: ReadonlySet<string> = new Set(WITNESSED_GITLEAKS_RULES);

/**
 * A keyword gate by plain `includes`: for the few gated rules a pre-filtered text still runs,
 * cheaper in a fresh process than keyword-gate.ts's pair bitmap (a loop over the whole text in
 * V8's interpreter before the first keyword is read).
 */
const includesGate = (lower: string): KeywordCheck => ({ has: (k) => lower.includes(k) });

/**
 * An own rule's findings: the span of each match its `replace` turns into the marker (the part
 * between what it keeps before and after), or the whole match when it has no `replace`.
 */
function ownFindings(rule: OwnRule, marker: string, text: string): Array<[number, number]> {
  if (rule.find !== undefined) return rule.find(text);
  const found: Array<[number, number]> = [];
  // In the hook's redactor part, a long case-insensitive pattern is run as its build-time rewrite without the flag (caseless-table.ts).
  const re = caselessOf(rule.re);
  re.lastIndex = 0;
  for (const m of text.matchAll(re)) {
    const match = m[0];
    if (match.length === 0) continue;
    if (!rule.replace) {
      found.push([m.index, m.index + match.length]);
      continue;
    }
    const replaced = rule.replace(marker, ...m.slice(1).map((g) => (typeof g === "string" ? g : "")));
    const at = replaced.indexOf(marker);
    if (at < 0) continue;
    const before = replaced.slice(0, at);
    const after = replaced.slice(at + marker.length);
    // The replacement keeps a prefix and a suffix of the match: the secret is what lies between.
    if (match.startsWith(before) && match.endsWith(after) && before.length + after.length < match.length) {
      found.push([m.index + before.length, m.index + match.length - after.length]);
    } else found.push([m.index, m.index + match.length]);
  }
  return found;
}

/**
 * Every step's findings on the text as given (no rule sees another's marker), each widened to
 * the token it cuts, then joined and replaced once (spans.ts).
 */
const MASKED_AFTER = /^[#*•]{4}/;

function redactWith(text: string, plan: readonly Step[], filtered: boolean, only?: ReadonlySet<string>, keywordSeen = true): Redaction {
  let lowered: string | null = null;
  const lower = (): string => (lowered ??= text.toLowerCase());
  const few = only !== undefined && !keywordSeen;
  let gate: KeywordCheck | null = null;
  const spans: Span[] = [];
  // Findings upstream's rule for their shape lets through (upstream-verdict.ts): dropped unless
  // they overlap or touch a kept finding, so that no part of a token another rule takes stays.
  const disowned: Span[] = [];
  // `rescan(from)`: the same rule's findings from `from` on. A match the rule's regex took and
  // `notASecret` then dropped may hide a real secret inside it (a URL glued to a token, with a
  // `client_secret=` in its query): the regex went past it, so the rule looks again from just
  // after the dropped match's start.
  const add = (found: Array<[number, number]>, rank: number, kind: string, upstream: boolean, rescan?: (from: number) => Array<[number, number]>): void => {
    const queue = [...found];
    let rescannedFrom = -1;
    while (queue.length > 0) {
      const [s, e] = queue.shift()!;
      // A URL token's segment starts after a "/": widened to the left across it, it took the
      // URL's folders and host with it ("https://docs.google.[REDACTED:url-token]").
      const [start, end] = widenToToken(text, s, e, kind !== "url-token" && kind !== "url-path-key" && kind !== "webhook-url");
      // A placeholder, a masked value, an identifier of words: what a broad rule matched is no
      // secret. gitleaks' provider rules keep their own verdicts (their allowlists and entropy):
      // their true samples include values such as "12345678-ABCD-…" that fit the format.
      // A value masked from here on ("xoxp-5723…-####") is a masked value.
      // Upstream's own verdict on a broad rule's finding (upstream-verdict.ts), and, for every
      // rule, a value made only of variable references ("${USER:-${DEFAULT_USER}}:${APIKEY}").
      const value = text.slice(start, end);
      // A key its provider documents as public (own-shapes.ts publicByDesign), whichever rule found it.
      if (onlyReferences(value) || publicByDesign(text, start, end) || keptByFamily(text, start, end) || keptByPlace(text, start, end) || keptByPlace10(text, start, end) || (!upstream && (notASecret(value) || MASKED_AFTER.test(text.slice(end, end + 4)) || spellsItsName(text, start, end)))) {
        if (rescan && s + 1 > rescannedFrom && s + 1 < text.length) {
          rescannedFrom = s + 1;
          // The rescan finds every later match of the rule too: it replaces the rest of the queue.
          queue.length = 0;
          queue.push(...rescan(s + 1));
        }
        continue;
      }
      if (!upstream && upstreamDisowns(kind, text, start, end)) disowned.push({ start, end, rank, kind });
      else spans.push({ start, end, rank, kind });
    }
  };
  const shifted = (from: number, found: Array<[number, number]>): Array<[number, number]> => found.map(([a, b]) => [a + from, b + from]);
  plan.forEach((step, rank) => {
    if ("gitleaks" in step) {
      if (only !== undefined) {
        // An imported rule of a witnessed id is gated by its keywords (imported-rule.ts).
        const witnessed = WITNESSED.has(step.gitleaks.id) && step.gitleaks.imported !== true;
        if (witnessed ? !only.has(`gitleaks:${step.gitleaks.id}`) : !keywordSeen) return;
      }
      gate ??= few ? includesGate(lower()) : new KeywordGate(lower());
      const g = gate;
      add(gitleaksFindings(step.gitleaks, text, g), rank, step.kind, step.gitleaks.id !== GENERIC_RULE_ID, (from) => shifted(from, gitleaksFindings(step.gitleaks, text.slice(from), g)));
      return;
    }
    const rule = step.own;
    if (only !== undefined && !only.has(`own:${rule.kind}`)) return;
    if (filtered && rule.need && !rule.need(text, lower)) return;
    // An e-mail address is personal data whatever its domain (example.com included).
    add(ownFindings(rule, step.marker, text), rank, step.kind, rule.kind === "email", (from) => shifted(from, ownFindings(rule, step.marker, text.slice(from))));
  });
  keepTouching(spans, disowned);
  if (spans.length === 0) return { text, kinds: [] };
  sameValueElsewhere(text, spans);
  return applySpans(text, spans);
}

/** Moves into `spans` each disowned span that overlaps or touches a kept one, until none does. */
function keepTouching(spans: Span[], disowned: Span[]): void {
  let moved = true;
  while (moved && disowned.length > 0 && spans.length > 0) {
    moved = false;
    for (let i = disowned.length - 1; i >= 0; i--) {
      const d = disowned[i]!;
      if (spans.some((s) => s.start <= d.end && d.start <= s.end)) {
        spans.push(d);
        disowned.splice(i, 1);
        moved = true;
      }
    }
  }
}

/**
 * A value found as a secret once is a secret wherever else it stands in the text, also where no
 * rule sees it, glued inside a word ("somSG.APhb…Kewhere", secretlint's sendgrid sample, was
 * written in clear beside its redacted twin, and its first 62 characters once more, cut).
 * Values of 16 characters or more: shorter ones
 * ("user", a 4-digit PIN) would take ordinary words with them.
 */
const TOKEN_CHAR = /[A-Za-z0-9+/=_.-]/;

function sameValueElsewhere(text: string, spans: Span[]): void {
  const n = spans.length;
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const sp = spans[i]!;
    if (sp.end - sp.start < 16) continue;
    const value = text.slice(sp.start, sp.end);
    if (seen.has(value)) continue;
    seen.add(value);
    // Its first 24 characters elsewhere are its start written again, cut or changed after:
    // that whole token run goes too.
    // Not for a URL or a path: their first 24 characters are a host or folders, no secret.
    const head = value.length >= 24 && !value.includes("/") ? value.slice(0, 24) : value;
    for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1)) {
      if (at === sp.start) continue;
      let end = at + head.length;
      while (end < text.length && TOKEN_CHAR.test(text[end]!)) end++;
      spans.push({ start: at, end, rank: sp.rank, kind: sp.kind });
    }
  }
}
