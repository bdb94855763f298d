/**
 * The pre-filter's conditions for the tenth-set pass's rules (own-families-10.ts; docs/privacy.md
 * "A tenth held-out set"), apart from prefilter.ts as witness-families.ts is: each needs a literal
 * of its rule's place (lower-cased) before a relaxation of the rule's pattern is tried, so a text
 * without the literal costs one substring search a witness.
 */
import type { Witness } from "./prefilter.js";
import { proseSecret } from "./witness-families.js";
import { silentScans } from "./silent-secrets.js";
export { SILENT_KINDS } from "./silent-secrets.js";

/**
 * The command-argument rule's witness (own-families-10.ts), on the text as it is (the token's
 * cases decide, which a lower-cased witness cannot tell): on a line with a flag's " -", a piece
 * between blanks, commas and quotes (or what follows a one-letter flag glued to it) that
 * proseSecret takes. The rule's token is such a piece, so this holds wherever the rule takes one;
 * a scan of the line, no pattern.
 */
/**
 * The random-passphrase rule's witness (own-families-10.ts), a scan of the text's characters, no
 * pattern (a pattern of counted groups cost more to compile than a cleared capture's whole scan):
 * after a quote or a colon and blanks, groups of letters (three to eight) or digits (one to four)
 * joined by a blank or "-", two of five letters or more with one vowel or none and one with four
 * consonants in a row: what the rule's passphrase holds.
 */
function randomPassphraseWitness(text: string): boolean {
  // The starts (a quote, or a colon and a blank) are found by indexOf, a native search, and only
  // what follows them is read here: a loop over every character ran as interpreted code on each
  // text a capture clears (about 1 M instructions of a cleared capture under callgrind).
  const n = text.length;
  for (const start of PASSPHRASE_STARTS) {
    for (let i = text.indexOf(start); i >= 0; i = text.indexOf(start, i + 1)) {
      let k = i + 1;
      if (start === ":") {
        if (k >= n || !blank(text.charCodeAt(k))) continue;
        while (k < n && blank(text.charCodeAt(k))) k++;
      }
      if (passphraseFrom(text, k)) return true;
    }
  }
  return false;
}

/** What opens the random-passphrase rule's phrase: a quote, or a colon followed by blanks. */
const PASSPHRASE_STARTS = ['"', "'", "\u201c", "\u201e", "\u00ab", ":"];

function blank(c: number): boolean {
  return c === 32 || c === 9 || c === 0xa0;
}

/** Whether the groups from `k` on (see randomPassphraseWitness) hold the rule's passphrase. */
function passphraseFrom(text: string, k: number): boolean {
  const n = text.length;
  let poor = 0;
  let cluster = false;
  for (;;) {
    const from = k;
    let letters = 0;
    let digits = 0;
    let vowels = 0;
    let run = 0;
    let longest = 0;
    for (; k < n; k++) {
      const d = text.charCodeAt(k);
      if (d >= 97 && d <= 122) {
        letters++;
        const v = d === 97 || d === 101 || d === 105 || d === 111 || d === 117;
        if (v) vowels++;
        run = v ? 0 : run + 1;
        if (run > longest) longest = run;
      } else if (d >= 48 && d <= 57) digits++;
      else break;
    }
    const len = k - from;
    if (letters > 0 && digits > 0) return false;
    if (letters > 0 ? len < 3 || len > 8 : len < 1 || len > 4) return false;
    if (letters >= 5 && vowels <= 1) poor++;
    if (longest >= 4) cluster = true;
    if (poor >= 2 && cluster) return true;
    const d = text.charCodeAt(k);
    if (k < n && (blank(d) || d === 45)) k++;
    else return false;
  }
}

/** The tenth-set pass's scans (no pattern): the rules whose witness holds on `text`. */
export function tenthScans(text: string): string[] {
  const held: string[] = [];
  if (commandArgumentWitness(text)) held.push("own:command-argument");
  if (randomPassphraseWitness(text)) held.push("own:random-passphrase");
  return held.concat(silentScans(text)); // the twelfth-set pass (silent-secrets.ts)
}

export function commandArgumentWitness(text: string): boolean {
  // By hand, no pattern: the flag's " -" is found by indexOf and only its line is read; four
  // small patterns (the flag, the split, the glued flag, the digit) each cost a compile in every
  // capture whose text holds " -", as prose dashes do.
  for (const flag of [" -", "\t-"]) {
    for (let at = text.indexOf(flag); at >= 0; ) {
      const from = text.lastIndexOf("\n", at) + 1;
      const to = text.indexOf("\n", at);
      const done = to < 0 ? text.length : to;
      if (linePieceHeld(text, from, done)) return true;
      at = to < 0 ? -1 : text.indexOf(flag, done);
    }
  }
  return false;
}

/**
 * Whether a piece of text[from, to) between separators (what `split(/[\s,'"]+/)` takes: any
 * JavaScript white space, commas and quotes) is one proseSecret takes: after a one-letter flag
 * glued to it ("-p..." of more than 11 characters) is dropped, 10 to 64 characters holding a digit.
 */
function linePieceHeld(text: string, from: number, to: number): boolean {
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i < to && !pieceSeparator(text.charCodeAt(i))) continue;
    if (i - start >= 10) {
      let a = start;
      if (i - start > 11 && text.charCodeAt(a) === 45 && asciiLetter(text.charCodeAt(a + 1))) a += 2;
      if (i - a >= 10 && i - a <= 64 && hasDigit(text, a, i) && proseSecret(text.slice(a, i), false)) return true;
    }
    start = i + 1;
  }
  return false;
}

/** A character of /[\s,'"]/ (\s as JavaScript has it, line ends included). */
function pieceSeparator(c: number): boolean {
  if (c === 44 || c === 39 || c === 34 || c === 32 || (c >= 9 && c <= 13)) return true;
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function asciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function hasDigit(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/**
 * A witness whose patterns are made on first use: a regex literal costs its creation when its
 * module is evaluated, in every capture, though almost no text of a capture holds one of these
 * witnesses' literals (`need`) and so runs its pattern.
 */
function lazyWitness(w: { name: string; rules: readonly string[]; need: readonly string[]; re: () => RegExp; gate?: () => RegExp }): Witness {
  let re: RegExp | undefined;
  let gate: RegExp | undefined;
  const out: Witness = {
    name: w.name,
    rules: w.rules,
    need: w.need,
    get re(): RegExp {
      return (re ??= w.re());
    },
  };
  const makeGate = w.gate;
  if (makeGate !== undefined) Object.defineProperty(out, "gate", { enumerable: true, get: (): RegExp => (gate ??= makeGate()) });
  return out;
}

export const TENTH_WITNESSES: readonly Witness[] = [
  lazyWitness({
    name: "printed secret", rules: ["own:printed-secret"], need: ["pass", "secret", "token", "psk", "credential", "_key"],
    re: () => /(?:[$>]|@[^\n]*[$#])[ \t]+[^\n]*(?:pass|secret|token|psk|credential|_key)[^\n]*\r?\n[ \t]*b?["']?[^\s"'[\]]{8}/,
  }),
  lazyWitness({
    name: "announced secret", rules: ["own:announced-secret"], need: ["passw", "passphrase", "secret", "token"],
    re: () => /(?:passw|passphrase|secret|token)[^\n]*(?::[ \t]*\r?\n(?:[^\n|]{0,40}\|?[ \t]*\r?\n){0,2}[^\n|]{0,40}\|?[ \t]*|\r?\n(?:[^\n]*\n)?[ \t]*(?:new |generated )?value[ \t]*:[ \t]*)[^\s|]{8}/,
  }),
  lazyWitness({ name: "secret in a listing", rules: ["own:column-secret"], need: ["password", "passwd", "passphrase", "secret", "token", "psk", "apikey", "api_key"], gate: () => /(?:password|passwd|passphrase|secret|secret_id|token|psk|api_?key)[ \t]{2}/, re: () => /(?:passw(?:ord|d)|passphrase|secret|secret_id|token|psk|api_?key)[ \t]{2,}[^\s]{8}/ }),
  lazyWitness({ name: "wire password", rules: ["own:wire-password"], need: ["pass", "334"], re: () => /(?:^|\n)[ \t]*(?:[<>][ \t]*|c:[ \t]*)?pass[ \t]+[^\s]{4}|334[ \t]+(?:ugfzc3dvcmq6|cgfzc3dvcmq6)/ }),
  lazyWitness({ name: "url signature", rules: ["own:url-signature"], need: ["sig=", "signature="], re: () => /[?&][\w-]*sig(?:nature)?=[a-z0-9%_~+/.-]{32}/ }),
  lazyWitness({ name: "key store base64", rules: ["own:key-store-base64"], need: ["mii", "mhccaqee", "b3blbnnzac1rzxktdje", "/u3+7q", "zs7ozg"], re: () => /(?:mii[a-z0-9+/]{2}[aqgw]iba(?:z|dan|ak)|mhccaqee|b3blbnnzac1rzxktdje|\/u3\+7q|zs7ozg)[a-z0-9+/]{60}/ }),
  lazyWitness({ name: "otp seed", rules: ["own:otp-seed"], need: ["otp", "2fa", "mfa", "authenticator", "oath"], re: () => /otpauth(?:-migration)?:\/\/[^\s?#]*\?[^\s#]*(?:secret|data)=[^&\s#"'<>]{8}|(?:totp|hotp|otp|2fa|mfa|authenticator|oath)[^\n]*?[\s:="'](?:[a-z2-7]{16}|[a-z2-7]{4}(?: [a-z2-7]{4}){3})/ }),
  lazyWitness({ name: "recovery codes", rules: ["own:recovery-codes"], need: ["recovery", "backup"], re: () => /(?:recovery|backup)[^\n]*\n(?:[^\n]*\n){0,4}?[ \t]*(?:[0-9a-z]{4,6}[- ][0-9a-z]{4,6}|\d{6}-\d{6})/ }),
  lazyWitness({ name: "licence block", rules: ["own:licence-block"], need: ["licence", "license"], re: () => /begin[ \t]+[a-z ]*licen[cs]e/ }),
  lazyWitness({ name: "webhook url", rules: ["own:webhook-url"], need: ["hook"], re: () => /(?:hook[\w-]*["']?[ \t]*[=:][ \t]*["']?https?:\/\/|https?:\/\/(?:web)?hooks?[.:/])[^\s"'<>]*\/[a-z0-9]{12}/ }),
  lazyWitness({ name: "cookie jar", rules: ["own:cookie-jar"], need: ["cookie"], re: () => /cookies?(?:\.\w+)?(?:\[\s*["'][^"'\n]+["']\s*\]\s*=\s*|\.set\(\s*["'][^"'\n]+["']\s*,\s*)["'][^"'\n]{16}/ }),
  lazyWitness({ name: "commented key file", rules: ["own:commented-key-file"], need: ["comment"], re: () => /\bcomment\b[^\n]*\b(?:secret|private)[ \t]+key\b[^\n]*\r?\n[ \t]*[a-z0-9+/]{40}/ }),
  lazyWitness({ name: "wifi payload", rules: ["own:wifi-payload"], need: ["wifi:"], re: () => /wifi:(?:[^;\n]*;)*?p:/ }),
  lazyWitness({ name: "piped secret", rules: ["own:piped-secret"], need: ["echo", "printf"], re: () => /\b(?:echo|printf)[ \t]+[^\n|]*\|[^\n|]*(?:secret|key|passw|token|cred)/ }),
  lazyWitness({ name: "composed password", rules: ["own:composed-password"], need: ["!", "#", "$", "%", "&", "*", "?", "@", "^", "~"], gate: () => /\d[!#$%&*?@^~]/, re: () => /[a-z]{5}\d{2,}[!#$%&*?@^~]/ }),
];
