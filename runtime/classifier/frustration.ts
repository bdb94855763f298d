/**
 * Frustration 0-3 from countable signals. Five families, each adding at most one point:
 * profanity or insults, exasperation ("come on", "i give up"), repeat markers ("again?!",
 * "for the third time", "still not"), shouting (at least 70% of at least 8 letters are
 * capitals) and emphatic punctuation ("!!", "?!"). The sum is capped at 3. The word
 * families come from the language data; this file counts caps and punctuation.
 *
 * Example: `shouting("WHY IS THIS STILL BROKEN")` -> true; `frustrationScore(["frustration.caps",
 * "frustration.repeat.en"])` -> 2.
 */
import type { Frustration } from "./verdict.js";

export const CAPS_MIN_LETTERS = 8;
export const CAPS_MIN_SHARE = 0.7;

/**
 * True when most letters are capitals. `lower` is `text.toLowerCase()`: a character that
 * changed under lower-casing was a capital, which works for every cased script.
 */
export function shouting(text: string, lower: string): boolean {
  if (text.length !== lower.length) return false;
  let letters = 0;
  let upper = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    // Latin (with Latin-1 and Latin Extended) and Cyrillic, lower-cased.
    const isLetter = (c >= 97 && c <= 122) || (c >= 0xdf && c <= 0x24f && c !== 0xf7) || (c >= 0x430 && c <= 0x45f);
    if (!isLetter) continue;
    letters++;
    if (text.charCodeAt(i) !== c) upper++;
  }
  return letters >= CAPS_MIN_LETTERS && upper / letters >= CAPS_MIN_SHARE;
}

const EMPHATIC = /!{2,}|\?!|!\?|\?{3,}/;

export function emphaticPunctuation(text: string): boolean {
  return EMPHATIC.test(text);
}

/** Counts the families present among the fired signal names ("frustration.<family>[.<lang>...]"). */
export function frustrationScore(signals: readonly string[]): Frustration {
  const families = new Set<string>();
  for (const s of signals) {
    if (s.startsWith("frustration.")) families.add(s.split(".")[1] ?? s);
    else if (s.startsWith("profanity.") || s.startsWith("exasperation.") || s.startsWith("repeat.")) families.add(s.split(".")[0] ?? s);
  }
  return Math.min(3, families.size) as Frustration;
}
