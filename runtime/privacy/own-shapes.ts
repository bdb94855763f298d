/**
 * What the own rules (own-rules.ts) read a value or a name by: random-looking tokens of both
 * cases, of one case, standing alone; URL segments; values and names that are no secret's; the
 * secret-naming key's pattern and its caseless rewrite. Split from own-rules.ts to keep each
 * file a reader's size.
 */
import { walkPattern } from "../../core/pattern-walk.js";
import { shannonEntropy } from "./gitleaks.js";
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
 * letters and digits (at most three "_" or "-"), both cases and two digits or more, more than
 * 3.5 bits of entropy per character, and under half of it in word-like runs (camelCase names
 * such as `handleSubmitButtonClick2Async` are identifiers).
 */
export function bareToken(s: string): boolean {
  // A hex string in both cases is a digest or a format's example, not a key of 62 symbols.
  if (s.length < 24 || !tokenBody(s) || (s.match(/\d/g) ?? []).length < 2 || !/[g-zG-Z]/.test(s)) return false;
  let words = 0;
  for (const m of s.matchAll(/[A-Z]?[a-z]{4,}/g)) words += m[0].length;
  return words < 0.5 * s.length;
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

/** Values after a secret-named key that are clearly not secrets: numbers, booleans, paths, placeholders, references. */
export function looksLikeValueNotSecret(value: string): boolean {
  if (/^\d+(\.\d+)?$/.test(value)) return true;
  if (/^(true|false|null|none|undefined|required|optional|yes|no)$/.test(value.toLowerCase())) return true;
  if (/^(\.{0,2}\/|~\/)/.test(value)) return true; // a path
  if (/^(process\.env\b|os\.environ|env\(|secrets\.|vars\.)/.test(value)) return true; // a reference, not a value
  return false;
}

/** Bare generic names ("key=value", "auth=basic"): only a random-looking value counts as a secret. */
const WEAK_NAMES = /^(key|keys|auth|pass|pwd)$/;
/**
 * Names that end in "key" or "token" but name a column, an index or a limit, not a secret
 * ("primary_key", "sort_key", "cache_key", "idempotency_key", "max_tokens", "key_id").
 */
export const NOT_SECRET_NAMES =
  /(?:^|[_.-])(?:primary|foreign|sort|partition|cluster(?:ing)?|shard(?:ing)?|range|hash|row|index|unique|composite|natural|surrogate|sequence|lookup|join|cache|idempotency|dedupe?|dedup|public|publishable|max|min|num|total|count)[_.-]?(?:keys?|tokens?)$|(?:keys?|tokens?)[_.-]?(?:id|ids|name|names|type|path|file|count|limit|size|length|prefix|url|uri|endpoint)$/;
/** Strong names: whatever the value looks like (words included), it is a secret. */
export const STRONG_NAMES = /(?:password|passwd|passphrase|secret|private[_-]?key|api[_-]?key|apikey|access[_-]?key|credentials?)$/;

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
  if (NOT_SECRET_NAMES.test(name)) return true;
  if (WEAK_NAMES.test(name) && !looksRandom(value)) return true;
  return !STRONG_NAMES.test(name) && looksLikeIdentifier(value);
}


/** A secret-naming key (regex source): NAME's last part names a secret. */
export const SECRET_NAME =
  "(?:[A-Za-z][A-Za-z0-9]{0,40}[_.-]){0,8}[A-Za-z0-9]{0,30}?(?:api[_-]?key|apikey|key|keys|token|secret|password|passwd|pwd|pass|passphrase|credentials?|auth|private[_-]?key|client[_-]?secret|access[_-]?key|authtoken|auth[_-]?token|psk|(?<![A-Za-z0-9])pat)";

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

