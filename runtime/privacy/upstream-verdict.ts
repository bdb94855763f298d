/**
 * Upstream's verdict on what Errata's broader rules found (issue 34: over-redaction down). Where
 * an own rule takes a shape that one of gitleaks' rules also covers, and that rule would let the
 * value through (its entropy, its allowlists, its stopwords), the own rule needs a stronger
 * reason to redact it:
 *
 * - a named value (`NAME=value`, "my key is …": the own assignment and prose rules) is read by
 *   gitleaks' generic rule, whose shape it is. Let through when the generic rule's allowlists
 *   name the key or the line as no secret (`csrf-token=`, `key_id =`, an import line); when its
 *   global or value allowlists take the value's shape (letters only, `$VAR`, a path) unless the
 *   name is a strong one (`password`, `secret`, `api_key`, ...: a password of letters is still
 *   a password); when it holds one of the rule's stopwords (documented
 *   example keys such as `6fe4476ee5a1832882e326b506d14126`, words such as `sandbox`) unless
 *   what is left without them is still a random token of 16 characters or more.
 * - a prefixed token (`sgp_…`, `bedrock-api-key-…`: the own prefixed, clipped and URL-token
 *   rules) whose prefix is the keyword of a gitleaks provider rule that finds no secret there
 *   (the provider's format, length or allowlist says no) is let through unless its body is a
 *   random token of the whole alphabet (a format that grew is still the provider's key): a hex
 *   body in both cases, a short or word-like body is left to the provider's own rule. Prefixes
 *   no kept rule knows stay redacted (a random body behind an unknown prefix is the shape of a
 *   secret Errata has no rule for).
 *
 * A disowned finding that overlaps or touches a kept one is kept all the same (engine.ts): what
 * one rule takes, no part of the same token may stay in clear.
 *
 * Example: `upstreamDisowns("env-assignment", 'apiKey:"6fe4476ee5a1832882e326b506d14126"', 8, 40)`
 * -> true; `upstreamDisowns("prefixed-token", "sgp_local_d45b6G86aBb0F2Cee943902dbaDBCFCFDD1dA089", 0, 50)` -> true.
 */
import { GENERIC_RULE_ID, gitleaksFindings, gitleaksRule, lineAt, pastLiteral, shannonEntropy, stopwordsIn, upstreamRejects, type GitleaksRule } from "./gitleaks.js";
import { RULE_COUNT, ruleHead } from "./gitleaks-data.js";
import { notSecretName, STRONG_NAMES, tokenBody } from "./own-rules.js";
import { jwkPublicMember, strongRandom, testCaseless } from "./own-shapes.js";
import { OWN_PROVIDER_KINDS, providerFindersOf, unguessablyShort, upstreamByKeyword } from "./near-miss.js";
import { clientKeyAt, clientKeyPrefix, existingObjectName, machineKeyName, shortPrefixedValue, stopwordsPastPrefix } from "./kept-forms.js";

const NAMED_KINDS: ReadonlySet<string> = new Set(["env-assignment", "named-in-prose", "context-secret"]);
const PREFIXED_KINDS: ReadonlySet<string> = new Set(["prefixed-token", "clipped-token", "url-token"]);

/** The key's name and the operator before a value, as gitleaks' generic match holds them: `API_KEY = "`. */
export function nameBefore(text: string, start: number): { name: string; withOperator: string } {
  let i = start;
  for (let k = 0; k < 8 && i > 0 && /[ \t'"`=:>,]/.test(text[i - 1]!); k++) i--;
  const opAt = i;
  for (let k = 0; k < 50 && i > 0 && /[\w.-]/.test(text[i - 1]!); k++) i--;
  return { name: text.slice(i, opAt), withOperator: text.slice(i, start) };
}

/**
 * Whether `value` without the stopwords it holds still holds a random token of 16 characters or
 * more: of both cases (tokenBody), or what a key generator makes (generatedValue: hex of one case,
 * a one-case random run). The stopwords are taken out and what is around them joined: a random
 * key holds a short stopword by chance ("card" in a lower-case key of 24, "dead" in a hex key),
 * and cut at it, neither piece was 16 long, so such keys were kept in clear under
 * `cohere_token` and `gitter_token` (found by the property test over provider names; the same
 * upstream counts either way). A documented example key listed whole leaves nothing.
 */
function randomWithout(value: string, stopwords: readonly string[]): boolean {
  let rest = value;
  for (const w of stopwords) rest = rest.replace(new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "");
  // base64url's "_" and "-" too: a random key holds them by chance ("Mid-server-9dNd…_oRXr…").
  return (rest.match(/[A-Za-z0-9+/=_-]{16,}/g) ?? []).some(tokenBody) || generatedValue(rest);
}

function namedValueDisowned(text: string, start: number, end: number): boolean {
  const generic = gitleaksRule(GENERIC_RULE_ID);
  if (generic === null) return false;
  const value = text.slice(start, end);
  const { name, withOperator } = nameBefore(text, start);
  // The allowlists that read the match see the name and operator only: a value that happens to
  // hold "author" or "rapid" is no reason.
  const strong = STRONG_NAMES.test(name.toLowerCase());
  // A name the assignment rule keeps whatever the value (a column, a public key: `data-sitekey`).
  if (notSecretName(name.toLowerCase())) return true;
  // The value's own format says no: it starts with a provider's prefix ("xoxp-1234-…",
  // "essu_…", "SBX-…") and that provider's rule finds no key in it (prefixedDisowned: a body
  // random over the whole alphabet still counts as the provider's key).
  // A random body short of the provider's format is a near-miss only where no name vouches for it: under a
  // secret's name it may be another provider's key that shares the prefix ("api_token = ghr_<16 random>").
  if (/^[A-Za-z][A-Za-z0-9]{1,11}[_-]/.test(value) && prefixedDisowned(text, start, end, false)) return true;
  // The name names a provider whose rule exists ("meraki_token", "SUMO_ACCESS_KEY") and the
  // value has not that provider's format: a near-miss, unless the value is a strong random token.
  if (providerNearMiss(text, start, end, name)) return true;
  // A test value typed by hand under a name that is not a strong one ("elastic_token = essu_abc123"),
  // or that names a key a machine makes ("exoscale_api_key = EXOabc123"); a public client key (kept-forms.ts).
  if (((!strong || machineKeyName(name)) && testValue(value)) || (machineKeyName(name) && shortPrefixedValue(value)) || clientKeyPrefix(value, name) || existingObjectName(name, value)) return true;
  const why = upstreamRejects(generic.rule, value, withOperator, lineAt(text, start, end - start));
  if (why === null) return false;
  switch (why) {
    case "allowlist":
      // gitleaks' generic allowlist leaves some names to a provider rule ("rapid" for RapidAPI's
      // rule): when the name names that provider and its rule finds nothing, a value a key
      // generator made stays a secret (the provider's format may have changed since).
      return !(providerRulesNamed(name).length > 0 && generatedValue(value));
    case "shape":
      return !strong;
    case "entropy":
      // Not alone: a value of 11 characters or fewer cannot pass the generic rule's 3.5 bits,
      // and short passwords and tokens under a secret's name are secrets.
      return false;
    case "stopword": {
      const words = stopwordsPastPrefix(value, stopwordsIn(generic.rule, value));
      if (words.length === 0) return false; // only a piece of the prefix (kept-forms.ts)
      // Under a strong name only a listed value itself (a documented example key) is let
      // through: a password of words holds stopwords ("correcthorsebatterystaple").
      if (strong) return words.some((w) => w === value.toLowerCase());
      // A value cut by a clip mark is no whole value to read without its stopwords
      // ("config.token=glagent-vOdg…": "agent" is one, and what is left was cut short).
      if (text.slice(start, end + 1).includes("…")) return false;
      return !randomWithout(value, words);
    }
  }
}

/**
 * The provider rules a key's name names: gitleaks' rules one of whose keywords (letters only,
 * four or more: "meraki", "sumo", "mailchimp") is a whole part of the name (parts parted by
 * "_", "-", ".", or a capital after a lower-case letter: "intranet_key" names no "intra").
 * Only names of keys and tokens: a provider's rule describes its keys and tokens, never a
 * password or a secret of the owner's choosing (`JIRA_PASSWORD` names no format).
 */
function providerRulesNamed(name: string): GitleaksRule[] {
  const lower = name.toLowerCase();
  if (!/(?:key|token)s?$/.test(lower) || /pass|pwd|secret|cred/.test(lower)) return [];
  const parts = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  const rules: GitleaksRule[] = [];
  for (const [k, named] of upstreamByKeyword("name")) if (parts.includes(k)) rules.push(...named);
  return rules;
}

/**
 * A near-miss of a provider the key's name names (providerRulesNamed): every such rule finds
 * nothing on the line, and the value has not the rule's format (its secret group, anchored, with
 * its flags, and its entropy: `meraki_token = <64 hex digits>R21`, `meraki-api-key: acdeFf05…`
 * where Meraki's keys are 40 lower-case hex digits; `SUMO_ACCESS_KEY: AbCeFG123`), and is
 * nothing a key generator makes (generatedValue): the rule data is gitleaks', frozen since
 * March 2026, and a provider's newer format (a UUID, 24 hex digits) is still its key. A value
 * of the provider's format the rule missed for its context
 * (`MailchimpSDK.initialize(token: <32 hex>-us18)`) is its key too.
 */
function providerNearMiss(text: string, start: number, end: number, name: string): boolean {
  const rules = providerRulesNamed(name);
  if (rules.length === 0) return false;
  const value = text.slice(start, end);
  if (generatedValue(value)) return false;
  const line = lineAt(text, start, end - start);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lower = line.toLowerCase();
  const gate = { has: (k: string) => lower.includes(k) };
  return rules.every((r) => !formatFits(r, value) && gitleaksFindings(r, line, gate).every(([a, b]) => lineStart + b <= start || lineStart + a >= end));
}

/**
 * What a key generator makes, found in a value: a strong random token (strongRandom), a random
 * run of one case (letters and digits, 16 or more, two digits, a quarter beyond hex: the
 * lower-case keys of many providers), 16 hex digits or more of one case, or a UUID.
 * Hex in both cases or with a few letters past "f" is none of them: no generator writes it.
 */
function generatedValue(value: string): boolean {
  if (/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(value)) return true;
  // Looser than strongRandom on purpose (no word-run test, no entropy floor): a random token
  // that happens to hold word-like runs ("aZyhbsJhobx…": half of it) is still generated, and
  // under a provider's name a kept value is in clear. Found by the property test that puts
  // generated values under every provider name (test/privacy/redact.test.ts).
  return (value.match(/[A-Za-z0-9]+/g) ?? []).some((r) => {
    if (r.length < 16) return false;
    const beyondHex = (r.match(/[g-zG-Z]/g) ?? []).length >= 0.25 * r.length;
    if (/^(?:[0-9a-f]+|[0-9A-F]+)$/.test(r)) return true;
    if (/^(?:[a-z0-9]+|[A-Z0-9]+)$/.test(r)) return /\d/.test(r) && beyondHex;
    return tokenBody(r) && beyondHex;
  });
}

/** Each rule's secret group, anchored (null: a group that cannot stand alone, a back-reference). */
const formats = new Map<GitleaksRule, RegExp | null>();
function formatOf(rule: GitleaksRule): RegExp | null {
  if (formats.has(rule)) return formats.get(rule)!;
  const { src, flags, secretGroup } = rule.body();
  const group = groupSource(src, secretGroup > 0 ? secretGroup : 1) ?? src;
  let re: RegExp | null;
  try {
    re = new RegExp(`^(?:${group})$`, flags.replace(/g/g, ""));
  } catch {
    re = null;
  }
  formats.set(rule, re);
  return re;
}

/** Whether `value` is, whole, what the rule's secret group takes (its entropy too); a group that cannot stand alone says yes (the value stays redacted). */
function formatFits(rule: GitleaksRule, value: string): boolean {
  const re = formatOf(rule);
  const { entropy } = rule.body();
  return (re === null || re.test(value)) && !(entropy > 0 && shannonEntropy(value) <= entropy);
}

/**
 * The provider rules whose allowlists read the secret itself (gitleaks' data: AWS's key ids,
 * Google's API keys, Vault's tokens, curl's user), made once: an own rule's finding of their
 * format is let through when their allowlist names it (Google's documented public keys
 * `AIzaSyabcdefghijklmnopqrstuvwxyz1234567`, `…EXAMPLE` key ids), whatever rule found it.
 */
let secretAllowRules: GitleaksRule[] | null = null;
function listedByProvider(value: string): boolean {
  if (secretAllowRules === null) {
    secretAllowRules = [];
    for (let i = 0; i < RULE_COUNT; i++) {
      const { id } = ruleHead(i);
      if (id === GENERIC_RULE_ID) continue;
      const r = gitleaksRule(id);
      if (r !== null && r.rule.allow().some((a) => a.target === "secret" && a.regexes.length > 0)) secretAllowRules.push(r.rule);
    }
  }
  const lower = value.toLowerCase();
  return secretAllowRules.some((r) => r.keywords.some((k) => lower.includes(k)) && formatFits(r, value) && upstreamRejects(r, value, value, value) === "shape");
}

/**
 * The source of capturing group `n` of a pattern (groups counted by their opening parenthesis,
 * named ones too; lookarounds and `(?:` not), or null when it has fewer. Hand-written: a walk
 * over a pattern's source of this size has no kept library (as firstGroupRepeated in gitleaks.ts).
 */
export function groupSource(src: string, n: number): string | null {
  let count = 0;
  const opens: Array<number | null> = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const past = pastLiteral(src, i);
    if (past !== i) {
      i = past;
      continue;
    }
    if (c === "(") {
      const capturing = src[i + 1] !== "?" || (src[i + 2] === "<" && src[i + 3] !== "=" && src[i + 3] !== "!");
      opens.push(capturing && ++count === n ? i : null);
    } else if (c === ")") {
      const at = opens.pop();
      if (at !== undefined && at !== null) {
        const inner = src.slice(at + 1, i);
        return inner.startsWith("?<") ? inner.slice(inner.indexOf(">") + 1) : inner;
      }
    }
  }
  return null;
}

/**
 * A value, or its body after a short prefix, made only of the fragments people type as a test
 * value ("abc123", "test_xyz", "foobar"): six characters or more. A random body of six from 62
 * symbols is one of them about once in 10^8.
 */
export function testValue(value: string): boolean {
  const body = value.replace(/^[A-Za-z][A-Za-z0-9]{1,11}[_-](?=.)|^[A-Z]{2,6}(?=[a-z0-9])/, "");
  return body.length >= 6 && testCaseless(/^(?:abc|def|xyz|123|456|789|0|test|demo|sample|foo|bar|baz|qux|dummy|my|[_-])+$/, body);
}

function prefixedDisowned(text: string, start: number, end: number, shortKept = true): boolean {
  // A token cut by a clip mark ("xkeysib-…-6kNk…") fits no format: the provider's rule finding
  // nothing there says nothing (the third held-out set's door test found it written in clear).
  // The mark may sit inside the finding too: a named value's run takes it ("config.token=glagent-vOdg…",
  // the fifth held-out set's door test).
  if (text.slice(Math.max(0, start - 1), end + 1).includes("…")) return false;
  const token = text.slice(start, end).toLowerCase();
  const cut = token.search(/[_-]/);
  if (cut < 0) return false;
  const finders = providerFindersOf(token); // near-miss.ts: upstream's rules of the prefix, else the own provider rules
  if (finders.length === 0) return false;
  const line = lineAt(text, start, end - start);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  // Disowned only when every provider rule of that prefix finds nothing on the token.
  if (!finders.every((f) => f(line).every(([a, b]) => lineStart + b <= start || lineStart + a >= end))) return false;
  // A strong random body (strongRandom) is reason enough, and so is upper-case hex of 32 or more (SMTP2GO's
  // `api-` keys; digests are written in lower case): a provider's format that grew is still its key, unless
  // every rule would take the token only longer by 64 bits or more (near-miss.ts: a format cut, no key). A
  // near-miss is left to the provider's rule: a hex body with a few letters past "f" ("sgp_local_d45b6G86aBb0F2Cee…"),
  // base64 of text ("bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29x", "bedrock.amazonaws.cox"), a short or word-like one.
  const runs = (text.slice(start + cut + 1, end).match(/[A-Za-z0-9]+/g) ?? []).sort((a, b) => b.length - a.length);
  const body = runs[0] ?? "";
  if (strongRandom(body) || /^[0-9A-F]{32,}$/.test(body)) return shortKept && unguessablyShort(finders, line, start - lineStart, end - lineStart, body);
  return true;
}

/**
 * A value that spells its own key's name (`SN_id_Gost28147_89_None_KeyMeshing = "id-Gost28147-89-None-KeyMeshing"`,
 * `ACCESS_TOKEN: "access-token"`): a constant naming itself, no secret, unless the name is a
 * strong one (`"password": "password"`: a weak password is still a password). Compared with case and
 * `_`, `-`, `.` left out, 8 characters or more.
 */
export function spellsItsName(text: string, start: number, end: number): boolean {
  const norm = (s: string): string => s.toLowerCase().replace(/[_.-]/g, "");
  const value = norm(text.slice(start, end));
  const { name } = nameBefore(text, start);
  // Not under a strong name: "password": "password" is a weak password, still a password.
  return value.length >= 8 && !STRONG_NAMES.test(name.toLowerCase()) && norm(name).includes(value);
}

/**
 * A bare random token (the own random-token rule) is judged by what stands before it:
 * - a name with an operator that reads as an identifier (`rookTable = …`, `public_key = "…"`,
 *   `CloudFront-Signature: …`, `value="…"`: "_", "-", ".", a capital inside, or "=") and names
 *   no secret: the name says what the value is;
 * - a token that starts with a gitleaks provider rule's keyword ("AIza…", "EAAA…") on which
 *   every such rule finds nothing: the provider's format says no (a documented public key).
 * A token with no name before it, or after a word in prose ("here it is: …"), stays redacted.
 */
function randomTokenDisowned(text: string, start: number, end: number): boolean {
  if (inPublicKey(text, start)) return true;
  if (/^[a-z][a-z0-9]{1,11}[_-]/.test(text.slice(start, end)) && prefixedDisowned(text, start, end)) return true;
  const { name, withOperator } = nameBefore(text, start);
  if (name !== "" && /[=:]/.test(withOperator.slice(name.length)) && (/[_.-]|[a-z][A-Z]/.test(name) || withOperator.slice(name.length).includes("="))) {
    const lower = name.toLowerCase();
    if (!SECRET_WORDS.some((w) => lower.includes(w)) || notSecretName(lower)) return true;
  }
  const token = text.slice(start, end).toLowerCase();
  const rules: GitleaksRule[] = [];
  for (const [k, starting] of upstreamByKeyword("start")) if (token.startsWith(k)) rules.push(...starting);
  if (rules.length === 0) return false;
  const line = lineAt(text, start, end - start);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lowerLine = line.toLowerCase();
  const gate = { has: (k: string) => lowerLine.includes(k) };
  return rules.every((r) => gitleaksFindings(r, line, gate).every(([a, b]) => lineStart + b <= start || lineStart + a >= end));
}

/**
 * Inside public key material: an armoured block that is not a private key's (`-----BEGIN PGP
 * PUBLIC KEY BLOCK-----`, a certificate) not yet ended, or an SSH public key's body
 * ("ssh-ed25519 AAAA…"), or a JWK's public member. Base64 lines hold long runs of letters and digits.
 */
function inPublicKey(text: string, start: number): boolean {
  const begin = text.lastIndexOf("-----BEGIN ", start);
  if (begin >= 0 && !/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(text.slice(begin, begin + 60)) && text.lastIndexOf("-----END ", start) < begin) return true;
  return /(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com) $/.test(text.slice(Math.max(0, start - 40), start)) || jwkPublicMember(text, start);
}

/** Words a secret's name holds (the own named-value rules' name parts). */
const SECRET_WORDS = ["key", "token", "secret", "pass", "pwd", "cred", "auth", "psk", "pat"];

/** Whether upstream's rule for the shape an own rule of `kind` found at [start, end) would let it through (see above). */
export function upstreamDisowns(kind: string, text: string, start: number, end: number): boolean {
  if (listedByProvider(text.slice(start, end))) return true;
  if (NAMED_KINDS.has(kind)) return namedValueDisowned(text, start, end);
  if (PREFIXED_KINDS.has(kind) || OWN_PROVIDER_KINDS.has(kind)) return prefixedDisowned(text, start, end) || clientKeyAt(text, start, end, (at) => nameBefore(text, at).name);
  if (kind === "random-token") return randomTokenDisowned(text, start, end) || clientKeyAt(text, start, end, (at) => nameBefore(text, at).name);
  return false;
}
