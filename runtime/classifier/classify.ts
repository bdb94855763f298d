/**
 * The capture classifier: deterministic, pure, no model. Reads one typed prompt (and, when
 * known, the end of the reply it answers) and says whether it is an explicit rating, praise,
 * correction or standing directive, how frustrated it sounds (0-3), and which signals fired.
 * English, Finnish, German, Spanish, French, Portuguese, Russian, Japanese and Chinese; the
 * words live in `lang/<code>.json`.
 *
 * Decision order: skip (not typed by a person) > rating > correction > directive >
 * frustration >= 2 (a complaint without fixed words, counted as a correction) > praise >
 * none. A weak "no" opener counts only after a reply that did not end in an offer or plain
 * question ("want me to commit?" -> "No." is an answer; "is that right?" -> "No." is a
 * correction), and never as a polite closing ("No, we are done here.").
 *
 * Example: `classify("No, that's wrong. I already told you to use pnpm!!")` ->
 * `{ kind: "correction", rating: null, frustration: 1, language: "en", signals:
 *   ["correction.en.no_strong", "correction.en.thats_wrong", "correction.en.already_told",
 *    "frustration.punctuation"] }`
 */
import { buildMatchers, ruleAt, ruleRegexOn, scan, testNear, type CompiledRule, type Matchers } from "./compile.js";
import { emphaticPunctuation, frustrationScore, shouting } from "./frustration.js";
import { loadIndex } from "./index-file.js";
import { CUT_USES } from "./prune.js";
import { bareNumberPolicy, findRating, ratingPatterns, type RatingPatterns } from "./rating.js";
import { replyPatterns, replyShape, type ReplyPatterns, type ReplyShape } from "./reply-shape.js";
import { matchText, typedPart } from "./text.js";
import type { CaptureVerdict, ClassifyContext } from "./verdict.js";

export type { CaptureKind, CaptureVerdict, ClassifyContext, Frustration } from "./verdict.js";

export type Classify = (text: string, context?: ClassifyContext) => CaptureVerdict;

/**
 * A classifier with matchers of its own. `cutUses`: how many uses of each regex run it cut to
 * its subject before the whole regex is compiled (see `SubjectRegex` in prune.ts): 0 never
 * cuts, Infinity always does; the verdicts are the same either way (tests compare them).
 */
export function makeClassifier(options: { cutUses?: number } = {}): Classify {
  const cutUses = options.cutUses ?? CUT_USES;
  const m = buildMatchers(loadIndex(), cutUses);
  // Made on first use: a prompt with no digit never reads the index's rating trees, and most
  // prompts never need the reply read.
  let rating: RatingPatterns | undefined;
  let reply: ReplyPatterns | undefined;
  const patterns: Patterns = {
    rating: () => (rating ??= ratingPatterns(loadIndex().rating, cutUses)),
    reply: () => (reply ??= replyPatterns(loadIndex().reply, cutUses)),
  };
  return (text, context = {}) => classifyWith(m, patterns, text, context);
}

/** The process's classifier. (Marked pure so that a bundle that never uses it, the mod's, does not build it at load: the mod makes its own once its data is read.) */
export const classify: Classify = /* @__PURE__ */ makeClassifier();

interface Patterns {
  rating: () => RatingPatterns;
  reply: () => ReplyPatterns;
}

/** Whole-message rules only make sense for short messages. */
const WHOLE_MAX_CHARS = 160;
const NON_LETTERS = /[^a-z\u00df-\u024f\u0400-\u04ff]+/g;

function classifyWith(m: Matchers, patterns: Patterns, text: string, context: ClassifyContext): CaptureVerdict {
  const typed = typedPart(text);
  if (typed.skip !== null) return { kind: "skip", rating: null, frustration: null, language: null, signals: [typed.skip] };
  const lower = matchText(typed.text);
  const signals: string[] = [];
  const fired: CompiledRule[] = [];
  const fire = (r: CompiledRule): void => {
    fired.push(r);
    signals.push(r.signal);
  };

  const scanned = scan(m, lower);
  const rest = scanned.restStart === 0 ? lower : lower.slice(scanned.restStart);

  // Rules anchored at the first word (after fillers): tried only when that word is a key.
  let startCorrection: CompiledRule | undefined;
  // Closing rules ("no, we are done here") matter only when a weak opener is all there is:
  // they are tried then, in order, the first that fits (a hook process builds every regex it
  // tries afresh, so a rule not tried is a regex not built).
  const closings: CompiledRule[] = [];
  const firedFirst = new Set<string>();
  for (const i of scanned.firstRules) {
    const rule = ruleAt(m, i);
    if (!rule || (rule.at === "whole" && rest.length > WHOLE_MAX_CHARS)) continue;
    if (rule.category === "closing") {
      closings.push(rule);
      continue;
    }
    // One start rule per category: the first that fits (strong rules come first).
    if (rule.at === "start" && firedFirst.has(rule.category)) continue;
    if (ruleRegexOn(m, rule, rest)?.test(rest) !== true) continue;
    if (rule.at === "start") firedFirst.add(rule.category);
    if (rule.category === "correction" && rule.weak) startCorrection ??= rule;
    else {
      if (rule.category === "correction") startCorrection ??= rule;
      fire(rule);
    }
  }

  // Keyed rules: tried only near the words that unlock them. A weak one (a statement about
  // the person: "I don't like that one", a bare "Never watch horror") is held until the reply
  // is known (below).
  const weakKeyed: CompiledRule[] = [];
  for (const { rule: i, at } of scanned.anyHits) {
    const rule = ruleAt(m, i);
    if (!rule || !testNear(m, rule, lower, at)) continue;
    if (rule.weak) weakKeyed.push(rule);
    else fire(rule);
  }

  let shape: ReplyShape | null | undefined;
  const getShape = (): ReplyShape | null => {
    if (shape !== undefined) return shape;
    const given = context.previousReply;
    const reply = typeof given === "function" ? given() : given;
    shape = reply ? replyShape(reply, patterns.reply()) : null;
    return shape;
  };
  for (const rule of weakKeyed) {
    // What a person says about themselves (tastes, habits) answers a question the reply asked
    // them ("Do you like horror?" -> "I don't like them", "Never watch it"); otherwise it is
    // about what the reply brought. A rule of the same category that already fired decides
    // anyway, so this one is listed as before. A check ("how about X?") asks about the
    // reply's own proposal: a dislike then is about the reply.
    const s = fired.some((r) => r.category === rule.category) ? null : getShape();
    if (s === null || !s.endsWithQuestion || s.checkQuestion) fire(rule);
    else {
      pushOnce(signals, "context.answer_to_question");
      if (rule.category === "correction" && s.offerQuestion) pushOnce(signals, `unhappy.${rule.lang}.declined_offer`);
    }
  }
  if (startCorrection?.weak && !fired.some((r) => r.category === "correction")) {
    // A weak opener ("no") is a correction only when nothing else explains it.
    const closing = closings.find((r) => ruleRegexOn(m, r, rest)?.test(rest) === true);
    const s = closing || fired.some((r) => r.category === "praise") ? undefined : getShape();
    if (closing) signals.push(closing.signal);
    else if (s === undefined) signals.push("context.positive_words");
    else if (s === null) signals.push("context.no_reply");
    else if (s.endsWithQuestion && !s.checkQuestion) {
      pushOnce(signals, "context.answer_to_question");
      // "No, just the phone number" to "want me to book it?": the offer missed. Not a
      // correction (no row), but the person turned down what the reply proposed.
      if (s.offerQuestion && lower.replace(NON_LETTERS, "").length > 5) pushOnce(signals, `unhappy.${startCorrection.lang}.declined_offer`);
    }
    else fire(startCorrection);
  }

  const found = findRating(patterns.rating, lower, rest, scanned.hasNumberWord);
  let rating: number | null = null;
  if (found && !found.bare) {
    rating = found.value;
    signals.push(found.signal);
  } else if (found) {
    const policy = bareNumberPolicy(getShape());
    signals.push(policy.signal);
    if (policy.counts) rating = found.value;
  }

  if (shouting(typed.text, lower)) signals.push("frustration.caps");
  if (emphaticPunctuation(typed.text)) signals.push("frustration.punctuation");
  const frustration = frustrationScore(signals);

  const has = (category: string): CompiledRule | undefined => fired.find((r) => r.category === category);
  const correction = has("correction");
  const directive = has("directive");
  const praise = has("praise");
  let kind: CaptureVerdict["kind"] = "none";
  let decider: CompiledRule | undefined;
  if (rating !== null) kind = "rating";
  else if (correction) [kind, decider] = ["correction", correction];
  else if (directive) [kind, decider] = ["directive", directive];
  else if (frustration >= 2 && !praise) {
    kind = "correction";
    signals.push("correction.frustration");
  } else if (praise) [kind, decider] = ["praise", praise];
  const tied = decider ? fired.filter((r) => r.category === decider.category).map((r) => r.lang) : [];
  const language = decider && new Set(tied).size === 1 ? decider.lang : mostCommonLanguage(decider ? fired.filter((r) => r.category === decider.category) : fired, lower);
  // The repeat cue: a correction or directive whose words say it was said or done before (a
  // rule marked `repeat`, or a repeat marker: "again?!", "for the third time").
  if ((kind === "correction" || kind === "directive") && fired.some((r) => r.repeat || r.category === "repeat")) return { kind, rating, frustration, language, signals, repeat: true };
  return { kind, rating, frustration, language, signals };
}

function pushOnce(xs: string[], x: string): void {
  if (!xs.includes(x)) xs.push(x);
}

/** Each language's typical letters, read from the index on first use (nothing reads the index at load: the mod embeds its data after loading). */
let lettersByLang: Map<string, string> | undefined;
const LETTERS = (): Map<string, string> => (lettersByLang ??= new Map(Object.entries(loadIndex().letters)));

/** The language with the most fired rules; ties go to the one whose typical letters occur most. */
export function mostCommonLanguage(fired: readonly Pick<CompiledRule, "lang">[], lower: string): string | null {
  if (fired.length === 0) return null;
  const counts = new Map<string, number>();
  for (const r of fired) counts.set(r.lang, (counts.get(r.lang) ?? 0) + 1);
  let best: string[] = [];
  let bestCount = 0;
  for (const [lang, n] of counts) {
    if (n > bestCount) [best, bestCount] = [[lang], n];
    else if (n === bestCount) best.push(lang);
  }
  if (best.length === 1) return best[0] ?? null;
  let winner = best[0] ?? null;
  let winnerScore = -1;
  for (const lang of best) {
    const typical = typicalLetters(lang);
    let score = 0;
    for (let i = 0; i < lower.length; i++) {
      const c = lower.charCodeAt(i);
      if (c < typical.length && typical[c] === 1) score++;
    }
    if (score > winnerScore) [winner, winnerScore] = [lang, score];
  }
  return winner;
}

const typicalByLang = new Map<string, Uint8Array>();

/** A language's typical letters by character code (1: typical), up to the highest of them. */
function typicalLetters(lang: string): Uint8Array {
  let t = typicalByLang.get(lang);
  if (t === undefined) {
    const letters = LETTERS().get(lang) ?? "";
    let max = -1;
    for (let i = 0; i < letters.length; i++) max = Math.max(max, letters.charCodeAt(i));
    t = new Uint8Array(max + 1);
    for (let i = 0; i < letters.length; i++) t[letters.charCodeAt(i)] = 1;
    typicalByLang.set(lang, t);
  }
  return t;
}

/**
 * The verdict read as a detector of "the person is unhappy with the previous reply": an
 * explicit correction, a rating below 7, or dismay at what the reply brought ("that's too
 * bad", an "unhappy.*" signal, which writes no ledger row). This is the regex baseline the
 * judges are scored against.
 *
 * Example: `unhappyWithReply(classify("That's too bad. How about Chinese?"))` -> true.
 */
export function unhappyWithReply(v: CaptureVerdict): boolean {
  if (v.kind === "correction") return true;
  if (v.kind === "rating") return v.rating !== null && v.rating < 7;
  return v.signals.some((s) => s.startsWith("unhappy."));
}
