/**
 * Kept by their place, whichever rule found them (the twelfth-set pass; called from keptByPlace10,
 * so applied to every rule's finding): what a command prints or a table stores beside a secret's
 * shape and is none.
 * - a password's hash in the modular form (`<algorithm>$<rounds>$<salt>$<hash>`: Django's and
 *   passlib's `pbkdf2_sha256$600000$…$…`), stored to check passwords, as `$2y$…` and `{SSHA}…` are;
 * - a hash under an RFC 2307 scheme (`{SHA}…`, `{SSHA512}…`) at a finding's end, the same check stored in
 *   htpasswd's and LDAP's form (under JSON's escapes a rule may read `\nana:{SHA}…` as a command's argument);
 * - a public key's id or fingerprint given to a command that fetches, searches, lists or exports
 *   public keys (`--recv-keys <id>`, `--search-keys`, `--fingerprint`, `--list-keys`);
 * - a UUID under a UUID's label (`UUID: GPU-<uuid>`, `guid=<uuid>`; not `Secret ID = <uuid>`), a kind's short
 *   capital prefix allowed;
 *
 * Example: `keptBySilentPlace("--recv-keys A1D7…7FEB", 12, 21)` -> true when the value is hex.
 */

/** `<algorithm>$<parameters…>$<salt>$<hash>`, the algorithm a password hash's (Django's `pbkdf2_sha256$…`, `argon2$argon2id$v=19$…`, `bcrypt_sha256$…`). */
const MODULAR_HASH = /^\$?(?:pbkdf2|argon2|bcrypt|scrypt|sha\d+|md5|crypt|yescrypt)[a-z0-9_-]{0,20}(?:\$[A-Za-z0-9./+=_,-]{1,80}){2,5}$/i;
/** The run of a hash's characters and `$` around a finding (a rule may have taken only its last part). */
function dollarRun(text: string, start: number, end: number): string {
  const inRun = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9./+=_,$-]/.test(c);
  let a = start;
  let z = end;
  while (a > 0 && inRun(text[a - 1])) a--;
  while (z < text.length && inRun(text[z])) z++;
  return text.slice(a, z);
}
/** A hash under an RFC 2307 scheme (`{SHA}`, `{SSHA512}`, `{CRYPT}`: htpasswd's and LDAP's `userPassword`), at the finding's end: the same kind of stored check as the modular form. */
const SCHEME_HASH = /\{(?:S?SHA(?:1|224|256|384|512)?|S?MD5|CRYPT|BCRYPT|PBKDF2[A-Z0-9_-]*|ARGON2[A-Z0-9]*)\}[A-Za-z0-9+/=.$]{8,}$/i;
const KEY_LOOKUP = /--(?:recv|search|refresh|list|export|locate|fetch)-keys?[ \t]+(?:[0-9A-Fa-fx]{8,40}[ \t]+)*$|--fingerprint[ \t]+$/;
const UUID_LABEL = /\b(?:uuid|guid)\b["']?[ \t]*[:=][ \t]*["']?$/i;
const PREFIXED_UUID = /^(?:[A-Z]{2,5}-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function keptBySilentPlace(text: string, start: number, end: number): boolean {
  const value = text.slice(start, end);
  if (text.includes("$") && MODULAR_HASH.test(dollarRun(text, start, end))) return true;
  if (value.includes("{") && SCHEME_HASH.test(value)) return true;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 200), start);
  // A search and a length first: called for every finding of every rule, and each pattern costs
  // its compiling in a fresh hook process (KEY_LOOKUP's every match holds "--"; PREFIXED_UUID's is 36 to 42 long).
  if (before.includes("--") && /^(?:0x)?[0-9A-Fa-f]{8,40}$/.test(value) && KEY_LOOKUP.test(before)) return true;
  if (value.length >= 36 && value.length <= 42 && PREFIXED_UUID.test(value) && UUID_LABEL.test(before)) return true;
  return false;
}
