/**
 * Reads the end of the assistant's previous reply for the two things the classifier needs
 * to know about it: did it end by asking something (and was that a check on its own work,
 * "is that right?", or an offer or plain question, "want me to commit?"), and did it offer
 * numbered choices or ask for a rating. Patterns come from every language's `reply` data.
 *
 * Example: `replyShape("I can do A or B.\n1. A\n2. B\nWhich one?")` ->
 * `{ endsWithQuestion: true, checkQuestion: false, offerQuestion: false, numberedChoices: true,
 *    asksForRating: false }`.
 */
import { LETTER } from "./compile-core.js";
import type { CaptureIndex } from "./index-build.js";
import { loadIndex } from "./index-file.js";
import { CUT_USES, SubjectRegex } from "./prune.js";

export interface ReplyShape {
  /** The reply's last sentence is a question (a "?" with at most a short sign-off after it). */
  endsWithQuestion: boolean;
  /** That question checks the reply's own work or proposal ("is that right?", "how about X?"). */
  checkQuestion: boolean;
  /** That question offers an action ("want me to book it?"), not further help ("anything else?"). */
  offerQuestion: boolean;
  /**
   * The reply offers numbered or lettered choices (two or more list items with a question or
   * a word such as "option"/"choose"), so a bare number picks one.
   */
  numberedChoices: boolean;
  /** The reply asks for a rating ("rate this 1-10"), so a bare number is one. */
  asksForRating: boolean;
}

export interface ReplyPatterns {
  check: SubjectRegex;
  offer: SubjectRegex;
  more: SubjectRegex;
  questionStart: SubjectRegex;
  menu: SubjectRegex;
  ratingRequest: SubjectRegex;
}

/** The reply checks from the index's trees, each cut to the text it runs on at first (see prune.ts). */
export function replyPatterns(trees: CaptureIndex["reply"], cutUses = CUT_USES): ReplyPatterns {
  return {
    check: new SubjectRegex(trees.check, "", cutUses),
    offer: new SubjectRegex(trees.offer, "", cutUses),
    more: new SubjectRegex(trees.more, "", cutUses),
    questionStart: new SubjectRegex(trees.question_start, "", cutUses),
    menu: new SubjectRegex(trees.menu, "", cutUses),
    ratingRequest: new SubjectRegex(trees.rating_request, "", cutUses),
  };
}

/** Whether `re` (cut to `text` at first) matches `text`. */
const testOn = (re: SubjectRegex, text: string): boolean => re.on(text)?.test(text) === true;
const TRAILING_NON_WORD = new RegExp(`[^${LETTER}]+$`);
const LIST_LINE = /(?:^|\n)[ \t]*(?:[-*][ \t]*)?(?:\*\*)?(?:\(?\d{1,2}[.)]|\(\d{1,2}\)|[a-e]\))(?:\*\*)?[ \t]+\S/g;
const INLINE_CHOICE = /(?:^|\s)\(?(?:1|a)\)\s[\s\S]*\s\(?(?:2|b)\)\s/;

/** How far back from the end of the reply to look, in characters. */
export const REPLY_TAIL_CHARS = 1500;
const QUESTION_TAIL = 120;

/** The shape of `reply`; `patterns` default to fresh ones (a caller that reads many replies passes its own, built once). */
export function replyShape(reply: string, patterns: ReplyPatterns = replyPatterns(loadIndex().reply)): ReplyShape {
  const { check, offer, more, questionStart, menu, ratingRequest } = patterns;
  const tail = reply.slice(-REPLY_TAIL_CHARS).toLowerCase().replace(/[\u2018\u2019]/g, "'").trimEnd();
  const q = tail.lastIndexOf("?");
  let question: string | null = null;
  if (q >= 0 && tail.length - q <= QUESTION_TAIL && !/[.!]\s*\n\s*\n/.test(tail.slice(q))) {
    const before = tail.slice(0, q);
    question = before.slice(lastBoundary(before) + 1);
  } else {
    // Chat replies often drop the "?": "have you seen Dunkirk" still asks.
    const body = tail.replace(TRAILING_NON_WORD, "");
    const last = body.slice(lastBoundary(body) + 1);
    if (testOn(questionStart, last)) question = last;
  }
  const endsWithQuestion = question !== null;
  const checkQuestion = question !== null && testOn(check, question);
  const offerQuestion = question !== null && !checkQuestion && testOn(offer, question) && !testOn(more, question);
  LIST_LINE.lastIndex = 0;
  let listLines = 0;
  while (LIST_LINE.exec(tail) !== null && listLines < 2) listLines++;
  const menuWords = testOn(menu, tail);
  const numberedChoices = (listLines >= 2 && (endsWithQuestion || menuWords)) || (menuWords && INLINE_CHOICE.test(tail));
  const tail400 = tail.slice(-400);
  const asksForRating = testOn(ratingRequest, tail400);
  return { endsWithQuestion, checkQuestion, offerQuestion, numberedChoices, asksForRating };
}

/** Index of the last sentence boundary in `text` (-1 when none). */
function lastBoundary(text: string): number {
  let best = -1;
  for (const mark of [". ", "! ", "? ", "\n", ".\"", "!\"", "?\""]) {
    const at = text.lastIndexOf(mark);
    if (at >= 0) best = Math.max(best, at + mark.length - 1);
  }
  return best;
}
