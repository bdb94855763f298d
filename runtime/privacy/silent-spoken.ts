/**
 * A value read out, dictated or transcribed with separators (docs/privacy.md "A twelfth held-out
 * set"): what no rule sees whole because a blank, a comma, a dot, a dash or a line stands between
 * its characters.
 * - single characters, eight or more, one separator throughout (`k 4 w …`, `T, 7, q, …`,
 *   `m. 3. x. …`, `Q-8-R-…`, one a line);
 * - dictation words before single characters (`capital J, 4, small w, …`, `uppercase P lowercase
 *   q 7 …`), six items or more, two of them with a case word;
 * - groups of three to five letters and digits, four groups or more, each with a digit
 *   (four groups of four random characters, spaced);
 * - sixteen pairs of hex digits or more (a 128-bit key read off a label);
 * - short chunks joined by spoken separators, three or more (`zk slash 41 slash MRT`).
 * The characters joined must read as made, not as an id read out: letters and digits mixed, two
 * letters or more beyond hex (a commit's or a serial's hex, a tracking number's digits, an order
 * number and a MAC address are kept), or both cases.
 *
 * Example: `findSpoken("it's <single random characters, spaced> and")` -> the run's span;
 * `findSpoken("serial is A-6-A-7-3-0-4-B-F-D")` -> none.
 */

/** Whether the joined characters read as made (see the file's comment). */
export function madeChars(v: string): boolean {
  if (v.length < 8) return false;
  const digits = (v.match(/\d/g) ?? []).length;
  const beyondHex = (v.match(/[g-zG-Z]/g) ?? []).length;
  const letters = (v.match(/[A-Za-z]/g) ?? []).length;
  if (digits === 0 || letters < 3) return false;
  return (digits >= 2 && beyondHex >= 2 && letters * 4 >= v.length) || (/[a-z]/.test(v) && /[A-Z]/.test(v) && beyondHex >= 3);
}

const CASE_WORD = "(?:capital|small|upper(?:case)?|lower(?:case)?|big|cap)";
const ITEM = `(?:${CASE_WORD}\\s+[A-Za-z]|[A-Za-z0-9])`;
const DICTATED = new RegExp(`(?<![\\w-])${ITEM}(?:(?:,\\s*|\\s+)${ITEM}){5,}(?![\\w-])`, "gi");
const SINGLES = [/(?<![\w.-])[A-Za-z0-9](?: [A-Za-z0-9]){7,}(?![\w-])/g, /(?<![\w,])[A-Za-z0-9](?:, [A-Za-z0-9]){7,}(?![\w])/g, /(?<![\w.])[A-Za-z0-9]\.(?: [A-Za-z0-9]\.){7,}/g, /(?<![\w-])[A-Za-z0-9](?:-[A-Za-z0-9]){7,}(?![\w-])/g, /(?<=^|\n)[A-Za-z0-9](?:\n[A-Za-z0-9]){9,}(?=\n|$)/g];
/** Sixteen pairs of hex digits or more, spaced: a 128-bit key read out (a MAC address has six, an EUI-64 eight; a fingerprint is printed with colons). */
const HEX_PAIRS = /(?<![\w:-])[0-9a-f]{2}(?: [0-9a-f]{2}){15,}(?![\w:-])|(?<![\w:-])[0-9A-F]{2}(?: [0-9A-F]{2}){15,}(?![\w:-])/g;
const GROUPS = /(?<![\w-])[A-Za-z0-9]{3,5}(?:[ -][A-Za-z0-9]{3,5}){3,}(?![\w-])/g;
const SPOKEN_SEPARATORS = /(?<![\w-])[A-Za-z0-9]{1,8}(?: (?:slash|dash|hyphen|dot|underscore|colon) [A-Za-z0-9]{1,8}){3,}(?![\w-])/gi;

/** Every span the file's comment describes. */
export function findSpoken(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const take = (m: RegExpMatchArray, joined: string): void => {
    if (madeChars(joined)) found.push([m.index!, m.index! + m[0].length]);
  };
  for (const re of SINGLES) for (const m of text.matchAll(re)) take(m, m[0].replace(/[\s,.-]/g, ""));
  if (/capital|small|upper|lower/i.test(text)) {
    for (const m of text.matchAll(DICTATED)) {
      const cased = (m[0].match(new RegExp(CASE_WORD, "gi")) ?? []).length;
      if (cased < 2) continue;
      const joined = m[0].replace(new RegExp(`${CASE_WORD}\\s+([A-Za-z])`, "gi"), (_w, c: string) => c).replace(/[\s,]/g, "");
      take(m, joined);
    }
  }
  for (const m of text.matchAll(GROUPS)) {
    const groups = m[0].split(/[ -]/);
    if (groups.every((g) => /\d/.test(g) && /[A-Za-z]/.test(g))) take(m, groups.join(""));
  }
  for (const m of text.matchAll(HEX_PAIRS)) if (/[a-fA-F]/.test(m[0]) && /\d/.test(m[0])) found.push([m.index, m.index + m[0].length]);
  if (/slash|dash|hyphen|dot|underscore|colon/i.test(text)) for (const m of text.matchAll(SPOKEN_SEPARATORS)) take(m, m[0].replace(/ (?:slash|dash|hyphen|dot|underscore|colon) /gi, ""));
  return found;
}
