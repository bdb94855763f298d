/**
 * Secrets named or set in a language's or a tool's own way (issue 34's eighth pass, the sixth
 * held-out set's misses, by form; docs/privacy.md "A sixth held-out set"; own-rules.ts runs them
 * after own-places.ts's rules, before the random-token rule): names the assignment rule lacks (a
 * cloud's SK, a pepper, a gossip `encrypt` key), a Dockerfile's legacy `ENV <key> <value>`, a
 * keyword naming a secret (EDN and Clojure maps, Emacs Lisp's property lists, Ruby's `:name =>`),
 * a password set by SQL (`CREATE USER … IDENTIFIED BY`, `… PASSWORD '…'`), a key passed to an API
 * client's constructor. Each has its own pre-filter witness (witness-places.ts, the eighth pass's block).
 *
 * Example: `CREATE USER app IDENTIFIED BY "…"` -> `CREATE USER app IDENTIFIED BY "[REDACTED:sql-password]"`;
 * `{:user "app" :password "…"}` -> the password is `[REDACTED:keyword-value]`.
 */
import type { OwnRule } from "./own-rules.js";
import { caseless, encodedText, keepAssignment, looksLikeIdentifier, looksLikeValueNotSecret, notSecretName, SECRET_NAME, slashKey } from "./own-shapes.js";
import { notASecret } from "./placeholders.js";
import { generatedToken } from "./own-places.js";
import { CONFIG_RULES } from "./own-configs.js";
import { TOOL_RULES } from "./own-tools.js";
import { FAMILY_RULES } from "./own-families.js";
import { FAMILY_FILE_RULES } from "./own-families-files.js";
import { NINTH_RULES } from "./own-families-9.js";
import { TENTH_RULES } from "./own-families-10.js";
import { CONTEXT_SECRET_RULES } from "./context-secrets.js";

let moreNamedRe: RegExp | undefined;
let envRe: RegExp | undefined;
let keywordRe: RegExp | undefined;
let sqlRe: RegExp | undefined;

/** A name of MORE_SECRET_NAME (its endings). */
const moreName = (name: string): boolean => /(?:^|[_.-])sk$|pepper$|encrypt$/i.test(name);

/**
 * Secret names the assignment rule's SECRET_NAME lacks (the eighth pass, docs/privacy.md "A sixth
 * held-out set"), as a regex source: the SK of a cloud's AK/SK pair (Huawei Cloud's, Volcengine's,
 * Baidu's, Qiniu's secret access key beside its access key id: `HUAWEICLOUD_SDK_SK`, `VOLC_SK`), a
 * pepper (the secret key a password hash is keyed with, OWASP's password storage sheet), and
 * `encrypt`, the gossip encryption key of HashiCorp's Consul, Nomad and Serf agents.
 */
export const MORE_SECRET_NAME = "(?:[A-Za-z][A-Za-z0-9]{0,40}[_.-]){1,8}sk|(?:[A-Za-z][A-Za-z0-9]{0,40}[_.-]){0,8}(?:[A-Za-z0-9]{0,30}?pepper|encrypt)";

/**
 * A value under one of MORE_SECRET_NAME's names: an SK only when random (a generated token: "…_sk"
 * may name a Slovak text), a pepper as the assignment rule reads a value
 * (keepAssignment), an `encrypt` key only as base64 of 16, 24 or 32 random bytes (the key sizes
 * of AES, both cases as random bytes' base64 has them; `encrypt = true` is a switch).
 */
function moreNamedSecret(name: string, value: string): boolean {
  const n = name.toLowerCase();
  if (n.endsWith("pepper")) return !keepAssignment(name, value);
  if (n.endsWith("encrypt")) return /^(?:[A-Za-z0-9+/]{22}(?:==)?|[A-Za-z0-9+/]{32}|[A-Za-z0-9+/]{43}=?)$/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value) && !encodedText(value);
  return !looksLikeValueNotSecret(value) && !looksLikeIdentifier(value) && generatedToken(value);
}

/**
 * The rules of this file and of the set-specific passes, in the order own-rules.ts runs them. The
 * twelve family rules the context rule (context-secrets.ts) replaced (docs/privacy.md "Context, not
 * families": with each left out alone, no secret of the fixture sets was newly missed while the
 * context rule ran) were deleted from their files; their kinds are no rule's
 * (test/privacy/context-families-off.test.ts).
 */
export const CONTEXT_RULES: readonly OwnRule[] = [
  {
    kind: "more-named-value",
    // NAME=value, NAME: value, "NAME": "value", HCL's `NAME = "value"`, `-NAME=value`, for the
    // names of MORE_SECRET_NAME (as the assignment rule for its own names). An SK only as a compound
    // name's last part ("HUAWEICLOUD_SDK_SK", "volc.sk"): the pre-filter's witness then needs the
    // literals "_sk", ".sk", "-sk", and tries no pattern on every text that says "task" or "ask"; a
    // bare `sk = "…"` of 24 random characters or more is the random-token rule's.
    need: (t, lower) => (t.includes("=") || t.includes(":")) && (lower().includes("sk") || lower().includes("pepper") || lower().includes("encrypt")),
    get re() {
      return (moreNamedRe ??= new RegExp(caseless(`(^|[\\s{,;(?&'"\`$-])(["']?)(${MORE_SECRET_NAME})\\2([ \\t]*[:=][ \\t]*)(["']?)((?![$<{[=:]|\\[REDACTED)[^\\s"',;\`]{4,})\\5`), "gm"));
    },
    replace: (m, lead, q, name, sep, vq, value) => (moreNamedSecret(name ?? "", value ?? "") ? `${lead}${q}${name}${q}${sep}${vq}${m}${vq}` : `${lead}${q}${name}${q}${sep}${vq}${value}${vq}`),
  },
  {
    kind: "dockerfile-env",
    // A Dockerfile's ENV instruction in its legacy form, `ENV <key> <value>` (Docker's reference:
    // one variable, its value all the rest of the line, no "="), the key a secret's name
    // (SECRET_NAME or MORE_SECRET_NAME): the value's first word. At a line's start in any case; in
    // upper case after a space or an escaped new line too, where a summary folded the lines or a
    // JSON string holds the file ("FROM ruby:3.3 ENV …", "…\\nENV …").
    need: (_t, lower) => lower().includes("env"),
    get re() {
      return (envRe ??= new RegExp(`((?:^[ \\t]*${caseless("ENV")}|(?<=\\s|\\\\[nrt])ENV)[ \\t]+(${caseless(`${SECRET_NAME}|${MORE_SECRET_NAME}`)})[ \\t]+)(["']?)((?![$<{[=]|\\[REDACTED)[^\\s"'\\\\]{4,})\\3`, "gm"));
    },
    replace: (m, pre, name, q, value) => {
      return (moreName(name ?? "") ? moreNamedSecret(name ?? "", value ?? "") : !keepAssignment(name ?? "", value ?? "")) ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`;
    },
  },
  {
    kind: "keyword-value",
    // A secret named by a keyword, the value a string after it: Clojure's and EDN's maps
    // (`{:user "app" :password "…"}`, `:db/password`), Emacs Lisp's property lists (auth-source's
    // `:secret "…"`), Ruby's hash rockets (`:api_key => '…'`). The keyword after a space, a tab, a
    // new line, "{", "(", "[" or "," (the pre-filter's witness needs those literals), not at the
    // text's very start.
    need: (t) => t.includes(":") && (t.includes('"') || t.includes("'")),
    get re() {
      return (keywordRe ??= new RegExp(`([ \\t\\n{(\\[,](:(?:[\\w.*+!?-]+\\/)?(${caseless(`${SECRET_NAME}|${MORE_SECRET_NAME}`)}))\\s+(?:=>\\s*)?)(["'])((?!\\[REDACTED)[^"'\\s]{4,})\\4`, "g"));
    },
    replace: (m, pre, _kw, name, q, value) => {
      return (moreName(name ?? "") ? moreNamedSecret(name ?? "", value ?? "") : !keepAssignment(name ?? "", value ?? "")) ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`;
    },
  },
  {
    kind: "sql-password",
    // A password set by SQL: `CREATE|ALTER USER … IDENTIFIED [WITH <plugin>] BY|AS '…'` (Oracle,
    // MySQL, MariaDB, ClickHouse; Oracle's unquoted too; MySQL's old `GRANT … IDENTIFIED BY`), `CREATE|ALTER USER|ROLE|LOGIN … [WITH]
    // [ENCRYPTED] PASSWORD [=] '…'` (PostgreSQL, Redshift, SQL Server, Snowflake), `SET PASSWORD
    // [FOR …] = '…'` (MySQL). What follows BY may be a hash (`AS '*…'`, `WITH sha256_hash BY`):
    // a password's hash is taken too. Not a bind variable or a placeholder (`:pw`, `?`, `$1`).
    need: (_t, lower) => lower().includes("identified") || (lower().includes("password") && (lower().includes("create") || lower().includes("alter") || lower().includes("set"))),
    get re() {
      return (sqlRe ??= new RegExp(
        `(\\b${caseless("(?:(?:CREATE|ALTER)\\s+USER|GRANT)")}\\b[^;\\n]{0,200}?\\b${caseless("IDENTIFIED")}\\s+(?:${caseless("WITH")}\\s+[A-Za-z_][\\w$]*\\s+)?(?:${caseless("BY|AS")})\\s+(?:${caseless("PASSWORD")}\\s+)?` +
          `|\\b${caseless("(?:CREATE|ALTER)")}\\s+${caseless("(?:USER|ROLE|LOGIN)")}\\b[^;\\n]{0,200}?\\b${caseless("PASSWORD")} ?=? ?(?=["'])` +
          `|\\b${caseless("SET PASSWORD")}\\b[^;\\n=]{0,80}=\\s*(?:${caseless("PASSWORD")}\\s*\\(\\s*)?(?=["']))` +
          `(?:(["'])((?!\\[REDACTED)[^"'\\n]{3,128})\\2|((?![?:@&$%<{"']|\\[REDACTED|${caseless("(?:VALUES|PASSWORD|NULL|RANDOM)")}\\b)[^\\s"'\`;,)]{3,128}))`,
        "g",
      ));
    },
    replace: (m, pre, q, quoted, bare) => {
      const value = quoted ?? bare ?? "";
      const secret = !looksLikeValueNotSecret(value) && !/^[?:@&$%]|^\$\{|^<[^>]*>$/.test(value);
      return q ? `${pre}${q}${secret ? m : value}${q}` : `${pre}${secret ? m : value}`;
    },
  },
  {
    kind: "client-key",
    // A key passed to an API client's constructor with the account's id (Algolia's
    // `algoliasearch(appId, apiKey)` and `SearchClient.create(appId, apiKey)`, any `…Client(…)`,
    // `…Client.create(…)`, `…Client::new(…)`, "(" right after the name): a literal of 32 hex digits or more or a UUID (a
    // random token of both cases is the random-token rule's already). Not the search-only key of
    // a page's search client, which Algolia documents as public: InstantSearch's docs make it
    // `const searchClient = algoliasearch(appId, searchOnlyKey)` (or algoliasearch/lite's
    // `liteClient`), a browser's client named for searching.
    need: (t) => t.includes("lient") || t.includes("algoliasearch"),
    re: /((?:\b([A-Za-z_$][\w$]*)\s*=\s*)?(?:\balgoliasearch|\b[A-Za-z_$][\w$]*[Cc]lient(?:\.[Cc]reate|::new|\.new)?)\(\s*(?:[^()\n]{0,200}?,\s*)?)(["'])([A-Za-z0-9_-]{20,})\3(?=\s*[,)])/g,
    replace: (m, pre, target, q, value) => {
      const key = /^(?:[0-9a-f]{32,}|[0-9A-F]{32,}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/.test(value ?? "") && !/^0+$|^f+$/i.test(value ?? "");
      const searchOnly = /search/i.test(target ?? "") && /(?:algoliasearch|liteClient)\s*\(/.test(pre ?? "");
      return key && !searchOnly ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`;
    },
  },
  {
    kind: "auth-header",
    // An Authorization header whose credentials come with no scheme word (RFC 9110 wants one; some
    // APIs take the key bare: Unleash's API tokens, "<project>:<environment>.<hex>", in its SDKs'
    // `customHeaders`), quoted or not: taken when a part of it (split at ":" and ".") is what a
    // key generator makes (generatedToken: 32 hex digits or more, a UUID, a random token). The
    // seventh pass's rule (own-places.ts) takes the credentials after a scheme word.
    need: (_t, lower) => lower().includes("authorization"),
    re: /(\b[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]["']?[ \t]*[:=][ \t]*)(["']?)((?!\[REDACTED|[Bb]earer\b|[Bb]asic\b)[A-Za-z0-9._~+/=:*[\]-]{16,})\2/g,
    replace: (m, pre, q, value) => ((value ?? "").split(/[:.]/).some((p) => p.length >= 16 && generatedToken(p.replace(/=+$/, ""))) ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  ...FAMILY_RULES, ...FAMILY_FILE_RULES, // the eighth-set pass: secrets by the family of their place (own-families.ts, own-families-files.ts)
  ...NINTH_RULES, // the ninth-set pass (own-families-9.ts)
  ...TENTH_RULES, // the tenth-set pass (own-families-10.ts)
  ...CONTEXT_SECRET_RULES, // a secret told by its context, wherever it stands (context-secrets.ts)
  ...CONFIG_RULES, ...TOOL_RULES, // the ninth pass: secrets in an OS's or a daemon's config syntax, given to a tool (own-configs.ts, own-tools.ts)
];

/**
 * A quoted value under a secret's name that a clip mark ("…") cut before its closing quote (a
 * tool call's summary): no whole value to judge by its look, so what is left is kept only under
 * no secret's name, as a placeholder or reference, or as a path (the assignment rule's own
 * exclusions). The seventh held-out set's door leaks: `access_token: 'access-production-9130…`
 * and `secret_key="sk-lf-2701…` in summaries, caught whole by the assignment rule and cut in clear.
 */
export function keepClippedValue(name: string, clipped: string): boolean {
  const cut = clipped.slice(0, -1);
  return notSecretName(name.toLowerCase()) || notASecret(cut) || (cut.startsWith("/") && !slashKey(cut));
}
