/**
 * Kept by their place, whichever rule found them (the twelfth-set pass; called from keptByPlace10,
 * so applied to every rule's finding): what a command prints or a table stores beside a secret's
 * shape and is none.
 * - a password's hash in the modular form (`<algorithm>$<rounds>$<salt>$<hash>`: Django's and
 *   passlib's `pbkdf2_sha256$600000$…$…`), stored to check passwords, as `$2y$…` and `{SSHA}…` are;
 * - a public key's id or fingerprint given to a command that fetches, searches, lists or exports
 *   public keys (`--recv-keys <id>`, `--search-keys`, `--fingerprint`, `--list-keys`);
 * - a UUID under a UUID's label (`UUID: GPU-<uuid>`, `guid=<uuid>`; not `Secret ID = <uuid>`), a kind's short
 *   capital prefix allowed;
 *
 * Example: `keptBySilentPlace("--recv-keys A1D7…7FEB", 12, 21)` -> true when the value is hex.
 */

const MODULAR_HASH = /^[a-z][a-z0-9_-]{1,30}\$\d{1,8}\$[A-Za-z0-9./+=_-]{4,}\$[A-Za-z0-9./+=_-]{16,}$/;
const KEY_LOOKUP = /--(?:recv|search|refresh|list|export|locate|fetch)-keys?[ \t]+(?:[0-9A-Fa-fx]{8,40}[ \t]+)*$|--fingerprint[ \t]+$/;
const UUID_LABEL = /\b(?:uuid|guid)\b["']?[ \t]*[:=][ \t]*["']?$/i;
const PREFIXED_UUID = /^(?:[A-Z]{2,5}-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function keptBySilentPlace(text: string, start: number, end: number): boolean {
  const value = text.slice(start, end);
  if (value.includes("$") && MODULAR_HASH.test(value)) return true;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 200), start);
  if (/^(?:0x)?[0-9A-Fa-f]{8,40}$/.test(value) && KEY_LOOKUP.test(before)) return true;
  if (PREFIXED_UUID.test(value) && UUID_LABEL.test(before)) return true;
  return false;
}
