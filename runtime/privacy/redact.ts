/**
 * Secret redaction at write time: every secret shape below is replaced by a typed marker
 * `[REDACTED:<kind>]` before a line reaches the ledger. zod-free and dependency-free (the
 * capture hook calls it). Idempotent: markers match no pattern, so redacting twice changes
 * nothing.
 *
 * Kinds: private-key, jwt, anthropic-api-key, openai-api-key, google-api-key, groq-api-key,
 * xai-api-key, huggingface-token, replicate-token, perplexity-api-key, stripe-key,
 * slack-token, github-token, gitlab-token, npm-token, aws-access-key, aws-secret-key,
 * url-password, bearer-token, basic-auth, env-assignment, email.
 *
 * Example: `redactSecrets("export OPENAI_API_KEY=sk-proj-abc123def456ghi789jkl012")`
 * -> `{ text: "export OPENAI_API_KEY=[REDACTED:openai-api-key]", kinds: ["openai-api-key"] }`
 */

export interface Redaction {
  text: string;
  /** The kinds replaced, in first-seen order, each once. */
  kinds: string[];
}

interface Rule {
  kind: string;
  re: RegExp;
  /**
   * A cheap test that must hold for the regex to match (a literal every match contains); the
   * regex is compiled and run only when it holds, so ordinary text costs a few `includes`.
   * Absent: always run. `t` is the text, `lower` its lower-cased copy (made on demand).
   */
  need?: (t: string, lower: () => string) => boolean;
  /** Builds the replacement from the match; default: the whole match becomes the marker. */
  replace?: (marker: string, ...groups: string[]) => string;
}

const B = "(?<![A-Za-z0-9_-])"; // token start: not inside a longer word
const E = "(?![A-Za-z0-9_-])"; // token end

const RULES: Rule[] = [
  {
    kind: "private-key",
    // A whole block, or a block cut off before its END line.
    need: (t) => t.includes("-----BEGIN "),
    re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  { kind: "jwt", need: (t) => t.includes("eyJ"), re: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}${E}`, "g") },
  { kind: "anthropic-api-key", need: (t) => t.includes("sk-ant-"), re: new RegExp(`${B}sk-ant-[a-z]+[0-9]{0,3}-[A-Za-z0-9_-]{20,}${E}`, "g") },
  {
    kind: "openai-api-key",
    // Also OpenAI-style keys of other providers (OpenRouter, DeepSeek). The body must look
    // random, so "sk-this-is-a-task-description" stays.
    need: (t) => t.includes("sk-"),
    re: new RegExp(`${B}(sk-(?:proj-|svcacct-|admin-|or-v1-)?)([A-Za-z0-9_-]{20,})${E}`, "g"),
    replace: (m, prefix, body) => (looksRandom(body ?? "") ? m : `${prefix}${body}`),
  },
  { kind: "google-api-key", need: (t) => t.includes("AIza"), re: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}${E}`, "g") },
  { kind: "groq-api-key", need: (t) => t.includes("gsk_"), re: new RegExp(`${B}gsk_[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "xai-api-key", need: (t) => t.includes("xai-"), re: new RegExp(`${B}xai-[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "huggingface-token", need: (t) => t.includes("hf_"), re: new RegExp(`${B}hf_[A-Za-z0-9]{30,}${E}`, "g") },
  { kind: "replicate-token", need: (t) => t.includes("r8_"), re: new RegExp(`${B}r8_[A-Za-z0-9]{30,}${E}`, "g") },
  { kind: "perplexity-api-key", need: (t) => t.includes("pplx-"), re: new RegExp(`${B}pplx-[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "stripe-key", need: (t) => t.includes("_live_") || t.includes("_test_"), re: new RegExp(`${B}(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}${E}`, "g") },
  { kind: "slack-token", need: (t) => t.includes("xox"), re: new RegExp(`${B}xox[abposr]-[A-Za-z0-9-]{10,}${E}`, "g") },
  { kind: "github-token", need: (t) => t.includes("gh") || t.includes("github_pat_"), re: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})${E}`, "g") },
  { kind: "gitlab-token", need: (t) => t.includes("gl"), re: new RegExp(`${B}gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_-]{20,}${E}`, "g") },
  { kind: "npm-token", need: (t) => t.includes("npm_"), re: new RegExp(`${B}npm_[A-Za-z0-9]{36}${E}`, "g") },
  { kind: "aws-access-key", re: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  {
    kind: "aws-secret-key",
    need: (_t, lower) => lower().includes("secret"),
    re: /(aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "url-password",
    // scheme://user:password@host -> the password only.
    // Bounded repeats: an unbounded scheme or user part makes long dotted text quadratic.
    need: (t) => t.includes("://") && t.includes("@"),
    re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@?#]{0,256}:)(?!\[REDACTED)([^\s@/?#]{1,256})(@[^\s@]+)/gi,
    replace: (m, pre, _pw, post) => `${pre}${m}${post}`,
  },
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
  {
    kind: "env-assignment",
    // NAME=value / NAME: value / "name": "value" where NAME's last part names a secret.
    need: (t, lower) => (t.includes("=") || t.includes(":")) && SECRET_NAME_PARTS.some((w) => lower().includes(w)),
    re: /(^|[\s{,;(?&])(["']?)((?:[A-Za-z][A-Za-z0-9]{0,40}[_.-]){0,8}(?:api[_-]?key|apikey|key|keys|token|secret|password|passwd|pwd|pass|passphrase|credentials?|auth|private[_-]?key|client[_-]?secret|access[_-]?key))\2(\s*[:=]\s*)(["']?)((?![$<{[]|\[REDACTED)[^\s"',;]{4,})\5/gim,
    replace: (m, lead, q, name, sep, vq, value) =>
      looksLikeValueNotSecret(value ?? "") || (WEAK_NAMES.test(name ?? "") && !looksRandom(value ?? ""))
        ? `${lead}${q}${name}${q}${sep}${vq}${value}${vq}`
        : `${lead}${q}${name}${q}${sep}${vq}${m}${vq}`,
  },
  {
    kind: "email",
    need: (t) => t.includes("@"),
    re: /(?<![A-Za-z0-9._%+-])(?!git@)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g,
  },
];

/** Every secret name of the env-assignment rule contains one of these (lower-cased). */
const SECRET_NAME_PARTS = ["key", "token", "secret", "pass", "pwd", "cred", "auth"];

/** Bare generic names ("key=value", "auth=basic"): only a random-looking value counts as a secret. */
const WEAK_NAMES = /^(key|keys|auth|pass|pwd)$/i;

/**
 * Random-looking: at least 8 characters with letters and at least two digits, not words
 * joined by hyphens. "aZ3kP9qLmX" yes; "this-is-a-task-2" no; "value" no.
 */
function looksRandom(s: string): boolean {
  if (s.length < 8 || !/[A-Za-z]/.test(s)) return false;
  if ((s.match(/\d/g) ?? []).length < 2) return false;
  return !/^[a-z]+(?:-[a-z0-9]+)+$/.test(s);
}

/** Values after a secret-named key that are clearly not secrets: numbers, booleans, paths, placeholders. */
function looksLikeValueNotSecret(value: string): boolean {
  if (/^\d+(\.\d+)?$/.test(value)) return true;
  if (/^(true|false|null|none|undefined|required|optional|yes|no)$/i.test(value)) return true;
  if (/^(\.{0,2}\/|~\/)/.test(value)) return true; // a path
  if (/^process\.env\b|^os\.environ|^env\(/.test(value)) return true; // a reference, not a value
  return false;
}

export function redactSecrets(text: string): Redaction {
  return redactWith(text, true);
}

/** The same redaction with every rule's regex run, whatever its `need` says (for tests). */
export function redactSecretsUnfiltered(text: string): Redaction {
  return redactWith(text, false);
}

function redactWith(text: string, filtered: boolean): Redaction {
  const kinds: string[] = [];
  let out = text;
  let lowered: string | null = null;
  let loweredOf: string | null = null;
  const lower = (): string => {
    if (loweredOf !== out) [lowered, loweredOf] = [out.toLowerCase(), out];
    return lowered as string;
  };
  for (const rule of RULES) {
    if (filtered && rule.need && !rule.need(out, lower)) continue;
    rule.re.lastIndex = 0;
    let fired = false;
    out = out.replace(rule.re, (...args: unknown[]) => {
      const groups = args.slice(1, -2).map((g) => (typeof g === "string" ? g : ""));
      const marker = `[REDACTED:${rule.kind}]`;
      if (!rule.replace) {
        fired = true;
        return marker;
      }
      const replaced = rule.replace(marker, ...groups);
      if (replaced.includes(marker)) fired = true;
      return replaced;
    });
    if (fired && !kinds.includes(rule.kind)) kinds.push(rule.kind);
  }
  return { text: out, kinds };
}

/** Redacts a nullable string, collecting kinds into `into`. */
export function redactNullable(text: string | null, into: string[]): string | null {
  if (text === null) return null;
  const r = redactSecrets(text);
  for (const k of r.kinds) if (!into.includes(k)) into.push(k);
  return r.text;
}
