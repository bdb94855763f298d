/**
 * The value tests of the silent-secret rules (silent-secrets.ts; docs/privacy.md "A twelfth
 * held-out set"): a value that nothing beside it names, told by its place and by a shape a
 * person or a generator makes and an id or a digest does not.
 *
 * Example: `typedPassword("<a 14 of both cases and digits>")` -> true; `typedPassword("fieldtech")` -> false;
 * `generatedRun("<32 random lower-case letters and digits>")` -> true; `generatedRun("dashboard")` -> false.
 */
import { held } from "./own-families.js";
import { encodedText, entropyFloor, looksLikeIdentifier, oneCaseToken, strongRandom } from "./own-shapes.js";
import { shannonEntropy } from "./entropy.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^(?:[0-9a-f]+|[0-9A-F]+)$/;

/** Word-like runs (three letters or more with a vowel) over half the value: `Summer2024!`, `iPhone15Pro`, `inputSha256`. */
export function wordLike(v: string): boolean {
  let n = 0;
  for (const m of v.matchAll(/[A-Z]?[a-z]{2,}/g)) if (m[0].length >= 3 && /[aeiou]/.test(m[0].slice(1))) n += m[0].length;
  return n * 2 >= v.length;
}

/** Hex of one case, `min` digits or more, not one digit repeated: a key's or a digest's bytes. */
export function hexRun(v: string, min = 32): boolean {
  return v.length >= min && HEX.test(v) && /[0-9]/.test(v) && /[a-fA-F]/.test(v) && !/^(.)\1+$/.test(v);
}

/**
 * A password as a person or a password manager types it: 10 to 64 characters without a blank,
 * upper- and lower-case letters and a digit, no path, URL or reference, not an identifier's parts
 * (`SalesResults-1.2`) nor word-like (`Summer2024!`).
 */
export function typedPassword(v: string): boolean {
  if (v.length < 10 || v.length > 64 || /[\s"'`,;()[\]{}<>]/.test(v)) return false;
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || !/\d/.test(v)) return false;
  if (/:\/\/|^[~./\\$%{<#&@]|@.*\.|\[REDACTED|=/.test(v) || !held(v) || looksLikeIdentifier(v)) return false;
  return !wordLike(v) && shannonEntropy(v) >= 3 && !encodedText(v); // base64 of text (a JWT's header) is no password
}

/**
 * A run of one case, letters and digits, that a generator made: 16 characters or more, three
 * digits and three letters beyond hex or more, entropy above a random token's floor for its
 * length (`oneCaseToken` asks 32 characters and four of each).
 */
function oneCaseRandom(v: string): boolean {
  if (v.length < 16 || !/^(?:[a-z0-9]+|[A-Z0-9]+)$/.test(v)) return false;
  if ((v.match(/\d/g) ?? []).length < 3 || (v.match(/[g-zG-Z]/g) ?? []).length < 3) return false;
  return shannonEntropy(v) >= entropyFloor(v.length) - 0.3;
}

/**
 * What a key generator makes, whole or as the random part after a short prefix (`re_4273807_…`):
 * a strong random token, a random run of one case, or (with `hex`) hex of 24 digits or more or a
 * UUID. Base64 with "/" and "+" counts when its letters and digits are such a token.
 */
export function generatedRun(v: string, hex = true): boolean {
  if (v.length < 16 || v.length > 200 || !held(v)) return false;
  if (hex && (hexRun(v, 24) || UUID.test(v))) return true;
  if (HEX.test(v)) return false;
  const body = v.replace(/[+/]/g, "").replace(/=+$/, "");
  if (strongRandom(body) || oneCaseToken(body) || oneCaseRandom(body)) return !wordLike(body);
  const parts = v.split(/[_~.-]/);
  return parts.length > 1 && parts.some((p) => p.length >= 12 && (hexRun(p, 12) || oneCaseRandom(p) || strongRandom(p)));
}
