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
import { isLetter, letterWord } from "./letters.js";
import { announcedAlone, letterGroupSpans, madeInOtherTongue, madeToken } from "./made-values.js";
import { otherScriptLine, proseSecret } from "./witness-families.js";

const KIND = "prose-token";
const ID_WORD = /\b(?:build|commit|run|job|ticket|issue|id|request|trace|order|version|release|tag|branch|sha|hash|session|pipeline|invoice|case|ref|device|serial)[ \t:#]*$/i;
/** A program's, a path's or a markup's marks: a line holding one is no sentence. */
const CODE_MARKS = /[={}<>$`\\|]|\/[A-Za-z_]|\w\.\w+\(|::|->|=>|https?:/;

/** Whether `line` reads as a sentence: no program's marks, and words of letters for half its words and four or more, or mostly letters of a script other than Latin (one that writes no spaces, as Tibetan, has few words). */
function sentence(line: string, token: string): boolean {
  if (line.length < 30 || CODE_MARKS.test(line)) return false;
  let words = 0;
  let all = 0;
  for (const t of line.split(/\s+/)) {
    if (t === "") continue;
    all++;
    const w = t.replace(/[,;:!?).…]+$|^[("«“„]/g, "");
    // A word of letters; past ASCII, one that starts with a letter (Tibetan's words end in a tsheg, its sentences in a shad).
    if (letterWord(w) || (w.charCodeAt(0) > 0x7f && isLetter(w[0]!))) words++;
  }
  // Four words, or a script that writes no spaces between its words (Tibetan's tsheg, Thai).
  // The token is judged, not read as the sentence's Latin (the twelfth-set pass: a Tibetan line holding one).
  return (words >= all / 2 && words >= 4) || otherScriptLine(line.replace(token, " "));
}

/**
 * The generated passwords standing alone in `text`'s sentences, as spans. The candidates are found
 * first by one pattern (a letter beside a digit), their edges by hand (ten to 64 letters and digits
 * between spaces, a sentence's marks after), and only a candidate of proseSecret's shape has its
 * line read: on the hook path the code runs interpreted, and reading every line of a long reply
 * cost some 35 M instructions.
 */
export function proseTokenSpans(text: string): Span[] {
  const out: Span[] = [];
  const lines = new Map<number, number>();
  const alnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  let last = -1;
  // One scan for a letter beside a digit (rare in prose); each such token's edges read by hand.
  for (const m of text.matchAll(/[A-Za-z]\d|\d[A-Za-z]/g)) {
    if (m.index < last) continue;
    let a = m.index;
    while (a > 0 && alnum(text.charCodeAt(a - 1))) a--;
    let z = m.index + 2;
    while (z < text.length && alnum(text.charCodeAt(z))) z++;
    last = z;
    if (z - a < 10 || z - a > 64) continue;
    // Between spaces (or a sentence's marks after it, an opening parenthesis before it).
    const before = a === 0 ? " " : text[a - 1]!;
    const after = z === text.length ? " " : text[z]!;
    if (!" \t\n(".includes(before) || !" \t\r\n,;:!?).،۔。、，।།".includes(after)) continue; // a sentence's marks, other scripts' too
    // After an id's word (`build <id>`, `ticket …`, `commit …`) a run names a thing, as keptByPlace10 keeps it.
    if (ID_WORD.test(text.slice(Math.max(0, a - 16), a))) continue;
    const v = text.slice(a, z);
    const la = text.lastIndexOf("\n", a) + 1;
    const nl = text.indexOf("\n", a);
    const line = text.slice(la, nl < 0 ? text.length : nl);
    // Or a generator's token that proseSecret refuses for its case or runs, in a sentence not in English (made-values.ts).
    if (!(proseSecret(v, otherScriptLine(line)) || madeInOtherTongue(v, line)) || !sentence(line, v)) {
      // Or alone on its line after a line announcing it (made-values.ts).
      if (!announcedAlone(text, a, z, (x) => proseSecret(x, false) || madeToken(x))) continue;
    }
    // One token a line: a line listing several such runs is an inventory of names or ids, not a sentence giving one.
    lines.set(la, (lines.get(la) ?? 0) + 1);
    out.push({ start: a, end: z, rank: 0, kind: KIND });
  }
  const one = out.filter((sp) => lines.get(text.lastIndexOf("\n", sp.start) + 1) === 1);
  // Passphrases of random letter groups, wherever they stand (made-values.ts).
  for (const [start, end] of letterGroupSpans(text)) one.push({ start, end, rank: 0, kind: KIND });
  return one;
}
