/**
 * The known-value scrubber: the exact values of the owner's own secrets, found wherever they
 * appear whatever their shape (the one case no pattern catches: a bare random string in prose,
 * a password of words). Two sources:
 *
 * - the environment variables of this process whose names look secret (held in memory only:
 *   they are in this process's memory already);
 * - a store of salted hashes (`known-secrets.json` in the state folder, mode 0600, written by
 *   known-store.ts from the environment and the `.env` files of the projects the ledger knows):
 *   each value as its length, a salted 32-bit rolling fingerprint and a salted SHA-256, never
 *   in clear. A text is read once per stored length with the rolling fingerprint, and only a
 *   window whose fingerprint matches is hashed.
 *
 * Why a rolling fingerprint and not a hash of every window: a hash per window and per length
 * costs a microsecond or more each; the fingerprint costs a few integer operations, and it gives
 * away 32 bits of a value whose SHA-256 is stored beside it anyway.
 *
 * Example: with `API_TOKEN=Zq8…` in the environment, `knownValueSpans("use Zq8… now")` -> its span.
 */
import { loadNodeCrypto } from "../../core/node-crypto-load.js";

export interface KnownEntry {
  /** The value's length in UTF-16 units. */
  n: number;
  /** Salted rolling fingerprint (rollingHash below). */
  fp: number;
  /** SHA-256 of the salt and the value, hex. */
  h: string;
}
export interface KnownStore {
  version: 1;
  /** Hex; a fresh random salt per store. */
  salt: string;
  /**
   * How many low bits of each fingerprint are kept (absent: all 32). A store pushed to a server
   * keeps 8 (known-push.ts): a fingerprint tells whoever holds the store that many bits of the
   * value, and 8 still spare the server hashing all but 1 window in 256.
   */
  fp_bits?: number;
  entries: KnownEntry[];
}

/** Names that look secret: a part that names a key, a token, a password or a credential. */
const SECRET_NAME = /(?:^|[_.-]|[a-z](?=[A-Z]))(?:api[_-]?key|key|token|secret|password|passwd|pwd|pass|passphrase|credentials?|auth|private[_-]?key|dsn|session|cookie)(?:$|[_.-])/i;
/** Names that end in a secret word but hold no secret (a path to one, a file, an id, a socket). */
const NOT_SECRET_NAME = /(?:_|^)(?:path|file|dir|sock|socket|id|url|name|type|host|port|user|username|timeout|length|len|size|count|mode|enabled|disabled|scope|ttl)$/i;

export function secretLookingName(name: string): boolean {
  return nameLooksSecret(name, SECRET_WORDS);
}

/** secretLookingName, where only `words` of SECRET_WORDS can occur in the name. */
function nameLooksSecret(name: string, words: readonly string[]): boolean {
  const lower = asciiLower(name);
  if (lower === null) return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
  return namesSecret(lower, words) && !namesNoSecret(lower);
}

// The same tests as SECRET_NAME and NOT_SECRET_NAME, for an ASCII name, by string searches:
// every capture's front reads its process's environment once, and in a fresh hook process the
// two caseless patterns cost more to compile (and recompile to machine code on their second
// name) than the searches cost to run (docs/privacy.md "Cost"). Without `u`, the `i` flag
// folds ASCII letters only, so on the lower-cased ASCII name they say what the patterns say
// (test/privacy/known-values.test.ts compares them on generated names). The words are
// SECRET_NAME's alternatives: `api[_-]?key` and `private[_-]?key` end in `key`, whose own
// match then holds; `credentials?` is both of its words.
const SECRET_WORDS = ["key", "token", "secret", "password", "passwd", "pwd", "pass", "passphrase", "credential", "credentials", "auth", "dsn", "session", "cookie"];
const NOT_SECRET_WORDS = ["path", "file", "dir", "sock", "socket", "id", "url", "name", "type", "host", "port", "user", "username", "timeout", "length", "len", "size", "count", "mode", "enabled", "disabled", "scope", "ttl"];

/** `s` lower-cased when it is all ASCII, else null. */
function asciiLower(s: string): string | null {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return null;
  return s.toLowerCase();
}

/** `_`, `.` or `-`. */
const isJoin = (c: number): boolean => c === 95 || c === 46 || c === 45;

/** SECRET_NAME on a lower-cased ASCII name: a secret word after the start, a joiner or a letter, before the end or a joiner. */
function namesSecret(lower: string, words: readonly string[]): boolean {
  for (const w of words) {
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + 1)) {
      const before = at === 0 ? 0 : lower.charCodeAt(at - 1);
      if (at > 0 && !isJoin(before) && !(before >= 97 && before <= 122)) continue;
      const end = at + w.length;
      if (end === lower.length || isJoin(lower.charCodeAt(end))) return true;
    }
  }
  return false;
}

/** NOT_SECRET_NAME on a lower-cased ASCII name: it ends in one of the words, whole or after `_`. */
function namesNoSecret(lower: string): boolean {
  for (const w of NOT_SECRET_WORDS) {
    if (lower.endsWith(w) && (lower.length === w.length || lower.charCodeAt(lower.length - w.length - 1) === 95)) return true;
  }
  return false;
}

/** The patterns themselves (for the test that compares them with the searches). */
export const NAME_PATTERNS = { secret: SECRET_NAME, notSecret: NOT_SECRET_NAME };

/**
 * A value worth remembering: 8 characters or more, not a number, a boolean, a path, a word or
 * words of one case, nor a reference to another variable. Short values would be found in
 * ordinary text by chance.
 *
 * Told by hand, a path first: the shell's `PWD` and `OLDPWD` look secret by name ("pwd") and
 * hold paths, so every capture's front asked this of two paths, and the patterns it used
 * (valuePatterns, which test/privacy/known-values.test.ts compares with this) cost a fresh hook
 * process about 1 M instructions to compile (docs/privacy.md "Cost").
 */
export function rememberableValue(v: string): boolean {
  const n = v.length;
  if (n < 8 || n > 4096) return false;
  const c0 = v.charCodeAt(0);
  // A path: "/", "./", "../", "~/" or a drive's "C:\".
  if (c0 === 47 || (c0 === 126 && v.charCodeAt(1) === 47) || (isAsciiLetter(c0) && v.charCodeAt(1) === 58 && v.charCodeAt(2) === 92)) return false;
  if (c0 === 46 && (v.charCodeAt(1) === 47 || (v.charCodeAt(1) === 46 && v.charCodeAt(2) === 47))) return false;
  if (isJsSpace(c0) || isJsSpace(v.charCodeAt(n - 1))) return false;
  // A number (the words true, false, null, none, yes, no, on and off are shorter than 8).
  if (isNumber(v)) return false;
  // A reference: "$" and a name's first character, or "${" and one.
  const ref = v.charCodeAt(1) === 123 ? v.charCodeAt(2) : v.charCodeAt(1);
  if (c0 === 36 && (isAsciiLetter(ref) || ref === 95)) return false;
  if (oneCaseWords(v)) return false;
  return true;
}

const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;

/** What `\s` takes in a pattern without the `u` flag (WhiteSpace and LineTerminator). */
function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** /^\d+(?:\.\d+)?$/ */
function isNumber(v: string): boolean {
  let i = 0;
  while (i < v.length && isDigitCode(v.charCodeAt(i))) i++;
  if (i === 0) return false;
  if (i === v.length) return true;
  if (v.charCodeAt(i) !== 46) return false;
  const from = ++i;
  while (i < v.length && isDigitCode(v.charCodeAt(i))) i++;
  return i > from && i === v.length;
}

/** /^[a-z]+(?:[ _-][a-z]+)*$/ or the same in upper case: words of one case joined by " ", "_" or "-". */
function oneCaseWords(v: string): boolean {
  const upper = v.charCodeAt(0) >= 65 && v.charCodeAt(0) <= 90;
  const lo = upper ? 65 : 97;
  let letters = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= lo && c <= lo + 25) letters++;
    else if ((c === 32 || c === 95 || c === 45) && letters > 0) letters = 0;
    else return false;
  }
  return letters > 0;
}

/** The patterns rememberableValue tells by hand (for the test that compares them; made when asked, not when the module loads). */
export const valuePatterns = (): RegExp[] => [/^\s|\s$/, /^\d+(?:\.\d+)?$/, /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)/, /^\$\{?[A-Za-z_]/, /^[a-z]+(?:[ _-][a-z]+)*$/, /^[A-Z]+(?:[ _-][A-Z]+)*$/];

/** The values of `env` whose names look secret and which are worth remembering. */
export function secretEnvValues(env: Record<string, string | undefined>): string[] {
  return secretEnvNamed(env).map((e) => e.value);
}

/** secretEnvValues with each value's name (the first name holding it): for a report that names, never shows. */
export function secretEnvNamed(env: Record<string, string | undefined>): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  const names = Object.keys(env);
  // A name holds a secret word only if the names joined hold it (lower-casing keeps an ASCII
  // word's letters together): most environments hold none, or one or two, and each name is
  // then searched for those alone. A value is read only under a secret-looking name.
  const joined = names.join("\n").toLowerCase();
  const words = SECRET_WORDS.filter((w) => joined.includes(w));
  if (words.length === 0) return out;
  // Only a name whose lower-cased text holds one of those words can look secret: the others are
  // passed over with a search of their piece of the join (the shell's PWD makes "pwd" one of the
  // words in most environments, and each name's full test cost a fresh hook process about 20 K
  // instructions). A name holding a newline would shift the pieces: then every name is tested.
  const lowered = joined.split("\n");
  const aligned = lowered.length === names.length;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (aligned && !words.some((w) => lowered[i]!.includes(w))) continue;
    if (!nameLooksSecret(name, words)) continue;
    const v = env[name];
    if (typeof v === "string" && rememberableValue(v) && !out.some((e) => e.value === v)) out.push({ name, value: v });
  }
  return out;
}

/** The fingerprint's base: odd, drawn from the salt so that a fingerprint means nothing without it. */
function baseOf(salt: string): number {
  let b = 0x9e3779b1;
  for (let i = 0; i < salt.length; i++) b = Math.imul(b ^ salt.charCodeAt(i), 0x85ebca6b) >>> 0;
  return (b | 1) >>> 0;
}

/** Polynomial hash of `s` modulo 2^32 with base `b`: sum of s[i] * b^(n-1-i). */
export function rollingHash(s: string, b: number): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, b) + s.charCodeAt(i)) >>> 0;
  return h;
}

function sha256Hex(salt: string, v: string): string {
  return loadNodeCrypto().createHash("sha256").update(salt).update("\u0000").update(v).digest("hex");
}

/** A store for `values` under `salt` (hex). */
export function buildStore(values: readonly string[], salt: string): KnownStore {
  const b = baseOf(salt);
  const seen = new Set<string>();
  const entries: KnownEntry[] = [];
  for (const v of values) {
    if (!rememberableValue(v)) continue;
    const h = sha256Hex(salt, v);
    if (seen.has(h)) continue;
    seen.add(h);
    entries.push({ n: v.length, fp: rollingHash(v, b), h });
  }
  return { version: 1, salt, entries };
}

/** Every [start, end) where a stored value occurs in `text`. */
export function storeSpans(text: string, store: KnownStore): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  if (store.entries.length === 0) return found;
  const b = baseOf(store.salt);
  const mask = fpMask(store.fp_bits);
  const byLength = new Map<number, Map<number, string[]>>();
  for (const e of store.entries) {
    if (e.n > text.length) continue;
    let fps = byLength.get(e.n);
    if (fps === undefined) byLength.set(e.n, (fps = new Map()));
    const fp = (e.fp & mask) >>> 0;
    fps.set(fp, [...(fps.get(fp) ?? []), e.h]);
  }
  for (const [n, fps] of byLength) {
    // b^n modulo 2^32, to take the leaving character out of the window.
    let bn = 1;
    for (let i = 0; i < n; i++) bn = Math.imul(bn, b) >>> 0;
    let h = rollingHash(text.slice(0, n), b);
    for (let at = 0; ; at++) {
      const hashes = fps.get((h & mask) >>> 0);
      if (hashes !== undefined && hashes.includes(sha256Hex(store.salt, text.slice(at, at + n)))) found.push([at, at + n]);
      if (at + n >= text.length) break;
      h = (Math.imul(h, b) - Math.imul(text.charCodeAt(at), bn) + text.charCodeAt(at + n)) >>> 0;
    }
  }
  return found;
}

/** The mask of a store's kept fingerprint bits (1-32; absent: 32). */
export function fpMask(bits: number | undefined): number {
  return bits === undefined || bits >= 32 ? 0xffffffff : ((1 << bits) - 1) >>> 0;
}

/** Every [start, end) where one of `values` occurs in `text`. */
export function valueSpans(text: string, values: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const v of values) {
    for (let at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + 1)) found.push([at, at + v.length]);
  }
  return found;
}

/** A parsed store, or a CodedError-free null when the text is not one (a bad store scrubs nothing more). */
export function parseStore(text: string): KnownStore | null {
  try {
    const s = JSON.parse(text) as KnownStore;
    if (s.version !== 1 || typeof s.salt !== "string" || !Array.isArray(s.entries)) return null;
    if (s.fp_bits !== undefined && !(Number.isInteger(s.fp_bits) && s.fp_bits >= 1 && s.fp_bits <= 32)) return null;
    const ok = s.entries.every((e) => Number.isInteger(e.n) && e.n > 0 && Number.isInteger(e.fp) && typeof e.h === "string" && /^[0-9a-f]{64}$/.test(e.h));
    return ok ? s : null;
  } catch {
    return null;
  }
}

/** The `.env` files read in a project folder (by `errata secrets learn`, and by a door writing from the folder: known-store.ts). */
export const DOT_ENV_FILES = [".env", ".env.local", ".env.development", ".env.development.local", ".env.production", ".env.production.local", ".env.test", ".env.test.local"];

/** `NAME=value` lines of a `.env` file (`export`, quotes and trailing comments handled): name and value. */
export function parseDotEnv(text: string): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*(.*)$/.exec(raw);
    if (m === null) continue;
    let value = m[2]!.trim();
    const q = value[0];
    if ((q === '"' || q === "'" || q === "`") && value.indexOf(q, 1) > 0) value = value.slice(1, value.indexOf(q, 1));
    else value = value.replace(/\s+#.*$/, "");
    out.push({ name: m[1]!, value });
  }
  return out;
}

/**
 * The values of a `.env` file worth remembering: those under a secret-looking name, and any
 * random-looking value of 16 characters or more whatever its name (a `.env` file is where
 * projects keep their secrets, under names of every kind: `STRIPE_SK`, `DATABASE_URL`).
 */
export function dotEnvValues(text: string): string[] {
  return dotEnvNamed(text).map((e) => e.value);
}

/** dotEnvValues with each value's name (the first line's holding it). */
export function dotEnvNamed(text: string): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const { name, value } of parseDotEnv(text)) {
    if (!rememberableValue(value)) continue;
    const randomish = value.length >= 16 && /[A-Za-z]/.test(value) && /\d/.test(value);
    if ((secretLookingName(name) || randomish) && !out.some((e) => e.value === value)) out.push({ name, value });
  }
  return out;
}
