/**
 * Explicit numeric ratings, from every language's numbers, scale phrases ("out of ten",
 * "von 10", "из 10"), rating words ("rating:", "arvosana") and count nouns (the regex
 * sources are built into `lang/index.json` by `index-build.ts`).
 *
 * What counts (1-10, halves and tenths kept):
 * - a number with a scale at the start of the message, optionally after a rating word:
 *   "8/10", "Rating: 7/10 - nice", "seven out of ten", "acht von zehn";
 * - a rating word or a give/rate verb and a number: "rating 3", "I'd give it a 9";
 * - a number with a scale that ends the message: "works now, 9/10";
 * - a bare number that is the whole message ("7", "Eight.") only when the reply it answers
 *   asked for a rating (see `bareNumberPolicy`).
 * What does not: "1 go", "1 commit and push", "2 tickets for later today", "3 files
 * changed", "1. Fix the bug", "10:30", "2.1.9", "step 3/10", "3/10 tests pass", "5/10/2024".
 *
 * Example: `findRating(() => ratingPatterns(loadIndex().rating), "rating: 7/10, close", "rating: 7/10, close", false)`
 * -> `{ value: 7, signal: "rating.scale", bare: false }`.
 */
import type { CaptureIndex } from "./index-build.js";
import { loadIndex } from "./index-file.js";
import { CUT_USES, SubjectRegex } from "./prune.js";

export interface RatingPatterns {
  atStart: SubjectRegex;
  leadOnly: SubjectRegex;
  atEnd: SubjectRegex;
  bare: SubjectRegex;
  countBefore: SubjectRegex;
}

/** The rating checks from the index's trees, each cut to the text it runs on at first (see prune.ts). */
export function ratingPatterns(trees: CaptureIndex["rating"], cutUses = CUT_USES): RatingPatterns {
  return {
    atStart: new SubjectRegex(trees.at_start, "", cutUses),
    leadOnly: new SubjectRegex(trees.lead_only, "", cutUses),
    atEnd: new SubjectRegex(trees.at_end, "", cutUses),
    bare: new SubjectRegex(trees.bare, "", cutUses),
    countBefore: new SubjectRegex(trees.count_before, "", cutUses),
  };
}

/** `re` run on `text` (cut to it at first); null when it does not match. */
const execOn = (re: SubjectRegex, text: string): RegExpExecArray | null => re.on(text)?.exec(text) ?? null;

export interface FoundRating {
  value: number;
  /** rating.scale, rating.lead, rating.end or rating.bare */
  signal: string;
  /** True for a bare number: it counts only under `bareNumberPolicy`. */
  bare: boolean;
}

function valueOf(m: RegExpExecArray): number | null {
  const digits = m[1];
  const word = m[2];
  const v = digits !== undefined ? Number(digits.replace(",", ".")) : word !== undefined ? (loadIndex().numbers[word] ?? NaN) : NaN;
  return Number.isFinite(v) && v >= 1 && v <= 10 ? v : null;
}

/** A rating opens the message or ends it: only its head and tail are read. */
const HEAD_CHARS = 160;
const DIGIT = /[0-9]/;
const TAIL_CHARS = 60;

/**
 * Finds an explicit rating in lower-cased text (`rest`: from its first word that is no
 * filler), or null. `patterns` is called only when a digit or a number word is present: a
 * prompt with neither never reads the index's rating trees.
 */
export function findRating(patterns: () => RatingPatterns, lower: string, rest: string, hasNumberWord: boolean): FoundRating | null {
  const head = rest.length > HEAD_CHARS ? rest.slice(0, HEAD_CHARS) : rest;
  const tailStart = Math.max(0, lower.length - TAIL_CHARS);
  const tail = lower.slice(tailStart);
  if (!hasNumberWord && !DIGIT.test(head) && !DIGIT.test(tail)) return null;
  const { atStart, leadOnly, atEnd, bare, countBefore } = patterns();
  let m = execOn(atStart, head);
  if (m) {
    const v = valueOf(m);
    if (v !== null) return { value: v, signal: "rating.scale", bare: false };
  }
  m = execOn(leadOnly, head);
  if (m) {
    const v = valueOf(m);
    if (v !== null) return { value: v, signal: "rating.lead", bare: false };
  }
  m = execOn(atEnd, tail);
  if (m && (tailStart === 0 || m.index > 0) && execOn(countBefore, lower.slice(Math.max(0, tailStart + m.index - 24), tailStart + m.index)) === null) {
    const v = valueOf(m);
    if (v !== null) return { value: v, signal: "rating.end", bare: false };
  }
  if (rest.length <= 24) {
    m = execOn(bare, rest.trim());
    if (m) {
      const v = valueOf(m);
      if (v !== null) return { value: v, signal: "rating.bare", bare: true };
    }
  }
  return null;
}

/**
 * The policy for a bare number ("7", "Eight."): it is a rating only when the reply it
 * answers asked for one ("rate this 1-10", "how would you score it?"). Anything else is not
 * read as a rating: after numbered choices it is a pick ("rating.menu_pick"), after a
 * question an answer ("rating.answer_to_question"), otherwise it lacks rating context
 * ("rating.bare_no_context"), and with no reply known it cannot be checked
 * ("rating.bare_unverified"). On real sessions bare numbers were menu picks (the ancestor's
 * tracker: "menu picks read as ratings"), so precision wins: "8/10" always counts.
 */
export function bareNumberPolicy(shape: { endsWithQuestion: boolean; numberedChoices: boolean; asksForRating: boolean } | null): {
  counts: boolean;
  signal: string;
} {
  if (shape === null) return { counts: false, signal: "rating.bare_unverified" };
  if (shape.asksForRating) return { counts: true, signal: "rating.bare_after_request" };
  if (shape.numberedChoices) return { counts: false, signal: "rating.menu_pick" };
  if (shape.endsWithQuestion) return { counts: false, signal: "rating.answer_to_question" };
  return { counts: false, signal: "rating.bare_no_context" };
}
