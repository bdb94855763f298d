/**
 * Secrets given to a tool in its documented syntax, and provider formats (issue 34's ninth pass,
 * the seventh held-out set's misses, by form; docs/privacy.md "A seventh held-out set"; run with
 * own-configs.ts's rules): WooCommerce's consumer secret (`cs_` and 40 hex), a `user:secret` piped
 * to base64 (a Basic header built in a subshell), SAP HANA's `hdbuserstore SET`, a Go MySQL DSN's
 * `user:password@tcp(…)`, PowerShell's `ConvertTo-SecureString '…' -AsPlainText`, `openssl enc -K
 * <hex>`, Bundler's `bundle config [set] <host> <user>:<password>`, a secret in XML CDATA or in an
 * element with attributes named for a secret (FileZilla's `<Pass encoding="base64">`), a Solana CLI
 * keypair file (a JSON array of 64 byte values). Each has its own pre-filter witness (witness-places.ts).
 *
 * Example: `hdbuserstore SET K host:30015 SYSTEM …` -> the password is `[REDACTED:tool-password]`.
 */
import type { OwnRule } from "./own-rules.js";
import { caseless, keepAssignment, letterToken, looksLikeValueNotSecret, SECRET_NAME } from "./own-shapes.js";

/** A password a command line or a file holds: not a placeholder, a reference or a marker. */
const held = (v: string): boolean => !looksLikeValueNotSecret(v) && !/^[$%<{]|\[REDACTED/.test(v);
const pass = (m: string, pre: string | undefined, value: string | undefined, post = ""): string => (held(value ?? "") ? `${pre}${m}${post}` : `${pre}${value}${post}`);
let cdataRe: RegExp | undefined;
let attrRe: RegExp | undefined;

export const TOOL_RULES: readonly OwnRule[] = [
  {
    kind: "config-directive",
    // A directive named for a secret and a value of 20 or more random letters (letterToken:
    // Logz.io's shipping tokens) where a summary joined the file's lines ("… logzio_token <token>
    // logzio_url …"): the config-directive rule reads a line of its own, the prose rules want a digit.
    need: (_t, lower) => ["key", "token", "secret", "pass", "pwd", "auth", "psk"].some((w) => lower().includes(w)),
    re: /((?<![\w.-])[A-Za-z][\w.-]{0,60}(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Pp][Aa][Ss][Ss](?:[Ww][Oo][Rr][Dd])?|[Pp][Ww][Dd]|[Aa][Uu][Tt][Hh]|[Pp][Ss][Kk])[ \t]+)([A-Za-z]{20,})(?![\w.-])/g,
    replace: (m, pre, value) => (letterToken(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  // WooCommerce's REST API consumer secret, as its docs give it: "cs_" and 40 hex (its key is "ck_").
  { kind: "woocommerce-secret", need: (t) => t.includes("cs_"), re: /(?<![A-Za-z0-9_-])cs_[0-9a-f]{40}(?![A-Za-z0-9_-])/g },
  {
    kind: "tool-password",
    // `printf '%s' 'id:secret' | base64`, `echo -n "user:pass" | base64`: credentials made into a
    // Basic header (curl's -H "Authorization: Basic $(…)", Zoom's and many OAuth docs): the secret.
    need: (t) => t.includes("base64"),
    re: /(\b(?:printf[ \t]+(?:'%s'|"%s")|echo(?:[ \t]+-n)?)[ \t]+(["'])[^"'\s:]{1,128}:)((?!\[REDACTED)[^"'\s]{4,})(?=\2[ \t]*\|[ \t]*base64\b)/g,
    replace: (m, pre, _q, value) => pass(m, pre, value),
  },
  {
    kind: "tool-password",
    // SAP HANA's secure user store: `hdbuserstore [options] SET <key> <env> <user> <password>`.
    need: (t) => t.toLowerCase().includes("hdbuserstore"),
    re: /(\bhdbuserstore(?:[ \t]+-[A-Za-z]+)*[ \t]+SET[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+)(["']?)((?!\[REDACTED)[^\s"']{4,})\2/gi,
    replace: (m, pre, q, value) => pass(m, `${pre}${q}`, value, q),
  },
  {
    kind: "url-password",
    // Go's MySQL driver DSN: `[user[:password]@][net[(addr)]]/dbname`, net tcp, tcp6 or unix.
    need: (t) => t.includes("@tcp") || t.includes("@unix("),
    re: /((?<![^\s"'`=(\[,])[\w.-]{1,64}:)((?!\[REDACTED)[^\s:@"'`/]{4,})(?=@(?:tcp6?|unix)\()/g,
    replace: (m, pre, value) => pass(m, pre, value),
  },
  {
    kind: "tool-password",
    // PowerShell: `ConvertTo-SecureString [-String] '…' -AsPlainText [-Force]`: the plain text is a password.
    need: (t) => t.toLowerCase().includes("convertto-securestring"),
    re: /(\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?)(["'])((?!\[REDACTED)[^"'\n]{4,})\2(?=[^\n]*-AsPlainText)/gi,
    replace: (m, pre, q, value) => (/^\$/.test(value ?? "") && q === '"' ? `${pre}${q}${value}${q}` : pass(m, `${pre}${q}`, value, q)),
  },
  {
    kind: "tool-password",
    // `openssl enc … -K <hex>`: the raw key in hex (OpenSSL's enc page; its -iv is no secret).
    need: (t) => t.includes("openssl") && t.includes("-K"),
    re: /(\bopenssl\b[^\n]*?[ \t]-K[ \t]+)([0-9A-Fa-f]{16,})(?![0-9A-Za-z])/g,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "tool-password",
    // Bundler's credentials for a gem source: `bundle config [set] [--global|--local] <host> <user>:<password>`.
    need: (t) => t.includes("bundle config"),
    re: /(\bbundle config[ \t]+(?:set[ \t]+)?(?:--(?:global|local)[ \t]+)?(?:https?:\/\/)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\/?[ \t]+[^\s:"']+:)((?!\[REDACTED)[^\s"']{4,})/g,
    replace: (m, pre, value) => pass(m, pre, value),
  },
  {
    kind: "xml-named-value",
    // A secret in CDATA: `<entry key="smtp.password"><![CDATA[…]]></entry>` (Java's XML
    // properties), `<password><![CDATA[…]]></password>`: CDATA keeps "&" and "<" as they are.
    need: (t) => t.includes("<![CDATA["),
    get re() {
      return (cdataRe ??= new RegExp(`(<(?:[A-Za-z][\\w:.-]*\\s[^<>]*?\\b(?:${caseless("name|key")})=["'](${caseless(SECRET_NAME)})["'][^<>]*|(${caseless(SECRET_NAME)})(?:\\s[^<>]*)?)>\\s*<!\\[CDATA\\[)((?!\\[REDACTED)[^\\]]{4,}?)(?=\\]\\]>)`, "g"));
    },
    replace: (m, pre, aName, eName, value) => (keepAssignment(aName ?? eName ?? "", value ?? "") ? `${pre}${value}` : `${pre}${m}`),
  },
  {
    kind: "xml-named-value",
    // An element named for a secret that has attributes: FileZilla's `<Pass encoding="base64">…</Pass>`
    // (base64 is no cipher), `<password type="plain">…</password>`.
    need: (t) => t.includes("</"),
    get re() {
      return (attrRe ??= new RegExp(`(<(${caseless(SECRET_NAME)})\\s[^<>]*>)((?!\\[REDACTED)[^<\\s]{4,})(?=</\\2>)`, "g"));
    },
    replace: (m, pre, name, value) => (keepAssignment(name ?? "", value ?? "") ? `${pre}${value}` : `${pre}${m}`),
  },
  {
    kind: "solana-keypair",
    // The Solana CLI's keypair file (id.json): the 64-byte ed25519 keypair as a JSON array of byte
    // values, after the word Solana or keypair (its path, its command): 64 bytes alone may be any data.
    need: (t) => /solana|keypair/i.test(t),
    // An array a clip mark cut after 17 values or more is read too ("[187,30,…,2,2…").
    re: /((?:[Ss]olana|[Kk]eypair)[^[\]]{0,200}?)(\[\s*(?:(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\s*,\s*){63}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\s*\]|(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\s*,\s*){16,62}\d{0,3}…))/g,
    replace: (m, pre) => `${pre}${m}`,
  },
];
