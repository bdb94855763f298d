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
 * Example: `findRating("rating: 7/10, close", "rating: 7/10, close", false)` -> `{ value: 7, signal: "rating.scale", bare: false }`.
 */
import { loadIndex } from "./index-file.js";
import { SubjectRegex } from "./prune.js";

interface RatingPatterns {
  AT_START: SubjectRegex;
  LEAD_ONLY: SubjectRegex;
  AT_END: SubjectRegex;
  BARE: SubjectRegex;
  COUNT_BEFORE: SubjectRegex;
}
let built: RatingPatterns | null = null;

/**
 * Made on first use from the index's trees: a prompt with no digit and no number word never
 * needs them. Each is cut to the text it runs on at first (see prune.ts): the five whole
 * regexes (about 8,000 characters) cost a fresh process some 10 ms to build.
 */
function patterns(): RatingPatterns {
  if (built) return built;
  const r = loadIndex().rating;
  built = {
    AT_START: new SubjectRegex(r.at_start, ""),
    LEAD_ONLY: new SubjectRegex(r.lead_only, ""),
    AT_END: new SubjectRegex(r.at_end, ""),
    BARE: new SubjectRegex(r.bare, ""),
    COUNT_BEFORE: new SubjectRegex(r.count_before, ""),
  };
  return built;
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

/** Finds an explicit rating in lower-cased text, or null. Cheap exits when no digit or number word can be present. */
/** A rating opens the message or ends it: only its head and tail are read. */
const HEAD_CHARS = 160;
const DIGIT = /[0-9]/;
const TAIL_CHARS = 60;

export function findRating(lower: string, rest: string, hasNumberWord: boolean): FoundRating | null {
  const head = rest.length > HEAD_CHARS ? rest.slice(0, HEAD_CHARS) : rest;
  const tailStart = Math.max(0, lower.length - TAIL_CHARS);
  const tail = lower.slice(tailStart);
  if (!hasNumberWord && !DIGIT.test(head) && !DIGIT.test(tail)) return null;
  const { AT_START, LEAD_ONLY, AT_END, BARE, COUNT_BEFORE } = patterns();
  let m = execOn(AT_START, head);
  if (m) {
    const v = valueOf(m);
    if (v !== null) return { value: v, signal: "rating.scale", bare: false };
  }
  m = execOn(LEAD_ONLY, head);
  if (m) {
    const v = valueOf(m);
    if (v !== null) return { value: v, signal: "rating.lead", bare: false };
  }
  m = execOn(AT_END, tail);
  if (m && (tailStart === 0 || m.index > 0) && execOn(COUNT_BEFORE, lower.slice(Math.max(0, tailStart + m.index - 24), tailStart + m.index)) === null) {
    const v = valueOf(m);
    if (v !== null) return { value: v, signal: "rating.end", bare: false };
  }
  if (rest.length <= 24) {
    m = execOn(BARE, rest.trim());
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
