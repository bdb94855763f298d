/**
 * What the own rules (own-rules.ts) read a value or a name by: random-looking tokens of both
 * cases, of one case, standing alone; URL segments; values and names that are no secret's; the
 * secret-naming key's pattern and its caseless rewrite. Split from own-rules.ts to keep each
 * file a reader's size.
 */
import { walkPattern } from "../../core/pattern-walk.js";
import { shannonEntropy } from "./entropy.js";
/**
 * Random-looking: at least 8 characters with letters and at least two digits, not words
 * joined by hyphens. "aZ3kP9qLmX" yes; "this-is-a-task-2" no; "value" no.
 */
export function looksRandom(s: string): boolean {
  if (s.length < 8 || !/[A-Za-z]/.test(s)) return false;
  if ((s.match(/\d/g) ?? []).length < 2) return false;
  return !/^[a-z]+(?:-[a-z0-9]+)+$/.test(s);
}

/**
 * A random token's body: upper- and lower-case letters and digits, at most three "_" or "-"
 * (an identifier has more), and more than 3.5 bits of entropy per character (gitleaks' bar
 * for its generic rule).
 */
export function tokenBody(s: string): boolean {
  if (!/[A-Z]/.test(s) || !/[a-z]/.test(s) || !/\d/.test(s)) return false;
  if ((s.match(/[_-]/g) ?? []).length > 3) return false;
  return shannonEntropy(s) > 3.5;
}

/**
 * A random body of one case (`napi_` + lower-case letters and digits, `django-insecure-` + 50 of
 * them): 32 characters or more of letters and digits, four digits or more and four letters
 * beyond hex or more (a git SHA or a hex digest has none), and more than 4 bits of entropy
 * per character (a random token of 32 from 36 symbols has about 4.6).
 */
export function oneCaseToken(s: string): boolean {
  if (s.length < 32 || !/^(?:[a-z0-9]+|[A-Z0-9]+)$/.test(s)) return false;
  if ((s.match(/\d/g) ?? []).length < 4 || (s.match(/[g-zG-Z]/g) ?? []).length < 4) return false;
  return shannonEntropy(s) > 4;
}

/**
 * A random token standing alone, with no prefix, name or place to tell it (a key pasted into
 * prose, "use aZ3k… for now", or passed to a client's constructor): 24 characters or more of
 * letters and digits (at most three "_" or "-"), both cases and two digits or more, a letter
 * beyond hex, more than 3.5 bits of entropy per character, under half of it in word-like runs
 * (camelCase names such as `handleSubmitButtonClick2Async` are identifiers), and not base64 of
 * text that holds no secret (an encoded id: `Z2lkOi8vc2hvcC9Qcm9kdWN0LzEyMzQ1Njc4OQ`).
 * Not the stricter test below: a private key of 64 hex digits after "0x", in both cases (a
 * true sample of secretlint's), has a letter beyond hex only in its "0x" and less entropy than
 * a token of 62 symbols, and is a key all the same.
 */
export function bareToken(s: string): boolean {
  // A hex string in both cases is a digest or a format's example, not a key of 62 symbols.
  // "0x" and 40 hex digits is an Ethereum address (20 bytes; the case of its letters is EIP-55's
  // checksum), public; "0x" and 64 is a private key and stays a token.
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) return false;
  // Stripe's publishable keys are public by design (its docs put them in the page's script).
  if (/^pk_(?:test|live)_/.test(s)) return false;
  if (s.length < 24 || !tokenBody(s) || (s.match(/\d/g) ?? []).length < 2 || !/[g-zG-Z]/.test(s)) return false;
  let words = 0;
  for (const m of s.matchAll(/[A-Z]?[a-z]{4,}/g)) words += m[0].length;
  // Base64 of text with no secret in it (an encoded id or host) is no key (encodedText).
  return words < 0.5 * s.length && !encodedText(s);
}

/**
 * The lowest Shannon entropy (bits a character) of a random token of letters and digits of
 * length n, below which about 1 in 10,000 such tokens falls: by sampling 20,000 random tokens of
 * each length from the 62 letters and digits (seed 20261207), the 1-in-1,000 quantile (16: 3.20,
 * 24: 3.72, 32: 4.06, 48: 4.53, 64: 4.82, 100: 5.18 bits) less 0.15, read between those lengths
 * in straight lines. A run typed by hand or built from repeats ("abcABC123abcABC123…") has less.
 */
const ENTROPY_FLOOR: ReadonlyArray<readonly [number, number]> = [[16, 3.05], [24, 3.57], [32, 3.91], [48, 4.38], [64, 4.67], [100, 5.03]];
export function entropyFloor(n: number): number {
  if (n <= ENTROPY_FLOOR[0]![0]) return ENTROPY_FLOOR[0]![1];
  for (let i = 1; i < ENTROPY_FLOOR.length; i++) {
    const [n1, h1] = ENTROPY_FLOOR[i]!;
    const [n0, h0] = ENTROPY_FLOOR[i - 1]!;
    if (n <= n1) return h0 + ((h1 - h0) * (n - n0)) / (n1 - n0);
  }
  return ENTROPY_FLOOR[ENTROPY_FLOOR.length - 1]![1];
}

/**
 * A strong random token, the stricter test (issue 34: over-redaction down) for a token that
 * has nothing else to tell it (the random-token rule) or whose provider's format says no (a
 * near-miss, upstream-verdict.ts): a token body (both cases, a digit, at most three "_" or "-"),
 * and, of its letters and digits,
 * - a quarter or more beyond hex: a random token of the 62 has about 65%, and under a quarter
 *   about once in 1,000 at 16 characters, far less longer (sampled as above); hex with a few
 *   letters past "f" ("d45b6G86aBb0F2Cee…", "acdeFf05b1…") is a hex value, not a key of 62 symbols;
 * - an entropy no lower than a random token of its length has (entropyFloor);
 * - under half in word-like runs (camelCase names such as `handleSubmitButtonClick2Async`);
 * - not base64 of text that holds no secret (encodedText: `YmVkcm9jay5hbWF6b25hd3MuY29t`,
 *   "bedrock.amazonaws.com", an encoded id or host).
 */
export function strongRandom(s: string): boolean {
  if (!tokenBody(s)) return false;
  const alnum = s.replace(/[^A-Za-z0-9]/g, "");
  if (alnum.length < 16) return false;
  if ((alnum.match(/[g-zG-Z]/g) ?? []).length < 0.25 * alnum.length) return false;
  if (shannonEntropy(alnum) < entropyFloor(alnum.length)) return false;
  let words = 0;
  for (const m of s.matchAll(/[A-Z]?[a-z]{4,}/g)) words += m[0].length;
  return words < 0.5 * s.length && !encodedText(s);
}

/**
 * Base64 (either alphabet, padded or not, cut or not) of text that holds no secret: every byte
 * decoded is printable ASCII, and the text has no random-looking run (letters with two digits
 * or more, 8 characters or more) and is no `user:password` pair. An encoded id
 * (`Z2lkOi8vc2hvcC9Qcm9kdWN0`, "gid://shop/Product"), an encoded host, a JSON header cut before
 * its values (`eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6`); or base64 of bytes counting up by one
 * (`AAECAwQFBgcI…`, bytes 0, 1, 2, …: a placeholder). 18 random bytes are all printable about
 * once in 10^8, so a random token decodes to text almost never.
 */
export function encodedText(s: string): boolean {
  if (s.length < 16 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return false;
  const body = s.replace(/=+$/, "");
  const bytes = Buffer.from(body.slice(0, body.length - (body.length % 4)), "base64");
  if (bytes.length < 12) return false;
  let counting = 1;
  for (let i = 1; i < bytes.length && counting < 8; i++) counting = bytes[i] === bytes[i - 1]! + 1 ? counting + 1 : 1;
  if (counting >= 8) return true;
  // gzip data (its magic number, 1f 8b 08: "H4sI" in base64) is read inflated: a compressed
  // event body is text too. Data cut short does not inflate and is read as bytes.
  // Read whole: its last bytes (gzip's checksum and length) may sit in a last, short quantum.
  const inflated = bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8 ? gunzip(Buffer.from(body, "base64")) : null;
  // UTF-16LE text (a shell's encoded command: every other byte zero) is read as its characters.
  const wide = inflated === null && bytes.length >= 12 && bytes.every((b, i) => i % 2 === 0 || b === 0);
  const plain = inflated ?? (wide ? bytes.filter((_b, i) => i % 2 === 0) : bytes);
  for (const b of plain) if (!((b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13)) return false;
  const text = plain.toString("latin1");
  // Inflated text is a document (an event, a payload), whose ids mix letters and digits
  // ("A-2026-118843"): only what the redactor would take there counts, a random token of both
  // cases or a hex key of 32 or more.
  if (inflated !== null) return !(text.match(/[A-Za-z0-9_-]{16,}/g) ?? []).some((r) => tokenBody(r) || /^[0-9a-fA-F]{32,}$/.test(r)) && !/^[^\s:]+:[^\s:/]+$/.test(text);
  if (/^[^\s:]+:[^\s:/]+$/.test(text)) return false;
  return !(text.match(/[A-Za-z0-9_-]{8,}/g) ?? []).some(looksRandom);
}

/**
 * `bytes` gunzipped (at most 64 KB out), or null when they do not inflate. node:zlib is loaded
 * only here, on gzip data: the redactor part of the hook does not pay for it otherwise.
 */
function gunzip(bytes: Buffer): Buffer | null {
  try {
    const zlib = process.getBuiltinModule("node:zlib") as typeof import("node:zlib");
    return zlib.gunzipSync(bytes, { maxOutputLength: 65536 });
  } catch {
    return null;
  }
}

/**
 * A JSON Web Key's public member at `start` (RFC 7518: an EC key's "x" and "y", an RSA key's "n"
 * and "e") in an object that says its key type; a private key's "d", "p", "q", … are not.
 */
export function jwkPublicMember(text: string, start: number): boolean {
  return /"(?:x|y|n|e)"\s*:\s*"$/.test(text.slice(Math.max(0, start - 12), start)) && /"kty"\s*:/.test(text.slice(Math.max(0, start - 1000), start + 1000));
}

/**
 * A key that its provider documents as public, found at `start`..`end` of `text` (issue 34:
 * over-redaction down; the eighth pass, docs/privacy.md "A sixth held-out set"), whatever rule
 * found it: Mapbox's public tokens ("pk." and a base64 JSON body; its secret ones start "sk.",
 * its temporary ones "tk.": its docs put public ones in the page's script), PostHog's project API
 * keys ("phc_": the browser sends one with every event; its personal API keys, "phx_", are
 * secret), and a Google API key in a Firebase web app's config (the object that also holds the
 * app's `authDomain` and its `projectId` or a "….firebaseapp.com" host: Firebase's docs say that
 * key identifies the project and is no secret; the same key elsewhere stays a secret).
 */
export function publicByDesign(text: string, start: number, end: number): boolean {
  // A Solana address (base58 of a 32-byte public key) on a `solana`/`spl-token` command line: that
  // CLI takes a secret key only as a keypair file's path, so its base58 arguments are addresses (the ninth pass).
  if (end - start >= 32 && end - start <= 44 && /^[1-9A-HJ-NP-Za-km-z]+$/.test(text.slice(start, end)) && /^[ \t]*(?:\$[ \t]*)?(?:solana|spl-token)[ \t]/.test(text.slice(text.lastIndexOf("\n", start) + 1, start))) return true;
  const c = text.charCodeAt(start);
  // 'p' or 'e' (Mapbox), 'A' (Google); since the ninth pass 'a', 'g' (RevenueCat), 'U', 'N', 'O', 'C', 'X' (NATS): most findings are read no further.
  if (c !== 112 && c !== 101 && c !== 65 && c !== 97 && c !== 103 && c !== 85 && c !== 78 && c !== 79 && c !== 67 && c !== 88) return false;
  const value = text.slice(start, end);
  // RevenueCat's app-specific public SDK keys ("appl_", "goog_", "amzn_"): its docs have apps ship them; its secret keys are "sk_".
  if (/^(?:appl|goog|amzn)_[A-Za-z0-9]{20,}$/.test(value)) return true;
  if (natsPublicKey(value)) return true;
  if (value.startsWith("pk.eyJ") || (value.startsWith("eyJ") && text.slice(Math.max(0, start - 3), start) === "pk.")) return true;
  if (value.startsWith("phc_")) return true;
  if (value.startsWith("AIza")) {
    const open = text.lastIndexOf("{", start);
    const close = text.indexOf("}", end);
    if (open < 0 || close < 0) return false;
    const config = text.slice(open, close);
    return /\bauthDomain\b/.test(config) && /\bprojectId\b|\.firebaseapp\.com\b/.test(config);
  }
  return false;
}

/**
 * A NATS public nkey (the ninth pass), as the nkeys library encodes one: base32 of its type byte, 32
 * key bytes and their CRC-16 (XMODEM, little-endian), 56 characters; servers' configs hold them.
 * The checksum tells one from a random run of the same letters. Its seed ("S…", 58) is the secret.
 */
function natsPublicKey(v: string): boolean {
  if (!/^[UANOCX][A-Z2-7]{55}$/.test(v)) return false;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of v) {
    acc = (acc << 5) | "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (bytes.length !== 35) return false;
  let crc = 0;
  for (const b of bytes.slice(0, 33)) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc === (bytes[33]! | (bytes[34]! << 8));
}

/**
 * A URL path segment that is a token: a token body, where a long base64url segment may hold
 * a few more "_" and "-" (about one in sixteen characters, as random base64url does) than
 * a slug of words would leave once they are taken out.
 */
export function urlSegmentToken(seg: string): boolean {
  // A page's title then its id ("Pianificazione-Nerdz-Ng-pubblico-1bc826ecc0994dd8915be97fc3489cde",
  // Notion's pages): the id alone is read.
  const slug = /^(?:[A-Za-z]{2,}-){2,}([A-Za-z0-9]+)$/.exec(seg);
  if (slug) return slug[1]!.length >= 16 && tokenBody(slug[1]!);
  const seps = (seg.match(/[_-]/g) ?? []).length;
  if (seps > Math.max(3, seg.length / 16)) return false;
  return tokenBody(seg.replace(/[_-]/g, ""));
}

/**
 * Path segments after which a segment is a document's id, not a key: Google's `/document/d/<id>`,
 * `/spreadsheets/d/`, `/file/d/`, `/drive/folders/`, a wiki's `/pages/`. Whoever
 * holds a shared document's link may read it, but the link is made to be passed on, and an id
 * there is not a credential to a service (gitleaks and betterleaks call these false).
 */
const DOCUMENT_SEGMENTS = /^(?:d|doc|docs|document|documents|spreadsheets?|presentations?|forms?|files?|folders?|pages?)$/i;

/** Whether the URL before a segment (ending in "/") puts it in a document's place. */
export function documentId(pre: string): boolean {
  const segs = pre.split("/");
  return DOCUMENT_SEGMENTS.test(segs[segs.length - 2] ?? "");
}

/** A token after a secret word in prose: letters and digits, and more than 3 bits of entropy per character. */
export function proseToken(s: string): boolean {
  return /[A-Za-z]/.test(s) && (s.match(/\d/g) ?? []).length >= 2 && shannonEntropy(s) > 3 && !looksLikeIdentifier(s);
}

/**
 * A password a person chose, as password policies read one: 8 to 64 characters with no space, three
 * or more of the four classes (lower-case, upper-case, digits, symbols), letters and digits
 * interleaved (a digit between letters or a letter between digits: "Passw0rd!", "aZ3kP9qLmX"; a word
 * and its version, "OAuth2.0", "Python3", is not), and no e-mail address, URL, path, reference
 * or identifier ("admin/admin", "ana@example.com", "$PASSWORD", "user_id").
 */
export function passwordLike(s: string): boolean {
  if (s.length < 8 || s.length > 64 || /\s/.test(s)) return false;
  if (/@.*\.|:\/\/|^[~./\\]|^[$%{<]|\[REDACTED/.test(s) || looksLikeValueNotSecret(s) || looksLikeIdentifier(s)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((c) => c.test(s)).length;
  return classes >= 3 && /[A-Za-z]\d+[A-Za-z]|\d[A-Za-z]+\d/.test(s);
}

/**
 * A password after its own word ("das Passwort ist …", "creds are admin / …"): the context says
 * it is one, so three classes of the four are enough, without passwordLike's letters and digits
 * interleaved (a random 12 of letters and digits often has its digits at an end: "uXNEGRPBRt49").
 */
export function namedPassword(s: string): boolean {
  if (passwordLike(s)) return true;
  if (s.length < 8 || s.length > 64 || /\s/.test(s)) return false;
  if (/@.*\.|:\/\/|^[~./\\]|^[$%{<]|\[REDACTED/.test(s) || looksLikeValueNotSecret(s) || looksLikeIdentifier(s)) return false;
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((c) => c.test(s)).length >= 3 && /\d/.test(s);
}

/**
 * A base64 key that starts with "/" (about one random base64 key in 64 does: "/m+ab8J…=") rather
 * than a path: "/" then the standard base64 alphabet only (a path's ".", "_" and "-" are not in
 * it), 20 characters or more, and random over the whole (strongRandom: both cases and a digit, a
 * random token's entropy, under half in word-like runs, not base64 of plain text). A path of
 * words ("/Users/Anna2024/Projects/App3", "/usr/include/c++/13") is none. Measured on the generated
 * named secrets (test/privacy/redact.test.ts, the seventh pass's ceilings): 4 of 1,000 were such
 * keys, kept as paths until the eighth pass.
 */
export function slashKey(value: string): boolean {
  return value.length >= 20 && /^\/[A-Za-z0-9+/]+={0,2}$/.test(value) && strongRandom(value);
}

/** Values after a secret-named key that are clearly not secrets: numbers, booleans, paths, placeholders, references. */
export function looksLikeValueNotSecret(value: string): boolean {
  if (/^\d+(\.\d+)?$/.test(value)) return true;
  if (/^(true|false|null|none|undefined|required|optional|yes|no)$/.test(value.toLowerCase())) return true;
  if (/^(\.{0,2}\/|~\/)/.test(value) && !slashKey(value)) return true; // a path, not a base64 key that starts with "/"
  if (/^(process\.env\b|os\.environ|env\(|secrets\.|vars\.)/.test(value)) return true; // a reference, not a value
  return false;
}

/** Bare generic names ("key=value", "auth=basic"): only a random-looking value counts as a secret. */
const WEAK_NAMES = /^(key|keys|auth|pass|pwd)$/;
/**
 * Names that end in "key" or "token" but name a column, an index or a limit, not a secret
 * ("primary_key", "sort_key", "cache_key", "idempotency_key", "max_tokens", "key_id"), or a key
 * public by design ("public_key", "publishable_key"; a captcha's "sitekey": reCAPTCHA's,
 * hCaptcha's and Turnstile's site keys go in the page, their secret keys are the other ones), or
 * a form's anti-forgery token ("authenticity_token", "csrf_token": bound to a session, gitleaks'
 * generic allowlist keeps them).
 */
export const NOT_SECRET_NAMES =
  /(?:^|[_.-])(?:primary|foreign|sort|partition|cluster(?:ing)?|shard(?:ing)?|range|hash|row|index|unique|composite|natural|surrogate|sequence|lookup|join|cache|idempotency|dedupe?|dedup|public|publishable|site|authenticity|csrf|xsrf|max|min|num|total|count)[_.-]?(?:keys?|tokens?)$|(?:keys?|tokens?)[_.-]?(?:id|ids|name|names|type|path|file|count|limit|size|length|prefix|url|uri|endpoint)$/;
/**
 * Whether a lower-cased name is one NOT_SECRET_NAMES takes. Every match of it holds "key" or
 * "token", so two searches answer for every other name ("id", "password") without compiling
 * the pattern: about 4 M instructions in a fresh hook process (docs/privacy.md "Cost").
 */
export function notSecretName(lower: string): boolean {
  return (lower.includes("key") || lower.includes("token")) && NOT_SECRET_NAMES.test(lower);
}
/** Strong names: whatever the value looks like (words included), it is a secret. */
export const STRONG_NAMES = /(?:password|passwd|pass[_-]?phrase|secret|private[_-]?key|api[_-]?key|apikey|access[_-]?key|credentials?)$/;

/**
 * A value that reads as an identifier or words ("user_id", "created_at", "order-2041-retry",
 * "DOC_Vector_5_32", "SalesResults-1.2", "jjwt-jackson-0.11.2", "ACCESS_TOKEN"), not a key:
 * parts joined by "_", ".", "-" or ":", each a word (lower-case, Capitalised or camelCase
 * runs of letters, or an upper-case word of at most 12 letters) or a number of at most four
 * digits. A random token's parts are mixed letters and digits, which no part here may be.
 */
export function looksLikeIdentifier(value: string): boolean {
  if (/^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*$/.test(value) && !looksRandom(value.replace(/[_.-]/g, ""))) return true;
  const parts = value.split(/[_.:-]/);
  if (parts.length < 2 || parts.some((p) => p === "")) return false;
  return parts.every((p) => /^\d{1,4}$/.test(p) || /^[A-Z]{1,12}$/.test(p) || /^(?:[A-Z]?[a-z]{2,})+$/.test(p));
}

// The name lists are tried on the lower-cased name, not with the `i` flag: each caseless
// pattern costs a fresh hook process several times as much to compile (docs/privacy.md "Cost").
export function keepAssignment(name: string, value: string): boolean {
  if (looksLikeValueNotSecret(value)) return true;
  name = name.toLowerCase();
  if (notSecretName(name)) return true;
  if (WEAK_NAMES.test(name) && !looksRandom(value)) return true;
  return !STRONG_NAMES.test(name) && looksLikeIdentifier(value);
}


/** A secret-naming key (regex source): NAME's last part names a secret. */
export const SECRET_NAME =
  "(?:[A-Za-z][A-Za-z0-9]{0,40}[_.-]){0,8}[A-Za-z0-9]{0,30}?(?:api[_-]?key|apikey|key|keys|token|secret|password|passwd|pwd|pass|pass[_-]?phrase|credentials?|auth|private[_-]?key|client[_-]?secret|access[_-]?key|authtoken|auth[_-]?token|psk|(?<![A-Za-z0-9])pat)";

/**
 * `src` with each ASCII letter outside a character class or an escape made a class of both its
 * cases ("key" -> "[kK][eE][yY]"), so that the pattern needs no `i` flag: in a fresh hook
 * process the assignment rule's pattern is several times dearer to compile with `i`
 * (ICU's case closure of every class) than without (figures: docs/privacy.md "Cost"). Written by
 * hand: a pattern-to-pattern rewrite this small has no kept library. For sources whose classes
 * already hold both cases of any letter they hold (test/privacy/redact.test.ts compares the
 * rewritten rules with the `i` ones).
 */
export function caseless(src: string): string {
  return walkPattern(src, (s, i, inClass): readonly [string, number] => {
    const c = s[i]!;
    return [!inClass && c.charCodeAt(0) < 128 && c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c, 0];
  });
}

/**
 * Whether `re` (written in lower case, without the `i` flag) matches `s` as it would with the
 * flag: tried on the lower-cased text, since a fresh hook process compiles a caseless pattern at
 * several times the cost (the placeholder words: 1.47 M instructions against 0.35 M; docs/privacy.md
 * "Cost"). The same answer for an ASCII pattern: without the `u` flag, `i` folds no character
 * outside ASCII onto an ASCII one, and only two such characters lower-case to ASCII letters (the
 * Kelvin sign to "k", "İ" to "i" and a dot), so a text holding one is tried with the flag
 * (test/privacy/redact.test.ts compares both on generated texts).
 */
export function testCaseless(re: RegExp, s: string): boolean {
  if (s.includes("\u212A") || s.includes("\u0130")) return new RegExp(re.source, `${re.flags}i`).test(s);
  return re.test(s.toLowerCase());
}

/**
 * A random token of letters only (the ninth pass: Logz.io's shipping tokens are 32 letters): 20 or
 * more, both cases each at least a third of it, over 4 bits of entropy a character. Words joined
 * in camelCase have a capital every five letters or so ("ThisIsMyPasswordForTheServer": 7 of 28).
 */
export function letterToken(s: string): boolean {
  if (s.length < 20 || !/^[A-Za-z]+$/.test(s)) return false;
  const upper = (s.match(/[A-Z]/g) ?? []).length;
  return upper * 3 >= s.length && (s.length - upper) * 3 >= s.length && shannonEntropy(s) > 4;
}
