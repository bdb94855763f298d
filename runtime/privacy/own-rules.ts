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
  replace?: (marker: string, ...groups: string[]) => string; // the replacement built from the match (default: the whole match is the marker)
  find?: (text: string) => Array<[number, number]>; // spans found by a scan instead of `re` (context-secrets.ts)
}

import {
  bareToken, letterToken, documentId, encodedText, keepAssignment, namedPassword, passwordLike, looksLikeValueNotSecret, looksRandom, oneCaseToken, proseToken, SECRET_NAME, caseless, tokenBody, urlSegmentToken,
} from "./own-shapes.js";
import { FORMAT_RULES } from "./own-formats.js";
import { CONTEXT_RULES, keepClippedValue } from "./own-contexts.js";
import { LETTERS, LOGIN_VERB_WORDS, PASSWORD_COPULAS, PLACE_RULES, PROSE_MORE_PASSWORD_WORDS, PROSE_MORE_WORDS, SPACED_LETTERS, UNSPACED_COPULAS } from "./own-places.js";

export { caseless, looksRandom, NOT_SECRET_NAMES, notSecretName, SECRET_NAME, STRONG_NAMES, tokenBody } from "./own-shapes.js";

const B = "(?<![A-Za-z0-9_-])"; // token start: not inside a longer word
const E = "(?![A-Za-z0-9_-])"; // token end
/** Tools whose command line can carry a password (the password-flag rule). */
const PASSWORD_TOOLS = ["sshpass", "mysql", "mariadb", "redis-cli", "psql", "smbclient", "htpasswd"];

/** Every secret name of the assignment rule contains one of these (lower-cased). */
const SECRET_NAME_PARTS = ["key", "token", "secret", "pass", "pwd", "cred", "auth", "psk", "pat"];

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
    re: /\b(Authorization:\s*Basic\s+)([A-Za-z0-9+/]{8,}=*)/gi, // a user with an empty password (`anonymous:`) is kept
    replace: (m, pre, value) => (/^[^:\s]+:$/.test(Buffer.from(value ?? "", "base64").toString("latin1")) ? `${pre}${value}` : `${pre}${m}`),
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
  // The scheme word "FlyV1" is the mark, whatever the macaroon's own prefix (Fly.io's docs show
  // "FlyV1 fm2_…"; a token written without the "fm" part is still its token).
  { kind: "flyio-access-token", need: (t) => t.includes("FlyV1"), re: /\bFlyV1 ([A-Za-z0-9+/=,_-]{20,})/g, replace: (m) => `FlyV1 ${m}` },
  // Alibaba Cloud's STS (temporary) AccessKey ids: "STS." and a random id (its docs: "STS.L4aB…").
  {
    kind: "alibaba-sts-access-key-id",
    need: (t) => t.includes("STS."),
    re: /(?<![A-Za-z0-9.])STS\.([A-Za-z0-9]{16,40})(?![A-Za-z0-9])/g,
    replace: (m, body) => (looksRandom(body ?? "") ? m : `STS.${body}`),
  },
  // CircleCI's personal and project API tokens (its changelog: "CCIPAT_" or "CCIPRJ_", a base58
  // UUID, "_", 40 hex digits).
  { kind: "circleci-token", need: (t) => t.includes("CCIP"), re: /(?<![A-Za-z0-9])CCIP(?:AT|RJ)_[1-9A-HJ-NP-Za-km-z]{16,30}_[0-9a-f]{40}(?![A-Za-z0-9])/g },
  { kind: "groq-api-key", need: (t) => t.includes("gsk_"), re: new RegExp(`${B}gsk_[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "xai-api-key", need: (t) => t.includes("xai-"), re: new RegExp(`${B}xai-[A-Za-z0-9]{40,}${E}`, "g") },
  { kind: "replicate-token", need: (t) => t.includes("r8_"), re: new RegExp(`${B}r8_[A-Za-z0-9]{30,}${E}`, "g") },
  // Provider formats from their docs (own-formats.ts).
  ...FORMAT_RULES,
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
    // A one-case body counts when it is long and random beyond hex (oneCaseToken): Neon's
    // `napi_`, Django's `django-insecure-` keys; a git SHA after "commit-" is hex and stays.
    // A body that is base64 of text holding no secret (`bedrock-api-key-YmVkcm9jay5…`, the
    // provider's fixed "bedrock.amazonaws.com"; a JSON header cut before its values) is no key.
    // Stripe's publishable keys ("pk_test_", "pk_live_") are public by design (its docs put them
    // in the page's script) and stay.
    replace: (m, prefix, body) => ((tokenBody(body ?? "") || oneCaseToken(body ?? "")) && !encodedText(body ?? "") && !/^pk_(?:test|live)_$/.test(prefix ?? "") ? m : `${prefix}${body}`),
  },
  {
    kind: "prefixed-token",
    // The same with an upper-case prefix ("CCDB1_", "HRKU-", "ATBB"-style ids with a separator):
    // a random body of both cases and digits.
    need: (t) => t.includes("_") || t.includes("-"),
    re: /(?<![A-Za-z0-9_.-])([A-Z][A-Z0-9]{1,9}[_-])([A-Za-z0-9_-]{20,})(?![A-Za-z0-9_+/-])/g,
    replace: (m, prefix, body) => (tokenBody(body ?? "") && !encodedText(body ?? "") ? m : `${prefix}${body}`),
  },
  {
    kind: "url-token",
    // A random token as a whole path segment of a URL (webhook URLs, reset and invite links):
    // the URL names a resource only its holder may use. Hex segments (commit ids, digests)
    // are not taken: a token body has both cases.
    need: (t) => t.includes("://"),
    // A base64 segment may end in its padding ("…==": Sumo Logic's HTTP source URLs).
    re: /(\bhttps?:\/\/[^\s/?#]{1,253}(?:\/[^\s/?#]*)*?\/)([A-Za-z0-9_-]{24,}={0,2})(?=[/?#\s"'`)]|$)/g,
    replace: (m, pre, seg) => (urlSegmentToken(seg ?? "") && !documentId(pre ?? "") ? `${pre}${m}` : `${pre}${seg}`),
  },
  {
    kind: "clipped-token",
    // A random-looking run against a clip mark ("…"), at either end: what is left of a token
    // after a summary or a reply-end clip cut it; too short for its provider's own rule.
    need: (t) => t.includes("…"),
    // The left run takes "@" too: a webhook path's "<uuid>@<uuid>/…" cut by a summary left the
    // first UUID in clear (the fourth held-out set's Teams webhook, through the doors).
    re: /(?<![A-Za-z0-9_\-.+/=:@])([A-Za-z0-9_\-.+/=:@]{12,})(?=…)|(?<=…)([A-Za-z0-9_\-+/=]{12,})(?![A-Za-z0-9_\-+/=])/g,
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
/** A directive's name that names a secret (the assignment rule's name endings, on the lower-cased name). */
const DIRECTIVE_NAME = /(?:api[_-]?key|apikey|key|keys|token|secret|password|passwd|pwd|pass|pass[_-]?phrase|credentials?|auth|psk|(?:^|[_.-])pat)$/;
/** password-in-prose's words beyond English (lower-cased): see PROSE_PASSWORD_WORDS. */
const PROSE_OTHER_WORDS: readonly string[] = [
  "passwort", "kennwort", "mot de passe", "contraseña", "contrasena", "senha", "wachtwoord", "salasan", "lösenord", "losenord",
  "пароль", "пароля", "паролем", "パスワード", "暗証番号", "密码", "密碼", "비밀번호", "패스워드", "암호",
  "anmeld", "angemeld", "einlogg", "eingeloggt", "identifie", "sesión", "sesion", "accede", "accedi", "ingresa", "entra", "acess",
  "inlogg", "aanmeld", "kirjaudu", "logga in", "войд", "войти", "зайд", "зайти", "cred", "zugangsdaten", "identifiants", "connect", "clave", "mdp",
  ...PROSE_MORE_WORDS, // since the seventh pass (own-places.ts)
];
/**
 * Words of which the password-in-prose rule's texts hold one (lower-cased): every spelling its
 * verbs take ("log" + "ged"? + " " or "-"? + "in"/"on", "sign" + "ed"? + …), the word password.
 * Not "log" alone: "dialog", "catalog" and "blog" would wake the rule in ordinary text.
 */
export const PROSE_PASSWORD_WORDS: readonly string[] = [
  ...["log", "logged", "sign", "signed"].flatMap((v) => ["", " ", "-"].flatMap((sep) => (v.startsWith("log") ? ["in", "on"] : ["in"]).map((p) => `${v}${sep}${p}`))),
  "authenticat", "passw", "passphrase",
  // The word for password in the languages of the capture (German, French, Spanish, Portuguese,
  // Italian, Dutch, Finnish, Swedish, Japanese, Chinese, Korean, Russian), their log-in verbs,
  // and the words for credentials ("creds are admin / …").
  ...PROSE_OTHER_WORDS,
];
/** Tools of the second password-flag rule (their names, lower-cased). */
const MORE_PASSWORD_TOOLS = ["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn", "sqlcmd", "bcp ", " login"];
let pairRe: RegExp | undefined;
let proseWordsRe: RegExp | undefined;

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
      return (assignmentRe ??= new RegExp(caseless(`(^|[\\s{,;(?&'"\`$-])(["']?)(${SECRET_NAME})\\2([ \\t]*[:=][ \\t]*)(["']?)((?![$<{[=:]|\\[REDACTED)[^\\s"',;\`]{4,})(?:\\5|(?<=…))`), "gm"));
    },
    replace: (m, lead, q, name, sep, vq, value) => // a quoted value a clip mark cut before its closing quote: own-contexts.ts keepClippedValue
      vq !== "" && value?.endsWith("…") ? `${lead}${q}${name}${q}${sep}${vq}${keepClippedValue(name ?? "", value) ? value : m}` : `${lead}${q}${name}${q}${sep}${vq}${keepAssignment(name ?? "", value ?? "") ? value : m}${vq}`,
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
    kind: "query-key",
    // An API key in a URL's query ("?appid=…", "&api_key=…", "&access_token=…", "?key=…"): a
    // random value (letters and two digits or more, not an identifier).
    need: (t) => t.includes("=") && (t.includes("?") || t.includes("&")),
    re: /([?&](?:app_?id|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|api[_-]?token|private[_-]?token|client[_-]?secret|secret|token|key|sig|signature)=)([A-Za-z0-9_\-.~%]{16,})(?=[&#\s"'`)]|$)/gi,
    replace: (m, pre, value) => (proseToken(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "config-directive",
    // A secret name and its value as a config file's directive, on a line of its own, parted by
    // spaces (redis.conf's "requirepass …", "masterauth …"; "password …" lines). Its own kind and
    // a plain pattern (the name is read in `replace`): sharing the assignment rule's kind made
    // every text that woke it compile the dearest pattern twice (docs/privacy.md "Cost").
    need: (_t, lower) => SECRET_NAME_PARTS.some((w) => lower().includes(w)),
    re: /^([ \t]*([A-Za-z][A-Za-z0-9_.-]{0,60})[ \t]+)((?![$<{[]|\[REDACTED)[^\s"'=:]{4,})[ \t]*$/gm,
    // Without an operator a plain word is a sentence's ("password combination."), not a value.
    replace: (m, pre, name, value) =>
      !DIRECTIVE_NAME.test((name ?? "").toLowerCase()) || (/^[A-Za-z]+[.,;:!?]?$/.test(value ?? "") && !letterToken(value ?? "")) || keepAssignment(name ?? "", value ?? "") ? `${pre}${value}` : `${pre}${m}`,
  },
  {
    kind: "password-flag",
    // The flags other tools take a password by: LDAP's "-w", sqlcmd's and bcp's "-P", a
    // registry login's "-p"/"--password" (docker, podman, helm, …).
    need: (_t, lower) => MORE_PASSWORD_TOOLS.some((w) => lower().includes(w)),
    re: /(\b(?:(?:ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)|sqlcmd|bcp)\b[^\n]*?\s(?:-w|-P)|(?:docker|podman|nerdctl|buildah|skopeo|helm|oras)\b[^\n]*?\blogin\b[^\n]*?\s(?:-p|--password))(?:\s+|=))(['"]?)((?![=[-])[^\s'"]{4,})\2/g,
    replace: (m, pre, q, value) => (looksLikeValueNotSecret(value ?? "") ? `${pre}${q}${value}${q}` : `${pre}${q}${m}${q}`),
  },
  {
    kind: "cli-login-token",
    // A token given to a tool's "login" or "auth" subcommand ("wandb login <hex>", "snyk auth
    // <uuid>"): 32 hex digits or more, a UUID, or a random token.
    need: (_t, lower) => lower().includes("login") || lower().includes("auth"),
    // Lower-case subcommands only, without the `i` flag (a caseless pattern costs a fresh hook process more to compile).
    re: /\b((?:login|auth(?:enticate)?)\s+)([A-Za-z0-9_-]{20,})(?=[\s"'`)]|$)/g,
    replace: (m, pre, token) => (/^(?:[0-9a-f]{32,}|[0-9A-F]{32,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.test(token ?? "") || tokenBody(token ?? "") ? `${pre}${m}` : `${pre}${token}`),
  },
  {
    kind: "secret-file-write",
    // A value written into a file whose name names a secret ("echo … > config/master.key").
    need: (t) => t.includes("echo"),
    re: /(\becho\s+)(['"]?)([^\s'"]{16,})\2(?=\s*>>?\s*[^\s;|&]*(?:key|token|secret|passw(?:or)?d|credentials?)(?:\.[a-z]+)?(?:[\s;|&]|$))/gi,
    replace: (m, pre, q, value) => (looksLikeValueNotSecret(value ?? "") ? `${pre}${q}${value}${q}` : `${pre}${q}${m}${q}`),
  },
  {
    kind: "basic-auth",
    // A user and password given as a pair to an HTTP client (Python's requests and httpx:
    // auth=("user", "password"); jira's and elasticsearch's basic_auth=, http_auth=): the password.
    need: (t) => t.includes("auth"),
    re: /(\b(?:[a-z]+_)?auth\s*=\s*\(\s*[^,()\n]{1,80}?\s*,\s*)(['"])((?!\[REDACTED)[^'"\s]{4,})\2(?=\s*\))/g,
    replace: (m, pre, q) => `${pre}${q}${m}${q}`,
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
    // Not a command-line flag that names keys in the plural ("--recv-keys", "--list-secret-keys"):
    // it takes key ids, not a key.
    re: /\b(?!(?<=--[\w-]*)[\w-]*keys\s)((?:api[ _-]?)?(?:key|token|secret|password|passwd|pwd|passphrase|credential)s?\s+(?:(?:is|was|are)\s+)?(?:[=:]\s*)?)((?!\[REDACTED)[A-Za-z0-9_\-+/=.]{16,})/gi,
    replace: (m, pre, token) => (proseToken(token ?? "") ? `${pre}${m}` : `${pre}${token}`),
  },
  {
    kind: "password-file",
    // A line of PostgreSQL's password file (~/.pgpass: hostname:port:database:username:password,
    // its documented format): a host, a port (digits or "*"), two more fields, then the password
    // (":" and "\\" escaped by "\\" inside it). The port is what tells the line: "12:30:45" has
    // too few fields, a MAC address no port. Standing alone: not inside a longer run.
    need: (t) => t.includes(":"),
    re: /(?<![^\s"'`=])([A-Za-z0-9*_.-]+:(?:\d{1,5}|\*):[^\s:"'`]+:[^\s:"'`]+:)((?:[^\s:\\"'`]|\\[:\\]){4,})(?![^\s"'`])/g,
    replace: (m, pre, value) => (looksLikeValueNotSecret(value ?? "") ? `${pre}${value}` : `${pre}${m}`),
  },
  {
    kind: "password-in-prose",
    // A password given in a sentence: after a log-in verb and "with"/"using" ("log in as admin
    // with <password>", "sign in using …"), or after the word password ("the password is …",
    // "password: …" in prose). Shorter than the named-in-prose rule's tokens (16): a password a
    // person chose (passwordLike). Within one clause (no ".", "," or new line between).
    need: (_t, lower) => PROSE_PASSWORD_WORDS.some((w) => lower().includes(w)),
    re: /((?<!\[REDACTED:[a-z0-9-]{0,40})\b(?:(?:log(?:ged)?[ -]?(?:in|on)|sign(?:ed)?[ -]?in|authenticat(?:e|es|ed|ing))\b[^.,;\n]{0,60}?\b(?:with|using)|(?:password|passphrase|passwd)s?(?:\s+(?:is|was|of|=|:))?)\s+(?:(?:the\s+)?(?:password|passphrase|pass|pw|pwd)\s+)?)(["'`]?)((?!\[REDACTED)[^\s"'`]{8,64})\2(?=[\s.,;:!?)"'`]|$)/gi,
    replace: (m, pre, q, value) => (passwordLike((value ?? "").replace(/[.,;:!?]+$/, "")) ? `${pre}${q}${m}${value?.match(/[.,;:!?]+$/)?.[0] ?? ""}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "password-in-prose",
    // The same in every language of the capture: the word for password (German, French, Spanish,
    // Portuguese, Dutch, Finnish, Swedish, Russian, Japanese, Chinese, Korean; English too), a few
    // words of the clause ("for the staging server", "del wifi"), then "is" in that language, a
    // colon or a CJK topic particle, then the password. Not the word inside a marker: a URL's
    // password redacted first ("app:[REDACTED:url-password]@localhost:5432/appdb1") put the word
    // before the host's colon, and a later pass took the port and database for a password.
    need: (_t, lower) => PROSE_PASSWORD_WORDS.some((w) => lower().includes(w)),
    // Since the seventh pass more languages (own-places.ts), and the password right after its word
    // where the verb comes last (Turkish "şifresi … olarak ayarlandı", Hindi "पासवर्ड … है"); Thai's, Lao's,… unspaced (UNSPACED_COPULAS).
    get re() {
      return (proseWordsRe ??= new RegExp(
        `((?<![${SPACED_LETTERS}]|\\[REDACTED:[a-z0-9-]{0,40})(?:password|passphrase|passwd|passwort|kennwort|mot de passe|mdp|contraseña|contrasena|clave|senha|wachtwoord|salasana|lösenord|пароль|пароля|паролем|паролю|パスワード|暗証番号|密码|密碼|비밀번호|패스워드|암호|${PROSE_MORE_PASSWORD_WORDS})[${LETTERS}]{0,4}(?:[^.,;\\n:：=。、，]{0,40}?(?:\\s(?:${PASSWORD_COPULAS})(?![${LETTERS}])|\\s?[:：]|\\s[—–-]|は|是|为|為|은|는|이|가|${UNSPACED_COPULAS})|(?=[ \\t]))\\s*)(["'\`]?)((?!\\[REDACTED)[^\\s"'\`。、，]{8,64})\\2(?=[\\s.,;:!?)"'\`。、，]|$)`,
        "gi",
      ));
    },
    replace: (m, pre, q, value) => (namedPassword((value ?? "").replace(/[.,;:!?]+$/, "")) ? `${pre}${q}${m}${value?.match(/[.,;:!?]+$/)?.[0] ?? ""}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "password-in-prose",
    // A log-in verb of those languages and their "with" ("melde dich mit … an", "connecte-toi
    // avec …", "inicia sesión con …", "entrar com …", "accedi con …", "inloggen met …", "logga in
    // med …", "войди с …"); and credentials given as user / password ("creds are admin / …").
    need: (_t, lower) => LOGIN_VERB_WORDS.some((w) => lower().includes(w)),
    re: /((?<![A-Za-z0-9_\u00C0-\u024F\u0400-\u04FF])(?:(?:anmelden|angemeldet|einloggen|eingeloggt|connecter|connectez|connecte|connecté|identifier|identifiez|inicia(?:r)? sesi[oó]n|entra(?:r)?|accede(?:r)?|ingresa(?:r)?|accedi|accedere|acessa(?:r)?|inloggen|aanmelden|logga in|войд[A-Za-z0-9_\u00C0-\u024F\u0400-\u04FF]*|войти|зайд[A-Za-z0-9_\u00C0-\u024F\u0400-\u04FF]*|зайти)(?![A-Za-z0-9_\u00C0-\u024F\u0400-\u04FF])[^.,;\n]{0,60}?(?<![A-Za-z0-9_\u00C0-\u024F\u0400-\u04FF])(?:mit|avec|con|com|met|med|с|со)\s+(?:(?:dem|le|la|el|a|o|het|il)\s+)?(?:(?:passwort|mot de passe|contraseña|senha|wachtwoord|lösenord|паролем|password)\s+)?|(?:creds|credentials|credenciales|credenziali|zugangsdaten|identifiants|login)\s*(?:(?:are|is|sind|sont|son|sono)\s+|[:=]\s*)?[\w.@\\-]{1,40}\s*\/\s*))(["'`]?)((?!\[REDACTED)[^\s"'`。、，]{8,64})\2(?=[\s.,;:!?)"'`。、，]|$)/gi,
    replace: (m, pre, q, value) => ((/^(?:creds|credentials|credenciales|credenziali|zugangsdaten|identifiants|login)/i.test(pre ?? "") ? namedPassword : passwordLike)((value ?? "").replace(/[.,;:!?]+$/, "")) ? `${pre}${q}${m}${value?.match(/[.,;:!?]+$/)?.[0] ?? ""}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "windows-credential",
    // Windows commands that take a password on their command line: "net use [Z:] \\host\share
    // <password> /user:…" (the password after the share, before or after the flags), "net user
    // <name> <password>", cmdkey's and wmic's "/pass:" and "/password:", schtasks' "/RP",
    // PsExec's "-p".
    need: (_t, lower) => ["net use", "net user", "/pass", "schtasks", "psexec", "paexec"].some((w) => lower().includes(w)),
    re: /(\bnet use(?:\s+(?:[A-Za-z]:|\*))?\s+\\\\[^\s]+(?:\s+\/[^\s]+)*\s+|\bnet user\s+(?!\/)[^\s]+\s+|\s\/(?:pass|password):|\bschtasks\b[^\n]*?\s\/rp\s+|\b(?:psexec|paexec)\b[^\n]*?\s-p\s+)(["']?)((?![/*\\])[^\s"']{4,})\2/gi,
    replace: (m, pre, q, value) => (looksLikeValueNotSecret(value ?? "") ? `${pre}${q}${value}${q}` : `${pre}${q}${m}${q}`),
  },
  ...PLACE_RULES, ...CONTEXT_RULES, // secrets in a place (own-places.ts, the seventh pass), in a language's or tool's context (own-contexts.ts, the eighth)
  {
    kind: "random-token",
    // A random token standing alone (bareToken): what no prefix, name or place tells, a key
    // pasted into prose or passed to a constructor. Not next to "/", "+", "=" or "~" (a piece of
    // base64 data in one of its alphabets, CloudFront's included, or a path), nor right after
    // "@" (a handle, a host, a key's URI: "USK@…"), nor inside a longer run. Last but e-mail
    // addresses: every other rule that takes the same token names it first.
    need: (t) => /[A-Z]/.test(t) && /[0-9]/.test(t),
    re: /(?<![A-Za-z0-9_+/=~@-])([A-Za-z0-9][A-Za-z0-9_-]{22,}[A-Za-z0-9])(?![A-Za-z0-9_+/=~-])/g,
    replace: (m, token) => (bareToken(token ?? "") ? m : token ?? ""),
  },
  {
    kind: "email",
    need: (t) => t.includes("@"),
    // Not a URL's user name or password ("postgresql://app@host", "mongodb://u:$PASS@host"): the host is no
    // mailbox; nor an address that says it is none, a part of its local part "fake", "dummy", "example", "placeholder".
    re: /(?<![A-Za-z0-9._%+@-]|:\/\/|:\/\/[^\s/@:]*:\$?\{?)(?!git@)(?!(?:[A-Za-z0-9%]+[._+-])*(?:[Ff]ake|[Dd]ummy|[Ee]xample|[Pp]laceholder)(?:[._+-][A-Za-z0-9._%+-]*)?@)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g,
  },
];
