/**
 * A generated password standing alone in a sentence (issue 34, the eleventh held-out set: chats,
 * notes and transcripts in languages the prose rules have no words for): a line that reads as
 * prose, words of letters in any script and no program's marks, holding one token as a password
 * generator makes one (witness-families.ts `proseSecret`: letters and digits interleaved, both
 * cases and two digits, or one case and three digits in a line of another script; never hex).
 * Told by the sentence's shape and the token's, not by a language's word for password.
 *
 * Example: `proseTokenSpans("[09:14] xuan: La contraseña ye HsSZIoLWcxDu04, nun la compartas.")`
 * -> one span over `HsSZIoLWcxDu04`.
 */
import type { Span } from "./spans.js";
import { proseSecret } from "./witness-families.js";

const KIND = "prose-token";
/** A program's, a path's or a markup's marks: a line holding one is no sentence. */
const CODE_MARKS = /[={}<>$`\\|]|\/[A-Za-z_]|\w\.\w+\(|::|->|=>|https?:/;

/** Whether `text` may hold such a token: a run of letters and digits of ten or more, holding both. */
export function mayHoldProseToken(text: string): boolean {
  return /[A-Za-z]\d|\d[A-Za-z]/.test(text) && /[A-Za-z0-9]{10}/.test(text);
}

/** The generated passwords standing alone in `text`'s sentences, as spans. */
export function proseTokenSpans(text: string): Span[] {
  if (!mayHoldProseToken(text)) return [];
  const out: Span[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    const start = at;
    at += line.length + 1;
    if (line.length < 30 || CODE_MARKS.test(line)) continue;
    // Words between spaces, a sentence's marks after them dropped; a token in quotes is a name or an example, not given.
    const tokens: Array<{ v: string; at: number }> = [];
    for (const t of line.matchAll(/\S+/g)) {
      const lead = t[0].startsWith("(") ? 1 : 0;
      tokens.push({ v: t[0].slice(lead).replace(/[,;:!?).]+$/, ""), at: t.index + lead });
    }
    const words = tokens.filter((t) => /^[\p{L}\p{M}\p{Po}-]{2,}$/u.test(t.v)).length;
    // Four words, or a script that writes no spaces between its words (Tibetan's tsheg, Thai).
    if ((words < 4 && (line.match(/[^\u0000-\u024f\s\d\p{P}]/gu) ?? []).length < 15) || words < tokens.length / 2) continue;
    const nonLatin = /[^\u0000-\u024f\s\d\p{P}]/u.test(line);
    const found = tokens.filter((t) => t.v.length >= 10 && t.v.length <= 64 && /^[A-Za-z0-9]+$/.test(t.v) && proseSecret(t.v, nonLatin));
    // One token: a line listing several such runs is an inventory of names or ids, not a sentence giving one.
    if (found.length !== 1) continue;
    const t = found[0]!;
    out.push({ start: start + t.at, end: start + t.at + t.v.length, rank: 0, kind: KIND });
  }
  return out;
}
