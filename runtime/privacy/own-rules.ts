/**
 * The redactor's own rules: only shapes that no kept rule set (gitleaks' rules, see
 * gitleaks.ts) catches, found by running the corpus through each set (docs/privacy.md has
 * the table). They are of three sorts: secrets that were cut short (a PEM block without its
 * END line, a JWT or a token clipped by a summary's "…"), secrets that sit in a place rather
 * than a shape (a URL's password, an Authorization header, a value named by its key, quoted
 * or not), and what is personal rather than secret (e-mail addresses). Provider prefixes
 * gitleaks lacks are kept here too (Groq, xAI, Replicate, OpenAI keys without their marker).
 *
 * Each rule has a cheap `need` (a literal every match contains) so ordinary text costs a
 * few `includes`; `redactSecretsUnfiltered` (tests) runs every regex to prove the `need`s
 * skip no match.
 */

export interface OwnRule {
  kind: string;
  re: RegExp;
  /** `t` is the text, `lower` its lower-cased copy (made on demand). Absent: always run. */
  need?: (t: string, lower: () => string) => boolean;
  /** Builds the replacement from the match; default: the whole match becomes the marker. */
  replace?: (marker: string, ...groups: string[]) => string;
}

import { walkPattern } from "../../core/pattern-walk.js";
import { shannonEntropy } from "./gitleaks.js";

const B = "(?<![A-Za-z0-9_-])"; // token start: not inside a longer word
const E = "(?![A-Za-z0-9_-])"; // token end

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
 * A URL path segment that is a token: a token body, where a long base64url segment may hold
 * a few more "_" and "-" (about one in sixteen characters, as random base64url does) than
 * a slug of words would leave once they are taken out.
 */
function urlSegmentToken(seg: string): boolean {
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
function documentId(pre: string): boolean {
  const segs = pre.split("/");
  return DOCUMENT_SEGMENTS.test(segs[segs.length - 2] ?? "");
}

/** A token after a secret word in prose: letters and digits, and more than 3 bits of entropy per character. */
function proseToken(s: string): boolean {
  return /[A-Za-z]/.test(s) && (s.match(/\d/g) ?? []).length >= 2 && shannonEntropy(s) > 3 && !looksLikeIdentifier(s);
}

/** Values after a secret-named key that are clearly not secrets: numbers, booleans, paths, placeholders, references. */
function looksLikeValueNotSecret(value: string): boolean {
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
const NOT_SECRET_NAMES =
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
function looksLikeIdentifier(value: string): boolean {
  if (/^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*$/.test(value) && !looksRandom(value.replace(/[_.-]/g, ""))) return true;
  const parts = value.split(/[_.:-]/);
  if (parts.length < 2 || parts.some((p) => p === "")) return false;
  return parts.every((p) => /^\d{1,4}$/.test(p) || /^[A-Z]{1,12}$/.test(p) || /^(?:[A-Z]?[a-z]{2,})+$/.test(p));
}

// The name lists are tried on the lower-cased name, not with the `i` flag: each caseless
// pattern costs a fresh hook process several times as much to compile (docs/privacy.md "Cost").
function keepAssignment(name: string, value: string): boolean {
  if (looksLikeValueNotSecret(value)) return true;
  name = name.toLowerCase();
  if (NOT_SECRET_NAMES.test(name)) return true;
  if (WEAK_NAMES.test(name) && !looksRandom(value)) return true;
  return !STRONG_NAMES.test(name) && looksLikeIdentifier(value);
}

/** Tools whose command line can carry a password (the password-flag rule). */
const PASSWORD_TOOLS = ["sshpass", "mysql", "mariadb", "redis-cli", "psql", "smbclient", "htpasswd"];

/** A secret-naming key (regex source): NAME's last part names a secret. */
export const SECRET_NAME =
  "(?:[A-Za-z][A-Za-z0-9]{0,40}[_.-]){0,8}[A-Za-z0-9]{0,30}?(?:api[_-]?key|apikey|key|keys|token|secret|password|passwd|pwd|pass|passphrase|credentials?|auth|private[_-]?key|client[_-]?secret|access[_-]?key|authtoken|auth[_-]?token)";

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

/** Every secret name of the assignment rule contains one of these (lower-cased). */
const SECRET_NAME_PARTS = ["key", "token", "secret", "pass", "pwd", "cred", "auth"];

/**
 * Runs before gitleaks' rules: a key block that gitleaks' rule would miss when cut, and the
 * Authorization headers.
 */
export const EARLY_RULES: readonly OwnRule[] = [
  {
    kind: "private-key",
    // A whole block, or a block cut off before its END line.
    need: (t) => t.includes("-----BEGIN "),
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  // Headers before gitleaks' curl rule, so a header's token is a bearer-token whatever tool sent it.
  {
    kind: "bearer-token",
    need: (t) => t.includes("Bearer"),
    re: /\b(Bearer\s+)(?!\[REDACTED)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "basic-auth",
    need: (_t, lower) => lower().includes("basic"),
    re: /\b(Authorization:\s*Basic\s+)([A-Za-z0-9+/]{8,}=*)/gi,
    replace: (m, pre) => `${pre}${m}`,
  },
];

/** Runs after gitleaks' specific rules and before its generic one. */
export const SPECIFIC_RULES: readonly OwnRule[] = [
  {
    kind: "jwt",
    // A header and a payload are enough: a token clipped before (or inside) its signature
    // still carries its claims.
    need: (t) => t.includes("eyJ"),
    re: new RegExp(`${B}eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{4,}(?:\\.[A-Za-z0-9_-]*)?`, "g"),
  },
  // Before the OpenAI rule, whose sk- would take it.
  { kind: "anthropic-api-key", need: (t) => t.includes("sk-ant-"), re: new RegExp(`${B}sk-ant-[a-z]+[0-9]{0,3}-[A-Za-z0-9_-]{20,}${E}`, "g") },
  {
    kind: "openai-api-key",
    // OpenAI keys without the T3BlbkFJ marker gitleaks requires, and OpenAI-style keys of
    // other providers (OpenRouter, DeepSeek). The body must look random, so
    // "sk-this-is-a-task-description" stays.
    need: (t) => t.includes("sk-"),
    re: new RegExp(`${B}(sk-(?:proj-|svcacct-|admin-|or-v1-)?)([A-Za-z0-9_-]{20,})${E}`, "g"),
    replace: (m, prefix, body) => (looksRandom(body ?? "") ? m : `${prefix}${body}`),
  },
  // Provider prefixes that gitleaks knows only at one exact length: these take any length,
  // so a format that grows stays caught.
  { kind: "huggingface-token", need: (t) => t.includes("hf_"), re: new RegExp(`${B}hf_[A-Za-z0-9]{30,}${E}`, "g") },
  {
    // Slack's tokens carry a workspace or user number of eight digits or more, or a long random
    // part; "xoxb-12345-abcd234" and "xoxb-abcdef-abcdef" are examples in docs (gitleaks' false samples).
    kind: "slack-token",
    need: (t) => t.includes("xox"),
    re: new RegExp(`${B}(xox[abposr]-)([A-Za-z0-9-]{10,})${E}`, "g"),
    replace: (m, prefix, body) => (/\d{8}/.test(body ?? "") || (body ?? "").split("-").some((p) => p.length >= 20 && tokenBody(p)) ? m : `${prefix}${body}`),
  },
  // AWS's documented example key id (…EXAMPLE) is kept, as gitleaks keeps it (placeholders.ts).
  { kind: "aws-access-key", re: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  // Fly.io's tokens are macaroons joined by commas ("FlyV1 fm2_…,fm2_…"); gitleaks' rule takes
  // the last one only, and the first would be written in clear.
  { kind: "flyio-access-token", need: (t) => t.includes("FlyV1"), re: /\bFlyV1 (fm\d[a-z]?_[A-Za-z0-9+/=,_-]{20,})/g, replace: (m) => `FlyV1 ${m}` },
  { kind: "groq-api-key", need: (t) => t.includes("gsk_"), re: new RegExp(`${B}gsk_[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "xai-api-key", need: (t) => t.includes("xai-"), re: new RegExp(`${B}xai-[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "replicate-token", need: (t) => t.includes("r8_"), re: new RegExp(`${B}r8_[A-Za-z0-9]{30,}${E}`, "g") },
  {
    kind: "prefixed-token",
    // The shape most providers now give their keys, gitleaks' list or not: a short
    // lower-case prefix ending in "_" or "-" ("whsec_", "dckr_pat_", "sbp_") and a random
    // body with upper- and lower-case letters and digits. Hex or one-case bodies are left
    // to the providers' own rules (a git SHA after "commit-" must stay).
    need: (t) => t.includes("_") || t.includes("-"),
    // A body that runs on into base64 ("+", "/") is a hash, and "sha512-…" is a lock file's
    // integrity (Subresource Integrity), not a key.
    re: /(?<![A-Za-z0-9_.-])(?!(?:sha\d+|md5)-)([a-z][a-z0-9]{1,11}(?:[_-][a-z0-9]{1,11}){0,2}[_-])([A-Za-z0-9_-]{20,})(?![A-Za-z0-9_+/-])/g,
    replace: (m, prefix, body) => (tokenBody(body ?? "") ? m : `${prefix}${body}`),
  },
  {
    kind: "url-token",
    // A random token as a whole path segment of a URL (webhook URLs, reset and invite links):
    // the URL names a resource only its holder may use. Hex segments (commit ids, digests)
    // are not taken: a token body has both cases.
    need: (t) => t.includes("://"),
    re: /(\bhttps?:\/\/[^\s/?#]{1,253}(?:\/[^\s/?#]*)*?\/)([A-Za-z0-9_-]{24,})(?=[/?#\s"'`)]|$)/g,
    replace: (m, pre, seg) => (urlSegmentToken(seg ?? "") && !documentId(pre ?? "") ? `${pre}${m}` : `${pre}${seg}`),
  },
  {
    kind: "clipped-token",
    // A random-looking run against a clip mark ("…"), at either end: what is left of a token
    // after a summary or a reply-end clip cut it; too short for its provider's own rule.
    need: (t) => t.includes("…"),
    re: /(?<![A-Za-z0-9_\-.+/=:])([A-Za-z0-9_\-.+/=:]{12,})(?=…)|(?<=…)([A-Za-z0-9_\-+/=]{12,})(?![A-Za-z0-9_\-+/=])/g,
    replace: (m, before, after) => {
      const run = before || after || "";
      // A labelled hash ("sha512-…" integrity, "sha256:…" digest) is a hash, cut or not.
      if (/^(?:sha\d+|md5)[-:]/i.test(run)) return run;
      const body = run.replace(/^[A-Za-z]{2,6}[_-]/, "");
      return looksRandom(body) || looksRandom(run) ? m : run;
    },
  },
  {
    kind: "aws-secret-key",
    // The INI form and AWS's own JSON form ("SecretAccessKey": "...").
    need: (_t, lower) => lower().includes("secret"),
    re: /((?:aws_?)?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "url-password",
    // scheme://user:password@host -> the password only.
    // Bounded repeats: an unbounded scheme or user part makes long dotted text quadratic.
    need: (t) => t.includes("://") && t.includes("@"),
    // The host is looked at, not taken: a taken host ran to the next "@" and hid a second URL's
    // password behind it (spans.test's property found "…r.gitX=amqp://guest:pw@rabbit" in clear).
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@?#]{0,256}:)(?!\[REDACTED)([^\s/?#]{1,256}?)(?=@[^\s@/?#"'`]+(?:[/?#\s"'`]|$))/gi,
    // The password runs to the authority's last "@" ("u:myP@ss@host": "myP@ss").
    // A variable ("$DB_PASSWORD", "${PASS}") is no password. The word itself ("user:pass@") stays
    // redacted: gitleaks calls it a false sample, secretlint a true one, and a weak password
    // that works is still a credential.
    replace: (m, pre, pw) => (/^(?:\$|%24)/.test(pw ?? "") ? `${pre}${pw}` : `${pre}${m}`),
  },
];

let assignmentRe: RegExp | undefined;
let pairRe: RegExp | undefined;

/** Runs after gitleaks' generic rule: values named by their key, in every quoting. */
export const LATE_RULES: readonly OwnRule[] = [
  {
    kind: "env-assignment",
    // NAME=value / NAME: value / "name": "value" / 'NAME=value' / -e "NAME=value" /
    // --name=value, where NAME's last part names a secret.
    need: (t, lower) => (t.includes("=") || t.includes(":")) && SECRET_NAME_PARTS.some((w) => lower().includes(w)),
    // Made on first use: the rewrite is a loop over the pattern, which a hook process whose
    // texts hold no named value need not run.
    get re() {
      return (assignmentRe ??= new RegExp(caseless(`(^|[\\s{,;(?&'"\`$-])(["']?)(${SECRET_NAME})\\2([ \\t]*[:=][ \\t]*)(["']?)((?![$<{[=:]|\\[REDACTED)[^\\s"',;\`]{4,})\\5`), "gm"));
    },
    replace: (m, lead, q, name, sep, vq, value) =>
      keepAssignment(name ?? "", value ?? "") ? `${lead}${q}${name}${q}${sep}${vq}${value}${vq}` : `${lead}${q}${name}${q}${sep}${vq}${m}${vq}`,
  },
  {
    kind: "env-assignment",
    // The same names as XML elements (<password>…</password>) and as name/value pairs
    // (Kubernetes and Compose env lists: "- name: DB_PASS" then "value: …", on two lines or,
    // once a summary has folded the whitespace, on one).
    need: (t, lower) => (t.includes("<") || lower().includes("value")) && SECRET_NAME_PARTS.some((w) => lower().includes(w)),
    get re() {
      return (pairRe ??= new RegExp(caseless(`<(${SECRET_NAME})>((?!\\[REDACTED)[^<\\s]{4,})</\\1>|(\\bname:\\s*["']?(${SECRET_NAME})["']?[\\s,]+value:\\s*)(["']?)((?!\\[REDACTED)[^\\s"']{4,})\\5`), "g"));
    },
    replace: (m, xName, xValue, pre, pName, q, pValue) => {
      if (xName) return keepAssignment(xName, xValue ?? "") ? `<${xName}>${xValue}</${xName}>` : `<${xName}>${m}</${xName}>`;
      return keepAssignment(pName ?? "", pValue ?? "") ? `${pre}${q}${pValue}${q}` : `${pre}${q}${m}${q}`;
    },
  },
  {
    kind: "password-flag",
    // A password given on the command line of tools that take it so (-p'…', --password …).
    need: (_t, lower) => PASSWORD_TOOLS.some((w) => lower().includes(w)),
    re: /(\b(?:sshpass|mysql\w*|mariadb\w*|redis-cli|psql|smbclient|htpasswd)\b[^\n]*?\s(?:-p(?=[^\s=-])|(?:-p|-a|--pass(?:word)?)(?:\s+|=)))(['"]?)((?![=[])[^\s'"]{4,})\2/gi,
    replace: (m, pre, q, value) => (looksLikeValueNotSecret(value ?? "") ? `${pre}${q}${value}${q}` : `${pre}${q}${m}${q}`),
  },
  {
    kind: "named-in-prose",
    // "my key is <token>", "mailgun key key-<hex>", "token: <token>": a secret word, at
    // most "is"/"was"/"=", then a long random-looking token (digits and letters, more than
    // 3 bits of entropy per character).
    need: (_t, lower) => SECRET_NAME_PARTS.some((w) => lower().includes(w)),
    re: /\b((?:api[ _-]?)?(?:key|token|secret|password|passwd|pwd|passphrase|credential)s?\s+(?:(?:is|was|are)\s+)?(?:[=:]\s*)?)((?!\[REDACTED)[A-Za-z0-9_\-+/=.]{16,})/gi,
    replace: (m, pre, token) => (proseToken(token ?? "") ? `${pre}${m}` : `${pre}${token}`),
  },
  {
    kind: "email",
    need: (t) => t.includes("@"),
    // Not a URL's user name or password ("postgresql://app@host", "mongodb://u:$PASS@host"):
    // the host is no mailbox.
    re: /(?<![A-Za-z0-9._%+@-]|:\/\/|:\/\/[^\s/@:]*:\$?\{?)(?!git@)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g,
  },
];
