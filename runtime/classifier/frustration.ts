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

/** Two scratch views of UTF-16 code units (typed-array reads are cheaper than charCodeAt). */
const scratch: Array<{ buffer: Buffer; view: Uint16Array }> = [];
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const SCRATCH_MAX_CHARS = 1 << 16;

function codes(text: string, k: number): Uint16Array {
  if (!LITTLE_ENDIAN) return Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
  if (text.length > SCRATCH_MAX_CHARS) {
    const b = Buffer.from(text, "utf16le");
    return new Uint16Array(b.buffer, b.byteOffset, text.length);
  }
  let s = scratch[k];
  if (s === undefined || s.view.length < text.length) {
    let size = 1024;
    while (size < text.length) size *= 2;
    const buffer = Buffer.alloc(size * 2);
    s = { buffer, view: new Uint16Array(buffer.buffer, buffer.byteOffset, size) };
    scratch[k] = s;
  }
  s.buffer.write(text, 0, "utf16le");
  return s.view;
}

/** A letter for the capitals count: Latin (with Latin-1 and Latin Extended) and Cyrillic, lower-cased. */
function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 0xdf && c <= 0x24f && c !== 0xf7) || (c >= 0x430 && c <= 0x45f);
}

/**
 * True when most letters are capitals. `lower` is `text.toLowerCase()`: a character that
 * changed under lower-casing was a capital, which works for every cased script. `letters`,
 * when the caller has counted them (the letters of `lower`), lets the count stop as soon as
 * too many small letters are seen (the verdict is the same).
 */
export function shouting(text: string, lower: string, letters = -1): boolean {
  if (text.length !== lower.length) return false;
  if (letters >= 0) {
    if (letters < CAPS_MIN_LETTERS || text === lower) return false;
    // The most small letters that still leave enough capitals.
    let most = Math.floor(letters * (1 - CAPS_MIN_SHARE));
    while (most > 0 && (letters - most) / letters < CAPS_MIN_SHARE) most--;
    while ((letters - most - 1) / letters >= CAPS_MIN_SHARE) most++;
    const n = lower.length;
    const t = codes(text, 0);
    const l = codes(lower, 1);
    let small = 0;
    for (let i = 0; i < n; i++) {
      const c = l[i] as number;
      if (t[i] === c && isLetter(c) && ++small > most) return false;
    }
    return shoutingCounts(letters, letters - small);
  }
  let count = 0;
  let upper = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (!isLetter(c)) continue;
    count++;
    if (text.charCodeAt(i) !== c) upper++;
  }
  return shoutingCounts(count, upper);
}

/** The shouting verdict from counts: at least CAPS_MIN_LETTERS letters, CAPS_MIN_SHARE of them capitals. */
export function shoutingCounts(letters: number, capitals: number): boolean {
  return letters >= CAPS_MIN_LETTERS && capitals / letters >= CAPS_MIN_SHARE;
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
