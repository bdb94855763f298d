/**
 * Secrets recognised by the family of their place rather than by one provider's or one tool's
 * syntax (issue 34's eighth-set pass: the eighth held-out set's misses, closed by forms meant to carry
 * to sets not yet written; docs/privacy.md "An eighth held-out set"): a generated key or a
 * password passed to a call that names credentials (any SDK's `…Credentials(id, secret)`,
 * `…Client(key)`, `connect(dsn, user, password)`), a header or key name given as a string and
 * its value as the next one (`.addHeader("X-…-Key", "…")`, `["x-api-key"] = "…"`), a value
 * after a command-line flag named like a secret in any spelling (`-JumpCloudApiKey`, `--authkey`,
 * `-pw`, `-setcookie`), a `user:password` pair after a name or flag meaning credentials, a
 * password in the password position of log-in and user-creation commands (SQL's `USER … USING`,
 * `.LOGON host/user,pw`, `add_user <user> <pw>`, `<tool> connect <host> <token>`), fed to a
 * password prompt by a heredoc, a pipe or an expect script, an `Authorization … Basic <base64>`
 * whatever its separators. (A percent-encoded value under a secret's name was one too, until the
 * context rule replaced it: docs/privacy.md "Context, not families".) Files and configs are in
 * own-families-files.ts. Each rule's pre-filter witness is in
 * witness-families.ts.
 *
 * Example: `BceCredentials('<ak>', '<32 hex>')` -> the second argument is `[REDACTED:call-credential]`.
 */
import type { OwnRule } from "./own-rules.js";
import { caseless, letterToken, looksLikeIdentifier, looksLikeValueNotSecret, namedPassword, notSecretName, oneCaseToken, strongRandom } from "./own-shapes.js";
import { notASecret } from "./placeholders.js";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A value that holds something: not a reference, a placeholder, a marker or a number. */
export function held(v: string): boolean {
  return v.length >= 4 && !looksLikeValueNotSecret(v) && !/^[$%<{]|\[REDACTED|^\*+$/.test(v) && !notASecret(v);
}

/** Hex of 32 digits or more in one case, not one digit repeated: a key or a digest's length. */
function hexKey(s: string): boolean {
  return /^(?:[0-9a-f]{32,}|[0-9A-F]{32,})$/.test(s) && !/^(.)\1+$/.test(s);
}

/**
 * What a key generator makes: hex of 32 or more, a strong random token (strongRandom), a random
 * run of one case (oneCaseToken), in whole or as one part of a value made of parts (split at
 * ".", ":", "_", "-": `AstraCS:<id>:<hex>`, The Things Network's `NNSXS.<base32>.<base32>`,
 * DevCycle's `dvc_server_<uuid>_<hash>`), or a bcrypt-shaped string (CurseForge's API keys). A
 * bare UUID is an id.
 */
export function generatedKey(v: string): boolean {
  if (/\s/.test(v) || UUID.test(v)) return false;
  if (/^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/.test(v)) return true;
  if (hexKey(v) || strongRandom(v) || oneCaseToken(v)) return true;
  const parts = v.split(/[.:_~-]/);
  if (parts.length > 1 && parts.some((p) => hexKey(p) || (p.length >= 16 && strongRandom(p)) || oneCaseToken(p))) return true;
  // A short prefix, then a UUID (and its tail): a prefixed key whose random part is the UUID.
  return /^[a-z]{2,12}(?:_[a-z]{2,12})*[_-][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[_-][0-9a-z]{4,})?$/.test(v);
}

/** A value where a password or a key stands: a password as people choose them or a generated key; no DSN, URL, path or list. */
export function secretValue(v: string): boolean {
  if (!held(v) || /:\/\/|=(?!=*$)|[;\s]|^[~./\\]/.test(v)) return false;
  return generatedKey(v) || (namedPassword(v) && !looksLikeIdentifier(v));
}

const keep = (pre: string | undefined, value: string | undefined, post = ""): string => `${pre ?? ""}${value ?? ""}${post}`;
const take = (m: string, pre: string | undefined, post = ""): string => `${pre ?? ""}${m}${post}`;

/** Words in a call's name that say it takes credentials (lower-cased). */
const CRED_CALL = /cred|auth|token|secret|passw|pwd|pw(?:_|$)|_pw|login|logon|connect|client|apikey|api_key|setkey/;
/** Of those, the ones whose arguments include a password (a user's): not a client's. */
const PASS_CALL = /cred|auth|passw|pwd|pw(?:_|$)|_pw|login|logon|connect/;
let headerRe: RegExp | undefined;
let flagRe: RegExp | undefined;
let promptRe: RegExp | undefined;
let foldedRe: RegExp | undefined;
const FLAG_WORDS = "key|token|secret|pass|passwd|password|passphrase|pw|pwd|auth|authkey|cookie|sec|creds?|credentials";
// Tools that read a password from their standard input (not ssh, mysql or psql: they read the terminal).
const HEREDOC_TOOLS = "kinit|kpasswd|passwd|su|ksu|sudo[ \\t]+-S|smbpasswd|chpasswd|ftp|openssl|gpg|vault[ \\t]+login";

export const FAMILY_RULES: readonly OwnRule[] = [
  {
    kind: "call-credential",
    // A string literal passed to a call whose name says it takes credentials (`BceCredentials`,
    // `NewStaticCredentials`, `PlainTextAuthProvider`, `createAdminApiClient`, `Recurly\Client`,
    // `username_pw_set`, `buildTokenWithUid`, `DBI->connect`, `Credentials`): a generated key in
    // any position, a password after the first argument of a call that takes a user's. The call's
    // name and the arguments before the literal are read behind it, so each literal is judged alone.
    need: (t) => t.includes("("),
    // The literal first (a quote, 4 characters or more, its closing quote, then "," or ")"), the call's lookbehind only there.
    re: /(?=(["'])(?:(?!\1)[^\n\\]){4,200}\1\s*[,)])(?<=\b([A-Za-z_][\w$]*(?:(?:\.|::|->|\\)[A-Za-z_][\w$]*)*)[ \t]*\(([^()\n]{0,300}?))(["'])((?:(?!\4)[^\n\\]){4,200})\4(?=\s*[,)])/g,
    replace: (m, _lq, callee, args, q, value) => {
      const name = (callee ?? "").toLowerCase();
      const v = value ?? "";
      const named = CRED_CALL.test(name) && (generatedKey(v) && held(v) || (PASS_CALL.test(name) && /,/.test(args ?? "") && secretValue(v)));
      // An (id, secret) pair: a UUID first (right after the parenthesis), then a generated key (Pusher Beams' instance id and secret key).
      const pair = /^["'][0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}["']\s*,\s*$/.test(args ?? "") && (hexKey(v) || strongRandom(v));
      return named || pair ? `${q}${m}${q}` : `${q}${v}${q}`;
    },
  },
  {
    kind: "call-credential",
    // The same without parentheses, as Haskell and shells apply a function: `setRequestBasicAuth "user" "password"`.
    need: (t) => /Auth|Cred|Login|Password/.test(t),
    re: /(?<=\b[a-z]\w*(?:Auth|Credentials?|Login|Password|Passwd)\w*(?:[ \t]+"[^"\n]*")*[ \t]+"[^"\n]*"[ \t]+)"([^"\n]{4,128})"/g,
    replace: (m, value) => (secretValue(value ?? "") ? `"${m}"` : `"${value}"`),
  },
  {
    kind: "header-pair",
    // A header's or a key's name given as a string, and its value as the next string: OkHttp's and
    // Java's `.addHeader("X-RapidAPI-Key", "…")`, `setRequestProperty(…)`, Go's `Header.Set(…)`,
    // Lua's and Ruby's `["x-api-key"] = "…"`, PHP's `'X-Api-Key' => '…'`. (`"name": "value"` is
    // the assignment rule's.) The name ends in a secret's word; the value is a generated key, or a
    // password under a password's or a secret's name.
    need: (t) => t.includes('",') || t.includes("',") || t.includes("]") || t.includes("=>"),
    get re() {
      return (headerRe ??= new RegExp(`((["'])([\\w.-]{0,40}(?:${caseless("key|token|secret|auth|password|passwd|pwd|signature|apikey|passphrase")}))\\2[ \\t]*(?:,|\\][ \\t]*=|=>)[ \\t]*)(["'])((?:(?!\\4)[^\\n\\\\]){8,300})\\4`, "g"));
    },
    replace: (m, pre, _q, name, q, value) => {
      const n = (name ?? "").toLowerCase();
      const v = value ?? "";
      const secret = !notSecretName(n) && (held(v) || /^\$2[abxy]?\$/.test(v)) && (generatedKey(v) || (/passw|pwd|secret|passphrase/.test(n) && secretValue(v)));
      return secret ? `${pre}${q}${m}${q}` : `${pre}${q}${v}${q}`;
    },
  },
  {
    kind: "basic-auth",
    // `Authorization` and `Basic <base64>` with any separators between (nginx's and HAProxy's
    // `proxy_set_header Authorization "Basic …"`, Caddy's `header_up`, a dictionary's `'Authorization', 'Basic …'`).
    // Kept: base64 of `user:` with no password (an anonymous log-in).
    need: (_t, lower) => lower().includes("basic"),
    re: /(\b[Aa]uthorization["']?[ \t]*[:=,]?[ \t]*["']?[ \t]*[Bb]asic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})/g,
    replace: (m, pre, value) => (/^[^:]*:$/.test(Buffer.from(value ?? "", "base64").toString("latin1")) ? keep(pre, value) : take(m, pre)),
  },
  {
    kind: "basic-auth",
    // `Basic <base64>` anywhere when the base64 decodes to `user:password` (a header built by hand, in a log, a config).
    need: (_t, lower) => lower().includes("basic"),
    re: /(\b[Bb]asic[ \t]+)([A-Za-z0-9+/]{12,}={0,2})(?![\w+/=])/g,
    replace: (m, pre, value) => (/^[\x21-\x7e]{1,64}:[^]+$/.test(Buffer.from(value ?? "", "base64").toString("latin1")) ? take(m, pre) : keep(pre, value)),
  },
  {
    kind: "secret-flag",
    // A command-line flag whose name ends in a secret's word, in any case and dash style
    // (PowerShell's `-JumpCloudApiKey`, Tailscale's `--authkey`, kadmin's `-pw`, Erlang's
    // `-setcookie`, `--sec`), then a space or "=": a generated key, a password, or a cookie's
    // random letters. Not a file, a variable or a prompt given for it (`--token-file`, `-pass env:VAR`).
    need: (t) => t.includes(" -") || t.includes("\t-") || t.includes("\n-"),
    get re() {
      return (flagRe ??= new RegExp(`([ \\t\\n]-{1,2}(?![Nn]o-)((?:[A-Za-z][\\w.-]{0,40}?)?(?:${caseless(FLAG_WORDS)}))(?:[ \\t]+|=))(["']?)((?![-$<{[]|\\[REDACTED)[^\\s"']{6,256})\\3`, "g"));
    },
    replace: (m, pre, name, q, value) => {
      const n = (name ?? "").toLowerCase();
      const v = value ?? "";
      if (notSecretName(n) || /(?:file|path|dir|env|id|name|type|length|size)$/.test(n) || /^(?:env|file|fd|stdin|prompt|pass|keyring):/.test(v)) return `${pre}${q}${v}${q}`;
      const ok = /sec$|key$|token$/.test(n) && !/pass|pw/.test(n) ? generatedKey(v) && held(v) : secretValue(v) || (/cookie$/.test(n) && held(v) && (letterToken(v) || /^[A-Z]{16,}$/.test(v)));
      return ok ? `${pre}${q}${m}${q}` : `${pre}${q}${v}${q}`;
    },
  },
  {
    kind: "secret-flag",
    // `-k <key>` (Cloudsmith's, many CLIs' API key): a single-letter flag, so only a generated key of 32 or more.
    need: (t) => t.includes(" -k") || t.includes(" -K"),
    re: /( -[kK][ \t]+)(["']?)([A-Za-z0-9_-]{32,})\2(?![\w.-])/g,
    replace: (m, pre, q, value) => (generatedKey(value ?? "") && held(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "user-password",
    // A `user:password` pair after a name or flag that means credentials: Squid's `login=user:pw`,
    // curl's `--user :key` (Infura's key secret with no user), `--proxy-user`, `userpwd=`, `credentials=`.
    need: (_t, lower) => ["login", "user", "cred", "auth", "-u"].some((w) => lower().includes(w)),
    re: /((?:(?<![\w-])(?:login|userpwd|user[_-]?pass(?:word)?|credentials|basic[_-]?auth|proxy[_-]?user)[ \t]*[=:][ \t]*|\s-{1,2}(?:u|user|proxy-user|userpwd|basic-auth)(?:[ \t]+|=))["']?[^\s:@"'/=]{0,64}:)((?!\[REDACTED)[^\s"'@]{4,128})/g,
    replace: (m, pre, value) => (secretValue(value ?? "") ? take(m, pre) : keep(pre, value)),
  },
  {
    kind: "command-password",
    // The password position of log-in commands: SQL's `CONNECT TO db USER u USING pw` (DB2, Informix,
    // embedded SQL), Teradata's `.LOGON host/user,pw`.
    need: (_t, lower) => lower().includes("using") || lower().includes(".logon"),
    re: /(\b[Uu][Ss][Ee][Rr][ \t]+["']?[\w.@\\-]+["']?[ \t]+[Uu][Ss][Ii][Nn][Gg][ \t]+|\.[Ll][Oo][Gg][Oo][Nn][ \t]+(?:[\w.-]+\/)?[\w$.-]+,)(["']?)([^\s"';,]{4,128})\2/g,
    replace: (m, pre, q, value) => (secretValue(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "command-password",
    // A user created or its password changed with the password on the command line:
    // `rabbitmqctl add_user <user> <pw>`, `change_password`, `ejabberdctl`-style `register`, `user-add`.
    need: (_t, lower) => /add.?user|user.?add|create.?user|change.?password|set.?password/.test(lower()),
    re: /(\b(?:add_user|adduser|add-user|user[_-]add|create[_-]user|change[_-]password|set[_-]password)[ \t]+(?:-{1,2}[\w-]+[ \t]+)*["']?[\w.@-]+["']?[ \t]+)(["']?)((?![-$<{])[^\s"']{4,128})\2/g,
    replace: (m, pre, q, value) => (secretValue(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "command-password",
    // A tool's `connect`, `login` or `auth` with a host and then a generated token (`sem connect <host> <token>`).
    need: (_t, lower) => lower().includes("connect") || lower().includes("login") || lower().includes("auth"),
    re: /(\b(?:connect|login|auth)[ \t]+(?:https?:\/\/)?[\w-]+(?:\.[\w-]+)+\/?[ \t]+)([A-Za-z0-9_-]{16,})(?![\w.-])/g,
    replace: (m, pre, value) => (generatedKey(value ?? "") && held(value ?? "") ? take(m, pre) : keep(pre, value)),
  },
  {
    kind: "prompt-password",
    // A password fed to a tool that prompts for one: the first line of a heredoc (`kinit u <<EOF`,
    // `passwd <<EOF`), a here-string (`sudo -S cmd <<< 'pw'`), or echoed into its pipe
    // (`echo pw | kinit`, `| sudo -S`, `| docker login --password-stdin`).
    need: (t) => t.includes("<<"),
    get re() {
      // The heredoc's first line or its second (`passwd` asks twice); a here-string.
      return (promptRe ??= new RegExp(`(?<=[\\n"' \\t])(?<=\\b(?:${HEREDOC_TOOLS})\\b[^\\n]*<<-?[ \\t]*["']?\\w+["']?[ \\t]*\\n(?:[^\\n]*\\n)?|\\b(?:${HEREDOC_TOOLS})\\b[^\\n]*<<<[ \\t]*["']?)((?![-$<{])[^\\s"'|]{4,128})(?=["']?[ \\t]*(?:\\n|$))`, "g"));
    },
    replace: (m, value) => (secretValue(value ?? "") ? m : value ?? ""),
  },
  {
    kind: "prompt-password",
    // A heredoc a summary folded onto one line: `kinit u <<EOF <pw> EOF`, the body between the delimiters.
    need: (t) => t.includes("<<"),
    get re() {
      return (foldedRe ??= new RegExp(`(\\b(?:${HEREDOC_TOOLS})\\b[^\\n]*<<-?[ \\t]*["']?(\\w+)["']?[ \\t]+(?:[^\\s]+[ \\t]+)?)((?![-$<{])[^\\s"'|]{4,128})(?=(?:[ \\t]+[^\\s]+)?[ \\t]+\\2\\b)`, "g"));
    },
    replace: (m, pre, _delim, value) => (secretValue(value ?? "") ? take(m, pre) : keep(pre, value)),
  },
  {
    kind: "prompt-password",
    need: (t) => t.includes("|"),
    re: /(\b(?:echo|printf)[ \t]+(?:-[ne]+[ \t]+)?["']?)((?![-$<{])[^\s"'|]{4,128})(?=["']?[ \t]*\|[ \t]*(?:sudo[ \t]+-S|kinit|kpasswd|passwd|su\b|ksu|smbpasswd|chpasswd|[\w-]+[ \t]+login\b[^\n]*--password-stdin))/g,
    replace: (m, pre, value) => (secretValue(value ?? "") ? take(m, pre) : keep(pre, value)),
  },
  {
    kind: "prompt-password",
    // An expect script (Tcl's expect, Python's pexpect): a `send` within three lines after an `expect` of a password prompt.
    need: (t) => t.includes("expect") && t.includes("send"),
    // (A summary folds the lines: the send after a space.)
    re: /((?:^|[\n \t])(?:expect|\w+\.expect)\b[^\n]*?(?:[Pp]ass|PASS|PIN|[Ss]ecret)[^\n]*?(?:\n(?:[^\n]*\n){0,2}?[ \t]*|[ \t]+)(?:send|exp_send|\w+\.send(?:line)?)\b[ \t(]*)(["'])((?![$[])[^"'\n\\]{4,128})((?:\\[rn])?)\2/g,
    replace: (m, pre, q, value, tail) => (secretValue(value ?? "") ? `${pre}${q}${m}${tail}${q}` : `${pre}${q}${value}${tail}${q}`),
  },
  {
    kind: "query-secret",
    // A query parameter that carries a key by its place: Azure Functions' `?code=`, a signature's
    // `sig=` (a padded base64 value under any name is not read: an encrypted token, Fernet's, is data).
    need: (t) => t.includes("code=") || t.includes("sig=") || t.includes("signature="),
    re: /([?&](?:code|sig|signature)=)([A-Za-z0-9_-]{32,}={0,2})(?=[&#"'\s]|$)/g,
    replace: (m, pre, value) => (strongRandom((value ?? "").replace(/=+$/, "")) ? take(m, pre) : keep(pre, value)),
  },
  {
    kind: "prefixed-key",
    // A prefix that says "secret key" (`sk_`, Africa's Talking's `atsk_`, `…secret_`, `…token_`)
    // and 32 hex digits or more: the prefixed-token rule reads only bodies of both cases.
    need: (t) => /sk[_-]|secret[_-]|token[_-]|tkn[_-]/.test(t),
    re: /(?<![\w-])[a-z]{0,10}(?:sk|secret|token|tkn)[_-](?:(?:live|test|prod)_)?[0-9a-f]{32,}(?![\w-])/g,
  },
];

/**
 * Findings of any rule that are no secret by the family of their place (the eighth-set pass; engine.ts
 * drops them as it drops publicByDesign's): a value that is no value (a call, `get_env("…")`; an
 * environment import, Dhall's `env:NAME`; `null` closed by its brackets; a keyword in capitals,
 * `GENERATE`, not under a password's name); a key whose prefix or name says it is published
 * (`live_ck_`, `test_pk_`, `pk_live_` client and publishable keys; a bare `pk_` is ClickUp's personal token, PubNub's `pub-c-`/`sub-c-`, a `publishKey`,
 * `subscribeKey`, `anonKey`); a key on a line that says "public key" or right under one
 * (minisign's and signify's key files), where the line says no "private" or "secret"; a
 * Kerberos principal taken for an e-mail address (a service's `HTTP/host@REALM`, or a realm in
 * capitals where the text speaks of Kerberos).
 */
export function keptByFamily(text: string, start: number, end: number): boolean {
  // Every finding passes here: literal checks first, each pattern only where its literal is
  // (a pattern's first use costs its compiling in a fresh hook process; no caseless flags).
  const value = text.slice(start, end);
  const c = value.charCodeAt(0);
  if (value.endsWith("(") && /^[A-Za-z_][\w.]*\($/.test(value)) return true;
  if (value.startsWith("env:") && /^env:[A-Za-z_]\w*$/.test(value)) return true;
  if ((c === 110 || c === 117 || c === 116 || c === 102 || c === 78 || c === 85 || c === 84 || c === 70) && /^(?:null|nil|none|undefined|true|false)[\]}),]+$/.test(value.toLowerCase())) return true;
  const before = text.slice(Math.max(0, start - 60), start).toLowerCase();
  if (c >= 65 && c <= 90 && value.length >= 4 && value.length <= 16 && /^[A-Z]+$/.test(value) && (value.match(/[AEIOU]/g) ?? []).length >= 0.3 * value.length && !/(?:pass|pwd|secret|cookie)\w*["']?\s*[:=]?\s*["']?$/.test(before)) return true;
  if ((c === 108 || c === 116 || c === 112 || c === 115) && /^(?:live|test)_(?:pk|ck)_|^pk_(?:live|test)_|^(?:pub|sub)-c-/.test(value)) return true;
  if (before.includes("key") && /(?:publish|subscribe|public|publishable|anon)[_-]?key["']?\s*[:=]\s*["']?$/.test(before)) return true;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).toLowerCase();
  const prev = lineStart > 0 ? text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart - 1).toLowerCase() : "";
  // A marker's kind is no word of the text ("[REDACTED:flutterwave-public-key]").
  const publicLine = (l: string): boolean => {
    if (!l.includes("pub")) return false;
    // A placeholder's name is no word either (`key=PUBLIC_KEY_PLACEHOLDER&token=…`: the ninth-set pass).
    const words = l.replace(/\[redacted:[^\]]*\]/g, " ").replace(/\w*placeholder\w*/g, " ");
    return /public[ _-]?key|pubkey/.test(words) && !/private|secret|priv\b/.test(words);
  };
  if (publicLine(line) || (publicLine(prev) && line.trim() === value.toLowerCase())) return true;
  if (value.includes("@") && (text[start - 1] === "/" || (/@[A-Z0-9.-]+$/.test(value) && /kinit|klist|kadmin|ktutil|keytab|krb5|kerberos/.test(text.toLowerCase())))) return true;
  return false;
}
