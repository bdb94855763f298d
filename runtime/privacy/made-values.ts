/**
 * The thirteenth pass's general classes (docs/privacy.md "Thirteenth pass: general rules"): values
 * told by how a generator makes them, where no word names them and the rules' shapes refuse them.
 * - tongues: a token of letters and digits whose letters are a generator's (few vowels: random
 *   letters hold one in five, words of most languages two in five), or a key's hex, in a sentence
 *   of a language other than English (English sentences are the word lists' to read), which
 *   proseSecret refuses for its case, its runs or its hex (`qx7mlw2prz9k`, `Sfazgdqj0629`).
 *   carried-prose.ts asks it.
 * - codes: a code of equal groups joined by dashes, as recovery keys, product keys, app passwords
 *   and backup codes are printed: four groups or more of four to six letters or digits, one case,
 *   digits and letters mixed (or, for digits alone, six groups or more; letters alone, few vowels);
 *   or three lines or more each one such code of two groups or more. The context scan asks it
 *   (context-positions.ts), behind `mayHaveCode`, a walk over the text's dashes.
 * - announced: a generator's token alone on its line, after a line of a few words in any language
 *   that ends with a colon and names no thing (an id, a commit, a host, a user). carried-prose.ts asks it.
 * - letters: a passphrase of random letter groups joined by dashes (or by blanks inside quotes) wherever
 *   it stands, three to six groups of three to eight lower-case letters, a vowel in five letters
 *   or fewer over all and a group with four consonants in a row: no language writes such words
 *   (own-families-10.ts's random-passphrase reads them after a quote or a colon only). carried-prose.ts asks it.
 * None names a tool, a provider or a language's word for a secret.
 *
 * Example: `madeToken("qx7mlw2prz9k")` -> true; `madeToken("Berlin2024x")` -> false;
 * `codeSpans("key: 7KQ2P-9XZPM-4WR2T-BY8HQ")` -> [[5, 28]].
 */
import { familyOn } from "./context-families.js";
import { letterWord } from "./letters.js";

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isAlnum = (c: number): boolean => isDigit(c) || isUpper(c) || isLower(c);
const VOWELS = "aeiouyAEIOUY";

/** The share of vowels among `s`'s letters (0 when it has none). */
function vowelShare(s: string): number {
  let letters = 0;
  let vowels = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isUpper(c) || isLower(c)) {
      letters++;
      if (VOWELS.includes(s[i]!)) vowels++;
    }
  }
  return letters === 0 ? 0 : vowels / letters;
}

/**
 * A token a generator made, by its letters: 10 to 64 letters and digits, six letters or more with
 * a vowel share of a quarter or less, two digits or more, not hex (a hash, an id). `iPhone15Pro`,
 * `Berlin2024x`, `abc123def456` are words' shares of vowels; `sha256sums12` has a third. Of one
 * case, 24 characters at most: longer runs of one case are addresses and content ids (bech32's
 * `npub1…`, an onion host, a store path's hash), published, not typed.
 */
export function madeToken(v: string): boolean {
  const n = v.length;
  if (n < 10 || n > 64) return false;
  let digits = 0;
  let letters = 0;
  let hex = true;
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i);
    if (!isAlnum(c)) return false;
    if (isDigit(c)) digits++;
    else {
      letters++;
      if (!((c >= 97 && c <= 102) || (c >= 65 && c <= 70))) hex = false;
    }
  }
  if (n > 24 && (v === v.toLowerCase() || v === v.toUpperCase())) return false;
  return !hex && digits >= 2 && letters >= 6 && vowelShare(v) <= 0.25;
}

/** English's commonest short words: a sentence holding two of them is English, the word lists' to read. */
// Words that are words of other languages too ("a", "i", "no", "me", "in", "so", "do") are not among them.
const ENGLISH = new Set(("the and is are was were be been to of for with this that it its you your please use from on at not can will here there " +
  "we us our my she they their has have by or if then into but just out about what when which all one new now only also after " +
  "before over more yes get see follow latest").split(" "));

/** Whether `line` holds two of English's commonest words (then it is read as English). */
export function englishLine(line: string): boolean {
  let n = 0;
  for (const w of line.toLowerCase().split(/[^a-z']+/)) if (ENGLISH.has(w) && ++n >= 2) return true;
  return false;
}

/**
 * A key's hex: 32 to 64 hex digits with letters and digits, not 40 (a git object's id, which a
 * sentence names far more often than a key).
 */
export function hexKey(v: string): boolean {
  return v.length >= 32 && v.length <= 64 && v.length !== 40 && /^[0-9a-f]+$|^[0-9A-F]+$/.test(v) && /\d/.test(v) && /[a-fA-F]/.test(v);
}

/** The six words on each side of `v` in `line`. */
function near(v: string, line: string): string {
  const at = line.indexOf(v);
  const before = line.slice(0, Math.max(0, at)).split(/\s+/).filter(Boolean).slice(-6);
  const after = line.slice(at + v.length).split(/\s+/).filter(Boolean).slice(0, 6);
  return [...before, ...after].join(" ");
}

/**
 * tongues: `v`, a token of a sentence `line`, is a generator's (or a key's hex) in a language other
 * than English, told by the six words on each side of it (a line may join several sentences: a
 * transcript's lines folded into one, a message after an English one).
 */
export function madeInOtherTongue(v: string, line: string): boolean {
  return familyOn("tongues") && (madeToken(v) || hexKey(v)) && !englishLine(near(v, line));
}

/** The groups of a dash-joined run `s` when they are a code's (equal lengths of 4 to 6, one case), else null. */
function codeGroups(s: string, minGroups: number): string[] | null {
  const gs = s.split("-");
  if (gs.length < minGroups || gs.length > 10) return null;
  const len = gs[0]!.length;
  if (len < 4 || len > 6 || gs.some((g) => g.length !== len)) return null;
  let upper = false;
  let lower = false;
  let digitGroups = 0;
  let letterGroups = 0;
  for (const g of gs) {
    let d = false;
    let l = false;
    for (let i = 0; i < g.length; i++) {
      const c = g.charCodeAt(i);
      if (isDigit(c)) d = true;
      else if (isUpper(c)) (upper = true), (l = true);
      else if (isLower(c)) (lower = true), (l = true);
      else return null;
    }
    if (d) digitGroups++;
    if (l) letterGroups++;
  }
  if (upper && lower) return null;
  // Five groups of five capitals: a product key's format, whose volume-licence keys are published.
  if (gs.length === 5 && len === 5 && upper) return null;
  // Digits alone: a recovery key's six groups or more (a card's or a phone's number is fewer).
  if (letterGroups === 0) return gs.length >= 6 && new Set(gs).size === gs.length ? gs : null;
  // Letters alone: a generator's (few vowels), not a slug of words.
  if (digitGroups === 0) return gs.length >= 4 && vowelShare(s) <= 0.25 ? gs : null;
  return digitGroups * 2 >= gs.length && letterGroups * 2 >= gs.length ? gs : null;
}

/**
 * Whether the text may hold a code: a group of four to six letters or digits standing alone before
 * a dash (no letter, digit, dash, dot, "_", "/" or "@" before it: a UUID's inner groups fail), the
 * same length of them after it, with a digit in the two or no vowel, then a dash or a blank or
 * the line's end (`read-only` and `long-term` fail at their first dash).
 */
export function mayHaveCode(text: string): boolean {
  if (!familyOn("codes")) return false;
  for (let at = text.indexOf("-", 4); at >= 0; at = text.indexOf("-", at + 1)) {
    let b = at;
    while (b > 0 && at - b <= 6 && isAlnum(text.charCodeAt(b - 1))) b--;
    const len = at - b;
    if (len < 4 || len > 6 || (b > 0 && (isAlnum(text.charCodeAt(b - 1)) || "-_./@".includes(text[b - 1]!)))) continue;
    let e = at + 1;
    while (e < text.length && e - at <= 7 && isAlnum(text.charCodeAt(e))) e++;
    if (e - at - 1 !== len) continue;
    const c = text.charCodeAt(e);
    if (!(c === 45 || c === 10 || c === 13 || c === 32 || c === 9 || Number.isNaN(c))) continue;
    const two = text.slice(b, e);
    if (/\d/.test(two) || vowelShare(two) === 0) return true;
  }
  return false;
}

/** The dash-joined runs of `line` starting at `offset`, as [start, end, run], bounded by no letter, digit, "_", "-", "." or "/". */
function runs(line: string, offset: number): Array<[number, number, string]> {
  const out: Array<[number, number, string]> = [];
  const edge = (c: number): boolean => Number.isNaN(c) || !(isAlnum(c) || c === 45 || c === 95 || c === 46 || c === 47 || c === 64);
  for (let i = 0; i < line.length; i++) {
    if (!isAlnum(line.charCodeAt(i)) || !edge(line.charCodeAt(i - 1))) continue;
    let e = i;
    while (e < line.length && (isAlnum(line.charCodeAt(e)) || line.charCodeAt(e) === 45)) e++;
    // A sentence's full stop may follow a code; a path's or a name's dot may not.
    const after = line.charCodeAt(e);
    if ((after === 46 && isAlnum(line.charCodeAt(e + 1))) || !edge(after === 46 ? NaN : after)) {
      i = e;
      continue;
    }
    if (line.includes("-", i) && line.indexOf("-", i) < e) out.push([offset + i, offset + e, line.slice(i, e)]);
    i = e;
  }
  return out;
}

/** codes: the spans of `text` that are codes (a line's code of four groups or more; a block of three lines of codes). */
export function codeSpans(text: string): Array<[number, number]> {
  if (!mayHaveCode(text)) return [];
  const found: Array<[number, number]> = [];
  let block: Array<[number, number]> = [];
  const close = (): void => {
    if (block.length >= 3) found.push(...block);
    block = [];
  };
  let start = 0;
  for (const line of text.split("\n")) {
    const rs = runs(line, start);
    // A line that is one code alone (blank around it): a block's member.
    const alone = rs.length === 1 && line.trim().replace(/\r$/, "") === rs[0]![2] && codeGroups(rs[0]![2], 2) !== null && /\d/.test(rs[0]![2]);
    if (alone) block.push([rs[0]![0], rs[0]![1]]);
    else close();
    for (const [s, e, r] of rs) if (codeGroups(r, 4) !== null) found.push([s, e]);
    start += line.length + 1;
  }
  close();
  return found.filter(([s, e], i) => found.findIndex(([a, b]) => a === s && b === e) === i);
}

/** Words that say the value after them names a thing, not a secret (carried-prose.ts's id words, and a few). */
const THING = /\b(?:build|commit|run|job|ticket|issue|ids?|request|trace|order|version|release|tag|branch|sha|hash|digest|checksum|fingerprint|pipeline|invoice|case|ref|device|serial|container|image|node|pod|uuid|public|address|host|name|user(?:name)?|login|e-?mail|account|path|file|url|output|result)\b/i;

/**
 * announced: the token text[a, z), of a generator's shape (`shape`), stands alone on its line (quotes around
 * it allowed), and the line before (a blank one skipped) announces it: one to eight words of
 * letters in any script ending with a colon (`Kupuhipa hou:`, `Nuwe waarde:`), no program's marks,
 * no word that names a thing.
 */
export function announcedAlone(text: string, a: number, z: number, shape: (v: string) => boolean): boolean {
  if (!familyOn("announced")) return false;
  // Alone on its line (blanks and a quote around it), read by hand before anything else: most tokens are not.
  const edge = (c: number): boolean => c === 32 || c === 9 || c === 34 || c === 39 || c === 96;
  let la = a;
  while (la > 0 && edge(text.charCodeAt(la - 1))) la--;
  if (la > 0 && text.charCodeAt(la - 1) !== 10) return false;
  let e = z;
  while (e < text.length && (edge(text.charCodeAt(e)) || text.charCodeAt(e) === 13)) e++;
  if (e < text.length && text.charCodeAt(e) !== 10) return false;
  if (!shape(text.slice(a, z))) return false;
  let end = la - 1;
  let prev = "";
  for (let k = 0; k < 2 && end > 0; k++) {
    const s = text.lastIndexOf("\n", end - 1) + 1;
    prev = text.slice(s, end).trim();
    if (prev !== "") break;
    end = s - 1;
  }
  if (!/[:\uff1a]$/.test(prev) || prev.length > 80 || THING.test(prev) || /[={}<>$`\\|/]/.test(prev)) return false;
  const words = prev.slice(0, -1).split(/\s+/).filter((w) => w !== "");
  return words.length >= 1 && words.length <= 8 && words.every((w) => letterWord(w.replace(/[,.()'"]/g, "")));
}

const GROUPS = /^[a-z]{3,8}(?:-[a-z]{3,8}){2,5}$/;
const SPACED = /^[a-z]{3,8}(?: [a-z]{3,8}){2,5}$/;
/** An opening quote before a lower-case letter (found by a native search, not a loop over every character). */
const OPENING = /["'\u201c\u201e\u00ab][a-z]/g;
const CLOSE = "\"'\u201d\u201c\u00bb";
const CONSONANTS4 = /[bcdfghjklmnpqrstvwxz]{4}/;

/** The groups of a candidate passphrase `m` are a generator's: a vowel in five letters or fewer, two groups of few vowels, one of four consonants in a row. */
function randomGroups(m: string): boolean {
  const gs = m.split(/[- ]/);
  const letters = gs.join("");
  if (5 * (letters.match(/[aeiouy]/g) ?? []).length > letters.length) return false;
  return gs.filter((g) => g.length >= 4 && 5 * (g.match(/[aeiouy]/g) ?? []).length <= g.length).length >= 2 && gs.some((g) => CONSONANTS4.test(g));
}

/**
 * letters: the spans of `text` that are passphrases of random letter groups joined by dashes, or
 * by blanks inside quotes. Read from each dash between two lower-case letters (over the run of
 * letters and dashes around it, each run once) and from each opening quote before a lower-case
 * letter: a pattern over the whole text cost the writers' pre-filter a third more on real sessions.
 */
export function letterGroupSpans(text: string): Array<[number, number]> {
  if (!familyOn("letters")) return [];
  const out: Array<[number, number]> = [];
  const inRun = (c: number): boolean => isLower(c) || c === 45;
  for (let at = text.indexOf("-", 3); at >= 0; at = text.indexOf("-", at + 1)) {
    if (!isLower(text.charCodeAt(at - 1)) || !isLower(text.charCodeAt(at + 1))) continue;
    let s0 = at;
    while (s0 > 0 && inRun(text.charCodeAt(s0 - 1))) s0--;
    let e0 = at + 1;
    while (e0 < text.length && inRun(text.charCodeAt(e0))) e0++;
    at = e0;
    // A whole run: no word's character, "_" or "/" beside it.
    const before = text.charCodeAt(s0 - 1);
    const after = text.charCodeAt(e0);
    if (isAlnum(before) || before === 95 || isAlnum(after) || after === 95) continue;
    const run = text.slice(s0, e0);
    if (GROUPS.test(run) && randomGroups(run)) out.push([s0, e0]);
  }
  // Groups parted by blanks, inside quotes: from each opening quote before a lower-case letter.
  OPENING.lastIndex = 0;
  for (let m = OPENING.exec(text); m !== null; m = OPENING.exec(text)) {
    const at = m.index;
    let e = at + 1;
    while (e < text.length && e - at <= 60 && (isLower(text.charCodeAt(e)) || text.charCodeAt(e) === 32)) e++;
    if (!CLOSE.includes(text[e] ?? "")) continue;
    const run = text.slice(at + 1, e);
    if (SPACED.test(run) && randomGroups(run)) out.push([at + 1, e]);
    OPENING.lastIndex = e;
  }
  return out;
}
