/**
 * Forms of values that are no secret whatever rule found them, added in issue 34's tenth pass
 * (over-redaction down; docs/privacy.md "Upstream samples"). Each is a form, not a sample:
 *
 * - **A public client key, by its own prefix** (`AIK_CLIENT_…` under `AIK_CLIENT_ID`,
 *   `SB-Mid-client-…` under `MIDTRANS_CLIENT_KEY`): a prefixed token whose prefix holds the word
 *   "client", "public", "publishable" or "pub" as a part and no part that names a secret
 *   ("secret", "server", "private", "sk", "priv"), under no name that names a secret or a bearer
 *   credential (a strong name, or one holding "secret", "pass", "token", "auth" or "session"). Providers that issue a client key beside a server key say
 *   which is which in the prefix (Midtrans' `Mid-client-`/`Mid-server-`, Aikido's `AIK_CLIENT_`/
 *   `AIK_SECRET_`); the client one goes into a page or an app, as a publishable key does.
 * - **A test value typed by hand under a machine key's name** (`exoscale_api_key = "EXOabc123"`):
 *   the fragments upstream-verdict.ts's testValue reads ("abc", "123", "test", …), after a
 *   provider's tag in capitals or a prefix. A key or token name (`api_key`, `access_key`,
 *   `*_token`) names what a machine makes; a password or a secret of the owner's choosing may be
 *   typed ("test123" under `password` stays redacted).
 *
 * Example: `clientKeyPrefix("AIK_CLIENT_a1B2c3D4e5F6g7H8i9J0k1", "AIK_CLIENT_ID")` -> true.
 */
import { STRONG_NAMES } from "./own-shapes.js";

const CLIENT_PART = /^(?:client|public|publishable|pub)$/;
const SECRET_PART = /^(?:secret|server|private|priv|sk|key|token|admin|live)$/;

/**
 * Whether `token`'s own prefix (its parts before the last "_" or "-" that is followed by a body of
 * 12 or more letters and digits) names a client key and no secret, and `name` (the key it is set
 * under, "" for none) names no secret.
 */
export function clientKeyPrefix(token: string, name: string): boolean {
  const lowerName = name.toLowerCase();
  // A token's or a session's name says the value is a bearer credential whatever its prefix says.
  if (STRONG_NAMES.test(lowerName) || /secret|pass|pwd|cred|token|auth|bearer|session/.test(lowerName)) return false;
  const m = /^((?:[A-Za-z0-9]+[_-]){1,4})[A-Za-z0-9]{12,}$/.exec(token);
  if (m === null) return false;
  const parts = m[1]!.toLowerCase().split(/[_-]/).filter((p) => p !== "");
  return parts.some((p) => CLIENT_PART.test(p)) && !parts.some((p) => SECRET_PART.test(p));
}

/** Names of keys a machine makes (an API key, an access key, a token), not of a password or a secret. */
export function machineKeyName(name: string): boolean {
  const lower = name.toLowerCase();
  return /(?:api[_-]?key|apikey|access[_-]?key|token)$/.test(lower) && !/secret|pass|pwd|cred|private/.test(lower);
}

/**
 * clientKeyPrefix for the finding at [start, end) of `text`, read with the token run it ends
 * (a rule may take the body alone, after "pub_client_"), under the name `nameAt` reads before the run.
 */
export function clientKeyAt(text: string, start: number, end: number, nameAt: (at: number) => string): boolean {
  let from = start;
  while (from > 0 && start - from < 40 && /[A-Za-z0-9_-]/.test(text[from - 1]!)) from--;
  return clientKeyPrefix(text.slice(from, end), nameAt(from));
}

/**
 * A prefix and a body of 8 letters and digits or fewer (`ucat_01DQE3`, `tok_a1b2`): no key a
 * machine makes is that short after its prefix (8 of 62 symbols is under 48 bits, found by an
 * online guesser); for a machine key's name only (machineKeyName), since a password may be short.
 */
export function shortPrefixedValue(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9]{1,7}[_-][A-Za-z0-9]{1,8}$/.test(value);
}

/**
 * The stopwords of gitleaks' generic rule found in `value`, less those that stand only inside the
 * value's prefix without being it (`cat_` in `ucat_…`) or that are the whole prefix and of 4
 * letters or fewer (`php_…`, `rpc_…`): a piece of a provider's prefix, or a short one, is no word
 * of the value. Found by sampling in the tenth pass: under `token = ucat_<12-15 random>` about half
 * the values were kept in clear (the stopword's removal left the random body under 16), while the
 * same bodies behind `tok_` or `key_` were redacted. A whole prefix that is a stopword of 5
 * letters or more (`sandbox_…`) still counts.
 */
export function stopwordsPastPrefix(value: string, words: readonly string[]): string[] {
  const prefix = /^[A-Za-z][A-Za-z0-9]{1,11}[_-]/.exec(value)?.[0] ?? "";
  const lower = value.toLowerCase();
  return words.filter((w) => {
    const lw = w.toLowerCase();
    for (let at = lower.indexOf(lw); at >= 0; at = lower.indexOf(lw, at + 1)) {
      // Inside the prefix: a piece of it, or the whole of it when short (a 2-4 letter word such as
      // "php_", "net_", "rpc_" is what a random prefix spells by chance).
      const inside = at + lw.length <= prefix.length && (at > 0 || lw.replace(/[_-]$/, "").length <= 4);
      if (!inside) return true;
    }
    return false;
  });
}

/**
 * A name that says its value names an object kept elsewhere (`existingSecret`, `existing_secret`:
 * Helm charts' convention for "use the Kubernetes Secret of this name", `existingSecret:
 * ledger-db`), over a value that is such a name: lower-case words and digits joined by "-" or "."
 * (Kubernetes' DNS-1123 names), with no random run (a part of 8 or more holding two digits). A
 * random value under that name is no object's name and stays redacted (issue 34, twelfth pass).
 */
export function existingObjectName(name: string, value: string): boolean {
  // The name says no more than that (`existingSecretPassword` names a password: its value is one).
  if (!/^existing[_.-]?secrets?(?:[_.-]?name)?$/.test(name.toLowerCase())) return false;
  if (value.length > 253 || !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/.test(value)) return false;
  return !value.split(/[.-]/).some((p) => p.length >= 8 && (p.match(/\d/g) ?? []).length >= 2);
}
