/**
 * What of the owner's own secrets may be pushed to an Errata server (`errata secrets push`),
 * and in what form. The server stores them and cannot unlearn them, and whoever reads its
 * files holds a salted fast hash of each (SHA-256, with the salt beside it) and 8 bits of a
 * fingerprint: a value is pushed only when guessing it from those is out of reach, i.e. when
 * its estimated strength, less the 8 bits the fingerprint gives away, is 72 bits or more
 * (2^72 SHA-256 evaluations: thousands of GPU-years at 10^10 a second). A weaker value stays
 * on the developer's machine; the push names it (where it was found, never the value).
 *
 * The estimate (valueBits) is a lower bound meant for random tokens that refuses what people
 * choose. The value is read in the parts a person types (a word: a capital or none then
 * lower-case letters; capitals; digits; other characters): letters cost log2(26) each, but a
 * part of three or more with a vowel may be a word and costs at most 14 bits (a 2^14-word list;
 * diceware's is 7,776), unless three of its consonants stand together with none of h, l, n, r,
 * s, t among them, or a letter pair no English word holds ("wabzdo", "Sxculpx" in random
 * tokens); digits log2(10) each, a year 8; other characters log2(33), a repeat 1;
 * a part typed before costs 1; a placeholder or an identifier of words (placeholders.ts
 * `notASecret`) counts 0. So a random token's letters are counted at 4.7 bits where they hold
 * 5.95 (base62), and what people type (`Summer2024!Summer` 28, `MyDogRex2019!!` 52,
 * `correct-horse-battery-staple` 63, `s3cr3tP@ssw0rd!!` 66) stays under 80. Measured on 5,000
 * seeded random tokens each (test/privacy/known-push.test.ts): base62 of 16 characters pushed
 * 0.8%, of 20 92%, of 24 99.8%, of 32 all; hex of 24 93%, of 32 all; lower-case base36 of 32
 * 99.5%.
 * Why not a library: zxcvbn's estimate counts a random character as 3.3 bits (its brute-force
 * floor), so it would keep back random tokens under 25 characters; the words are what it adds,
 * and the vowel rule stands in for them.
 *
 * Example: `valueBits("Zq8vT2bLpR7sWk3mQ9xD")` -> 90; `valueBits("Summer2024!Summer")` -> 28.
 */
import { buildStore, fpMask, type KnownStore } from "./known-values.js";
import { notASecret } from "./placeholders.js";

/** Fingerprint bits a pushed store keeps (KnownStore.fp_bits). */
export const PUSH_FP_BITS = 8;
/** Bits a value must keep after the fingerprint's: 2^72 salted SHA-256 guesses. */
export const PUSH_MIN_BITS_LEFT = 72;
/** The least estimate pushed. */
export const PUSH_MIN_BITS = PUSH_MIN_BITS_LEFT + PUSH_FP_BITS;
/** What a word is worth to a guesser: one of a 2^14-word list, capitalised or not. */
const WORD_BITS = 14;
/** The value's parts as a person types them: a word (a capital or none, then lower-case letters), capitals, digits, other characters. */
const PART = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[^A-Za-z0-9]+/g;
const VOWEL = /[aeiouy]/i;
/** Three consonants together with none of h, l, n, r, s, t among them: in no English word ("strength", "dishwasher", "purple" have one). */
const NO_WORD_CLUSTER = /[bcdfgjkmpqvwxz]{3}/i;
/**
 * Letter pairs English words do not hold ("Sxculpx" in a random token ends in "px"): q before
 * anything but u; x, j, v, z before most consonants; a consonant before x; some before j. Kept
 * short, so a word such as "object", "adjust", "acquire", "zigzag" or "savvy" still reads as one.
 */
const NO_WORD_PAIR = /q[^u]|x[bdfgjkmnqrsvwxz]|j[bcdfgjklmnpqrstvwxz]|v[bcdfgjkmpqwxz]|z[bcdfgjkmpqvwx]|[bcdfghkmpvw]x|[cgkmpqvwxz]j/i;

/** The estimated strength of `v` in bits (a lower bound for a random token; see the file's comment). */
export function valueBits(v: string): number {
  if (v.length === 0 || notASecret(v)) return 0;
  const seen = new Set<string>();
  let bits = 0;
  for (const m of v.matchAll(PART)) {
    const part = m[0];
    const lower = part.toLowerCase();
    // A part typed before costs its position alone ("Summer2024!Summer").
    if (seen.has(lower)) {
      bits += 1;
      continue;
    }
    seen.add(lower);
    bits += partBits(part);
  }
  return Math.round(bits);
}

function partBits(part: string): number {
  const c = part.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    // Digits; a year (19xx, 20xx) is one of a couple of hundred.
    return /^(?:19|20)\d\d$/.test(part) ? 8 : part.length * Math.log2(10);
  }
  if (/^[A-Za-z]/.test(part)) {
    const random = part.length * Math.log2(26) + (/^[A-Z][a-z]/.test(part) ? 1 : 0);
    // Three or more letters with a vowel may be a word: one of WORD_BITS, whatever its length;
    // not with three consonants together none of which joins others in words ("wabzdo").
    return part.length >= 3 && VOWEL.test(part) && !NO_WORD_CLUSTER.test(part) && !NO_WORD_PAIR.test(part) ? Math.min(random, WORD_BITS) : random;
  }
  // Other characters: the first of 33, each repeat of one a bit.
  let bits = 0;
  for (let i = 0; i < part.length; i++) bits += i > 0 && part[i] === part[i - 1] ? 1 : Math.log2(part.charCodeAt(i) < 128 ? 33 : 1024);
  return bits;
}

export interface NamedValue {
  /** Where it was found: `environment NAME` or `<folder>/.env NAME`. Printed; the value never is. */
  from: string;
  value: string;
}

export interface PushPlan {
  /** The store to push: the strong values, salted under a fresh salt, 8 fingerprint bits kept. */
  store: KnownStore;
  pushed: Array<{ from: string; bits: number }>;
  held: Array<{ from: string; bits: number; why: string }>;
}

/** Splits `values` into those strong enough to push and those held back, and builds the pushed store under `salt` (hex). */
export function planPush(values: readonly NamedValue[], salt: string): PushPlan {
  const pushed: PushPlan["pushed"] = [];
  const held: PushPlan["held"] = [];
  const strong: string[] = [];
  for (const { from, value } of values) {
    const bits = valueBits(value);
    if (bits >= PUSH_MIN_BITS) {
      pushed.push({ from, bits });
      strong.push(value);
    } else held.push({ from, bits, why: bits === 0 ? "a placeholder or an identifier of words" : `estimated ${bits} bits, under the ${PUSH_MIN_BITS} a push needs: a salted hash of it could be guessed` });
  }
  const full = buildStore(strong, salt);
  const mask = fpMask(PUSH_FP_BITS);
  return { store: { ...full, fp_bits: PUSH_FP_BITS, entries: full.entries.map((e) => ({ ...e, fp: (e.fp & mask) >>> 0 })) }, pushed, held };
}
