/**
 * One rule for a secret told by its context, wherever the context stands (docs/privacy.md "Context,
 * not families"): a word that names a secret (context-words.ts: a name's part in any syntax,
 * `DB_PASSWORD`, `x-api-key`, `-JumpCloudApiKey`, `setRequestBasicAuth`, or a word for password in
 * a sentence of any of some fifty languages), then a value that passes one test (not a word, a
 * number, a path, a reference, a placeholder, an identifier, a version, an id under an id's name):
 * - on the same line, after the name and at most five connecting words or signs (`=`, `:`, `=>`,
 *   a quote, a cell's `|`, "is", "ist", "est", "là"…), in any syntax: an assignment, a flag, a
 *   call's arguments, a header pair, a table's row, a sentence;
 * - or alone on the first line that is not blank after the name's line (a command that prints a
 *   secret, a sentence that announces one, a heading over it), a short label (`New value:`) and a
 *   log's `<service> | ` prefix allowed.
 * A hit that is a word of prose must be a strong one (password, secret, credentials, a word for
 * password); "key", "token", "auth", "session" count only inside a name (a compound, a flag, a
 * key before ":" or "=", after "API" or "access"). The finder is a scan of the text (no pattern
 * over the text): its pre-filter witness is the finder itself (`contextSecretWitness`), so a text
 * without a secret's word pays a few searches of the lower-cased text.
 *
 * Example: `findContextSecrets("la contraseña del wifi es T7v!kQ92mZ")` -> one span, the value;
 * `findContextSecrets("the password hash is 5f4dcc3b5aa765d61d8327deb882cf99")` -> none.
 */
import type { OwnRule } from "./own-rules.js";
import { generatedKey, held } from "./own-families.js";
import { encodedText, looksLikeIdentifier, namedPassword, slashKey, strongRandom } from "./own-shapes.js";
import { notASecret } from "./placeholders.js";
import { scanContext, type Strength } from "./context-find.js";

export { contextSecretWitness } from "./context-find.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A word-like share: runs of three letters or more with a vowel, over half the value ("Summer2024!", "iPhone15Pro"). */
function wordish(v: string): boolean {
  let n = 0;
  for (const m of v.matchAll(/[A-Z]?[a-z]{2,}/g)) if (/[aeiouy]/.test(m[0].slice(1)) && m[0].length >= 3) n += m[0].length;
  return n * 2 >= v.length;
}

/** Base64 of printable text that is no `user:password` pair (`UGFzc3dvcmQ6`, "Password:"): a prompt or a label encoded, no secret. */
function base64Words(v: string): boolean {
  if (v.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v)) return false;
  const t = Buffer.from(v, "base64").toString("latin1");
  return /^[\x20-\x7e]+$/.test(t) && /[A-Za-z]{4}/.test(t) && !/^[^:]+:[^:]{4,}$/.test(t);
}

/**
 * The value test: what a secret's name holds rather than a word, a number, a path, a reference, a
 * placeholder, an identifier, a version or a date. A strong name's value may be a password of two
 * classes (`0bbsldtxzt86`); a weak name's must be generated (random, hex of 16 or more, a key's parts).
 */
export function contextValue(v: string, strength: Strength): boolean {
  if (v.length < 8 || v.length > 300 || !held(v) || notASecret(v)) return false;
  if (v.startsWith("/") ? !slashKey(v) : /^[~.\\$%{<#&]/.test(v)) return false;
  if (/:\/\/|@[A-Za-z0-9-]+\.[A-Za-z]|\[REDACTED|^\*+$|^[xX*•.]{4,}/.test(v)) return false;
  if (/^v?\d+(?:[.:/-]\d+)+[A-Za-z]?$|^\d{4}-\d\d-\d\d/.test(v) || looksLikeIdentifier(v)) return false;
  if (/\.(?:[a-z]{1,4})$/.test(v) && /^[A-Za-z0-9_-]+\.[a-z]{1,4}$/.test(v) && !/\d.*[A-Za-z].*\d/.test(v.slice(0, -4))) return false; // a file's name
  // A password's hash (`{SSHA}…`, `$2y$…`, `$apr1$…`) or a key's label (`e2b_key:`) is no secret.
  // An assignment glued inside (`…NAME=value`): no one value.
  if (/=[^=]/.test(v)) return false;
  if (/\{(?:S?SHA\d*|S?MD5|CRYPT|PBKDF2[^}]*|ARGON2[^}]*)\}|\$(?:2[abxy]?|apr1|[156]|y|argon2\w*|scrypt|pbkdf2[\w-]*)\$|:$/i.test(v)) return false;
  // A pattern's classes (`[A-Za-z0-9_-]{16}`), a template (`sk-${…}`), an elided example (`a1b2…-7890`), an env name (`API_KEY_2`).
  if (/[a-zA-Z]-[a-zA-Z]|0-9|\\|\(\?|\$$|\$\{|….|\.\.\.[^.]/.test(v) || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v)) return false;
  // A slug of words (`h8-json-body`, `build-cache-v2-linux`): three parts or more, half of them
  // words, and none a generated run (16 characters or more with a digit beside a letter): a key's
  // prefix of words before its random body (`secret_live_…`) is no slug.
  const ps = v.split(/[-_.:/]/);
  if (ps.length >= 3 && 2 * ps.filter((p) => /^[A-Za-z]{2,}$/.test(p)).length >= ps.length && !ps.some((p) => p.length >= 16 && /\d[A-Za-z]|[A-Za-z]\d/.test(p))) return false;
  if (UUID.test(v)) return true;
  if (/^[0-9a-fA-F]+$/.test(v)) return v.length >= (strength === "strong" ? 16 : 32) && /\d/.test(v) && /[a-fA-F]/.test(v) && !/^(.)\1+$/.test(v);
  if (encodedText(v) || base64Words(v)) return false;
  if (generatedKey(v) || strongRandom(v)) return true;
  if (!/\d/.test(v) || !/[A-Za-z]/.test(v) || wordish(v)) return false;
  if (namedPassword(v)) return strength === "strong" || v.length >= 12;
  // Two classes (one case and digits): a generated password's shape after a strong name only.
  const digits = (v.match(/\d/g) ?? []).length;
  return strength === "strong" && v.length >= 10 && digits >= 2 && v.length - digits >= 3 && /^[A-Za-z0-9]+$/.test(v) && /\d[A-Za-z]|[A-Za-z]\d/.test(v);
}

/** Every value a secret's name or word tells, as spans of `text`. */
export function findContextSecrets(text: string, lower?: string): Array<[number, number]> {
  return scanContext(text, contextValue, lower);
}

export const CONTEXT_SECRET_RULES: readonly OwnRule[] = [
  {
    kind: "context-secret",
    // The finder reads the text (find); `re` is what every finding holds, for the tests that make texts from a rule's pattern.
    re: /[^\s"'`:=,;()[\]{}<>|]{8,300}/g,
    find: (text) => findContextSecrets(text),
  },
];
