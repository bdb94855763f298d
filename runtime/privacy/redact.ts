/**
 * Secret redaction, the front every writer calls: the owner's own known secrets
 * (known-values.ts) are replaced first, whatever their shape; then a text the pre-filter (prefilter.ts)
 * proves free of any candidate secret is returned as it is; any other text goes through the
 * full redactor (engine.ts: the own rules and gitleaks' rules), which replaces every secret
 * found by a typed marker `[REDACTED:<kind>]`. Synchronous, deterministic and zod-free (the
 * capture hook bundles it). Idempotent: markers match no rule, so redacting twice changes
 * nothing.
 *
 * Why a pre-filter: the full rule set (gitleaks' ~220 rules as data, ~30 own patterns) costs
 * more to load and compile in a fresh hook process than the hook's whole budget for it
 * (docs/privacy.md "Cost"); most texts hold no candidate, and for those the pre-filter's
 * "no" is a proof that the redactor would change nothing (test/privacy/prefilter.test.ts).
 *
 * Example: `redactSecrets("export OPENAI_API_KEY=sk-proj-…T3BlbkFJ…")`
 * -> `{ text: "export OPENAI_API_KEY=[REDACTED:openai-api-key]", kinds: ["openai-api-key"] }`;
 * `redactSecrets("run the tests")` -> `{ text: "run the tests", kinds: [] }` (the rules never loaded).
 */
import type { PassCandidates, Redaction, RuleSet } from "./engine.js";
import { loadEngine } from "./engine-load.js";
import { candidates, type Candidates } from "./prefilter.js";
import { knownSecrets } from "./known-store.js";
import { storeSpans, valueSpans } from "./known-values.js";
import { applySpans } from "./spans.js";
import { redactThroughViews, viewNotCleared } from "./through-views.js";
import { assembledNotCleared, redactAssembled, ruleOutReadings } from "./assembled.js";

export type { Redaction, RuleSet };

/**
 * Texts the pre-filter cleared in this process, so that a text written twice (a capture writes
 * the reply and the previous prompt into both its row and its deep context) is scanned once;
 * and, for the same reason, the redactions of texts it could not clear (a short reply is both
 * the row's preview and the deep context's reply: the full redactor runs on it once). Bounded:
 * emptied when full (a long job's texts are mostly distinct). A Redaction is a pure function
 * of its text, so a remembered one is the one a new run would give.
 */
const cleared = new Set<string>();
const redacted = new Map<string, Redaction>();
const CLEARED_MAX = 64;
function remember(text: string): void {
  if (cleared.size >= CLEARED_MAX) cleared.clear();
  cleared.add(text);
}
function rememberRedaction(text: string, r: Redaction): Redaction {
  if (redacted.size >= CLEARED_MAX) redacted.clear();
  redacted.set(text, r);
  return r;
}

/**
 * Tells this process that `text` was cleared by this pre-filter before, in another process:
 * only for the Stop hook's kept reply, which it keeps as it is only when the pre-filter clears
 * it (hooks/hook-state.ts marks such a file `reply_cleared`), so that the capture reading it
 * does not scan it again.
 */
export function rememberCleared(text: string): void {
  remember(text);
}

/**
 * The last join allCleared could not clear: its parts and its candidates. A part of it, or a
 * join of its parts, is scanned only for the conditions that held in that join
 * (prefilter.ts `candidates(text, within)`: the same answer, for a fraction of the searches),
 * so a capture whose join holds one candidate secret does not run every condition again on
 * each of its dozen texts.
 */
let lastJoin: { parts: ReadonlySet<string>; within: Candidates } | null = null;
const scan = (text: string, parts: readonly string[]): Candidates =>
  lastJoin !== null && parts.every((p) => lastJoin!.parts.has(p)) ? candidates(text, lastJoin.within) : candidates(text);

/**
 * The owner's own secrets (known-values.ts) found in `text`, replaced: before any rule, and
 * whether or not the pre-filter would clear the text (a known value can have any shape).
 * Null when none is there.
 */
function scrubKnown(text: string): Redaction | null {
  const k = knownSecrets();
  if (k.values.length === 0 && k.store === null) return null;
  const spans = valueSpans(text, k.values);
  if (k.store !== null) spans.push(...storeSpans(text, k.store));
  if (spans.length === 0) return null;
  return applySpans(
    text,
    spans.map(([start, end]) => ({ start, end, rank: 0, kind: "known-secret" })),
  );
}

/** Kinds of two redactions, in order, each once. */
function joinKinds(a: readonly string[], b: readonly string[]): string[] {
  return [...a, ...b.filter((k) => !a.includes(k))];
}

export function redactSecrets(text: string): Redaction {
  // What a coding session did to the text (colours, escapes, a wrap) undone, for the rules' eyes
  // (through-views.ts); values a program joins from pieces read joined (assembled.ts).
  return redactAssembled(text, redactThroughViews(text, redactPlain(text), redactPlain), redactPlain);
}

/** The redaction of the text as written only, without its views (for the comparison of the views, test/privacy/views-real.test.ts). */
export function redactSecretsAsWritten(text: string): Redaction {
  return redactPlain(text);
}

function redactPlain(text: string): Redaction {
  const known = scrubKnown(text);
  if (known !== null) {
    const rest = redactByRules(known.text);
    return { text: rest.text, kinds: joinKinds(known.kinds, rest.kinds) };
  }
  return redactByRules(text);
}

function redactByRules(text: string): Redaction {
  if (cleared.has(text)) return { text, kinds: [] };
  const seen = redacted.get(text);
  if (seen !== undefined) return { text: seen.text, kinds: [...seen.kinds] };
  const c = scan(text, [text]);
  if (c.first === null) {
    remember(text);
    return { text, kinds: [] };
  }
  // Only the candidate rules run: a text that trips one condition does not compile the rest.
  const r = rememberRedaction(text, loadEngine().redactAll(text, c.rules, c.keyword !== null, scanAgain));
  return { text: r.text, kinds: [...r.kinds] };
}

/** The pre-filter on a later pass's input (the text with the first pass's markers): null when it clears it. */
function scanAgain(text: string): PassCandidates | null {
  const c = candidates(text);
  return c.first === null ? null : { rules: c.rules, keywordSeen: c.keyword !== null };
}

/**
 * Whether the pre-filter clears every one of `texts` (nulls skipped) with one scan of them
 * joined by newlines, so that a writer of several fields (an erratum, a capture's deep context)
 * pays for one pre-filter run, not one per field: in a fresh hook process each run costs its
 * scans again. Sound because each of the pre-filter's conditions that holds in a part also
 * holds in the join (a condition is a substring, a run or a pattern found in the text, and the
 * newline is in none of their character sets nor a word character), which
 * test/privacy/redact.test.ts checks as a property; a join that is not cleared says nothing
 * about its parts (the writer then redacts each).
 */
export function allCleared(texts: ReadonlyArray<string | null | undefined>): boolean {
  const rest: string[] = [];
  ruleOutReadings(texts.filter((t): t is string => typeof t === "string" && t !== ""));
  for (const t of texts) {
    if (typeof t !== "string" || t === "") continue;
    // A known value of the owner's is in no pre-filter condition: such a text is never cleared.
    if (scrubKnown(t) !== null) return false;
    // A text whose view (through-views.ts) the pre-filter does not clear: before the cleared
    // texts, which are the texts the pre-filter clears as written.
    if (viewNotCleared(t, (v) => candidates(v).first === null)) return false;
    // The same for a value the text assembles from pieces (assembled.ts).
    if (assembledNotCleared(t, (v) => candidates(v).first === null)) return false;
    if (cleared.has(t)) continue;
    // A text the pre-filter could not clear before: the join would not be cleared either.
    if (redacted.has(t)) return false;
    // A text given twice (a short reply is both the row's preview and the deep context's reply) is scanned once.
    if (!rest.includes(t)) rest.push(t);
  }
  if (rest.length === 0) return true;
  const c = scan(rest.join("\n"), rest);
  if (c.first !== null) {
    // Kept for the parts' own scans that follow (a join of parts of an earlier join keeps that one).
    if (lastJoin === null || !rest.every((p) => lastJoin!.parts.has(p))) lastJoin = { parts: new Set(rest), within: c };
    return false;
  }
  // Each part of a cleared join is cleared (the property above), and so is remembered.
  for (const t of rest) remember(t);
  return true;
}

/** The full redactor on every text, without the pre-filter (for tests and the held-out comparison). */
export function redactWithoutPrefilter(text: string): Redaction {
  return redactAssembled(text, redactThroughViews(text, redactWithoutPrefilterPlain(text), redactWithoutPrefilterPlain), redactWithoutPrefilterPlain);
}

function redactWithoutPrefilterPlain(text: string): Redaction {
  const known = scrubKnown(text);
  if (known === null) return loadEngine().redactAll(text);
  const rest = loadEngine().redactAll(known.text);
  return { text: rest.text, kinds: joinKinds(known.kinds, rest.kinds) };
}

/** The same redaction with neither the pre-filter nor the own rules' `need`s: every regex run (for tests). */
export function redactSecretsUnfiltered(text: string): Redaction {
  const plain = (t: string): Redaction => loadEngine().redactAllUnfiltered(t);
  return redactAssembled(text, redactThroughViews(text, plain(text), plain), plain);
}

/** One rule set alone, without the pre-filter (for the comparison of the sets). */
export function redactWithRuleSet(text: string, set: RuleSet): Redaction {
  return loadEngine().redactWithRuleSet(text, set);
}

/** Redacts a nullable string, collecting kinds into `into`. */
export function redactNullable(text: string | null, into: string[]): string | null {
  if (text === null) return null;
  const r = redactSecrets(text);
  for (const k of r.kinds) if (!into.includes(k)) into.push(k);
  return r.text;
}
