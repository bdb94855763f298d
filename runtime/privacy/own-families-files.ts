/**
 * Secrets in files and configs recognised by the family of their place (issue 34's eighth-set pass,
 * with own-families.ts; docs/privacy.md "An eighth held-out set"): a password manager's or any
 * CSV export whose header names a password or key column, a file shown under a name that says it holds secrets (`cat ….auth`, `# /etc/davfs2/secrets`), an
 * INI section of accounts (`[admins]`, `[users]`), a declaration naming a secret with a type
 * between (COBOL's `PIC X(12) VALUE '…'`, `#define …_TOKEN "…"`, Bicep's `@secure() param`), a
 * template parameter marked secret with a default (CloudFormation's `NoEcho`, Terraform's
 * `sensitive = true`), names ending in
 * "PW" and LDIF's base64 `attr::`, a key as an array of 16 to 64 byte values, a key file that
 * says it holds a signing or secret key, key material in a keytab listing, a session key, and a
 * token after a host in a name's value (`host=token`). And a password in prose in any language: a
 * token shaped as a generated password in a line of words. (An XML key/value pair, a quoted
 * directive and a database's encryption PRAGMA had rules here until the context rule replaced
 * them: docs/privacy.md "Context, not families".)
 *
 * Example: `url,username,password\nhttps://…,ana,<pw>` -> the password column's value is `[REDACTED:csv-secret]`.
 */
import type { OwnRule } from "./own-rules.js";
import { generatedKey, held, secretValue } from "./own-families.js";
import { caseless, encodedText, keepAssignment, notSecretName, oneCaseToken, strongRandom } from "./own-shapes.js";
import { besideWords, otherScriptLine, proseLine, proseSecret } from "./witness-families.js";

/** A column's or a key's name that names a secret (lower-cased). */
const SECRET_WORD = /(?:password|passwd|passphrase|pwd|pass|secret|token|api_?key|app_?key|apikey|appkey|_key|private_?key)$/;
const STRONG_WORD = /passw|pwd|pass$|secret|passphrase/;
let declRe: RegExp | undefined;

export const FAMILY_FILE_RULES: readonly OwnRule[] = [
  {
    kind: "csv-secret",
    // A CSV whose header names a secret column (LastPass's, Bitwarden's, Chrome's password exports:
    // `url,username,password,…`; a LoRaWAN device list's `app_key`): that column's values. The header
    // and the fields before the value are read behind it, so each field is judged by its column.
    need: (t, lower) => t.includes(",") && /pass|pwd|secret|token|key/.test(lower()),
    // A header of three names or more, no spaces (a sentence with commas is none). The header may follow words (a message quoting it); a summary folds the first row onto its line.
    re: /(?<=^|[,\n \t])(?=[^,\n]{4})(?<=(?:^|[\n \t])([\w.-]{1,40}(?:,[\w.-]{0,40}){2,40})(?:\n(?:[^\n]*\n){0,50}?|[ \t]+)((?:[^,\n]*,)*))([^,\n]{4,256})(?=,|\n|$)/g,
    replace: (m, header, before, value) => {
      const cols = (header ?? "").toLowerCase().split(",").map((c) => c.trim());
      const col = cols[(before ?? "").split(",").length - 1] ?? "";
      const v = value ?? "";
      const secret = SECRET_WORD.test(col) && !notSecretName(col) && held(v) && !/\s/.test(v) && (STRONG_WORD.test(col) ? v.length >= 6 : generatedKey(v));
      return secret ? m : v;
    },
  },
  {
    kind: "secret-file",
    // A file shown under a name that says it holds credentials (`cat /etc/openvpn/….auth`, `cat …/api_key`: the ninth-set pass, a
    // `# /etc/davfs2/secrets` heading, `==> credentials <==`): a line's last field, when a password
    // or a generated key (a user name, a URL, a `user:hash` line are not).
    need: (_t, lower) => /secret|passw|credential|\.auth|auth\b|\.pass|psk|netrc|api[_-]?key|token/.test(lower()),
    // (A summary folds the lines: then one of the four fields after the heading, the last of its text or before a space.)
    re: /(?<=\s)(?=[^\s:$/@]{8})(?<=(?:^|[\n \t])(?:\$[ \t]*(?:cat|less|more|head|tail)[ \t]+|#[ \t]*|==>[ \t]*)\S*(?:[Ss]ecret|[Pp]assw|[Cc]redential|\.auth|[Aa]uth\b|\.pass|[Pp]sk|netrc|[Aa]pi[_-]?[Kk]ey|[Tt]oken)\S*(?:[^\n]*\n(?:[^\n]*\n){0,5}(?:[^\n]*[ \t])?|(?:[ \t]+\S+){0,4}[ \t]+))([^\s:$/@]{8,128})(?=[ \t]*(?:\n|$)|[ \t])/g,
    replace: (m, value) => (secretValue(value ?? "") ? m : value ?? ""),
  },
  {
    kind: "secret-section",
    // An INI section of accounts (CouchDB's `[admins]`, `[users]`, `[passwords]`, `[credentials]`):
    // `name = password` lines in it, the password as people choose them or generated.
    need: (t) => t.includes("["),
    re: /(?<=[=:\s"'])(?<=\[(?:[Aa]dmins|[Uu]sers|[Pp]asswords|[Cc]redentials|[Ss]ecrets|[Aa]ccounts)\][ \t]*(?:\n(?:[^\n[]*\n){0,20}|[ \t])[ \t]*[\w.@-]+[ \t]*[=:][ \t]*["']?)([^\s"';#]{4,128})(?=["']?[ \t]*(?:[;#\n]|$))/g,
    replace: (m, value) => (secretValue(value ?? "") ? m : value ?? ""),
  },
  {
    kind: "declared-secret",
    // A declaration that names a secret, a type between, then its initial value: COBOL's
    // `05 WS-DB-PASSWORD PIC X(12) VALUE '…'`, SQL's and PL/SQL's `DEFAULT '…'`; C's
    // `#define …_AUTH_TOKEN "…"`; Bicep's `@secure() param … string = '…'`.
    need: (_t, lower) => lower().includes("value") || lower().includes("default") || lower().includes("define") || lower().includes("@secure"),
    get re() {
      return (declRe ??= new RegExp(
        `(\\b[\\w-]*(?:${caseless("password|passwd|pwd|secret|token|api-key|apikey|api_key")})[\\w-]*\\b[^\\n=;'"]{1,40}?\\b(?:${caseless("value|default")})[ \\t]+N?)(['"])([^'"\\n]{4,256})\\2` +
          `|(#[ \\t]*define[ \\t]+(\\w+)[ \\t]+)"([^"\\n]{4,256})"|(@secure\\(\\)\\s*param[ \\t]+\\w+[ \\t]+\\w+[ \\t]*=[ \\t]*)'([^'\\n]{4,256})'`,
        "g",
      ));
    },
    replace: (m, pre, q, value, dPre, dName, dValue, bPre, bValue) => {
      if (pre) return held(value ?? "") && !/^\s|\s$/.test(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`;
      if (dPre) return SECRET_WORD.test((dName ?? "").toLowerCase()) && !keepAssignment(dName ?? "", dValue ?? "") && held(dValue ?? "") ? `${dPre}"${m}"` : `${dPre}"${dValue}"`;
      return held(bValue ?? "") ? `${bPre}'${m}'` : `${bPre}'${bValue}'`;
    },
  },
  {
    kind: "declared-secret",
    // A template parameter marked secret, and its default: CloudFormation's `NoEcho: true` …
    // `Default: …`, Terraform's `sensitive = true` … `default = "…"` (in one block, either order).
    need: (t) => t.includes("NoEcho") || t.includes("sensitive"),
    re: /((?:NoEcho["']?[ \t]*:[ \t]*["']?true|sensitive[ \t]*[=:][ \t]*true)[^{}]{0,300}?\b[Dd]efault["']?[ \t]*[:=][ \t]*)(["']?)([^\s"',}]{4,256})\2|(\b[Dd]efault["']?[ \t]*[:=][ \t]*)(["']?)([^\s"',}]{4,256})\5(?=[^{}]{0,300}?(?:NoEcho["']?[ \t]*:[ \t]*["']?true|sensitive[ \t]*=[ \t]*true))/g,
    replace: (m, pre, q, value, rPre, rq, rValue) => {
      const [p, qq, v] = pre ? [pre, q, value] : [rPre, rq, rValue];
      return held(v ?? "") && !/^!|^\(/.test(v ?? "") ? `${p}${qq}${m}${qq}` : `${p}${qq}${v}${qq}`;
    },
  },
  {
    kind: "pw-name",
    // A name ending in "PW" (OpenLDAP's `olcRootPW:`, `DB_PW=`, `adminPw:`), and LDIF's base64
    // value of an attribute named for a password (`userPassword:: …`; a `{SSHA}` hash decoded is kept).
    need: (t) => /pw|PW|Pw|::/.test(t),
    re: /((?:^|[\s"'{,(])[A-Za-z][\w.-]*(?<=[a-z_.-])(?:PW|Pw|pw)["']?[ \t]*[:=][ \t]*)(["']?)([^\s"',;]{4,128})\2|((?:^|\n)[A-Za-z][\w-]*(?:[Pp]assword|PW|[Pp]w|[Ss]ecret)[\w-]*::[ \t]*)([A-Za-z0-9+/]{4,}={0,2})(?=[ \t]*(?:\n|$))/g,
    replace: (m, pre, q, value, lPre, lValue) => {
      if (pre) return secretValue(value ?? "") && !/^\{/.test(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`;
      return /^\{/.test(Buffer.from(lValue ?? "", "base64").toString("latin1")) ? `${lPre}${lValue}` : `${lPre}${m}`;
    },
  },
  {
    kind: "key-bytes",
    // A key as an array of 16, 24, 32, 48 or 64 byte values under a key's name, on one line or several (zigbee2mqtt's
    // `network_key: [..]`, C's `uint8_t key[16] = {0x.., …}`, Python's `bytes([..])`).
    need: (t, lower) => t.includes(",") && /key|secret|psk/.test(lower()),
    re: /((\b[\w.-]*(?:key|Key|KEY|secret|Secret|SECRET|psk|PSK)\w*)(?:[ \t]*\[\d*\])?["']?[ \t]*[:=][ \t]*(?:bytes\(|new byte\[\][ \t]*|\(byte\[\]\)[ \t]*)?[[{(]\s*)((?:(?:0[xX][0-9a-fA-F]{1,2}|\d{1,3})[ \t]*,\s*){15,63}(?:0[xX][0-9a-fA-F]{1,2}|\d{1,3})(?=[\s,]*[\]})])|(?:(?:0[xX][0-9a-fA-F]{1,2}|\d{1,3})[ \t]*,\s*){8,63}(?:0[xX][0-9a-fA-F]{1,2}|\d{1,3})?,?…)/g,
    replace: (m, pre, name, list) => {
      // A list a clip mark cut ("…, 99,…") is judged by what is left.
      const cut = (list ?? "").endsWith("…");
      const bytes = (list ?? "").replace(/,?…$/, "").split(",").map((b) => Number(b.trim()));
      const ok = (cut || [16, 24, 32, 48, 64].includes(bytes.length)) && bytes.every((b) => b >= 0 && b <= 255) && new Set(bytes).size > bytes.length / 4 && !notSecretName((name ?? "").toLowerCase());
      return ok ? `${pre}${m}` : `${pre}${list}`;
    },
  },
  {
    kind: "key-file",
    // A key file that says it holds a signing, secret or private key in its "type" or "description"
    // (Cardano's `.skey`: `"type": "PaymentSigningKeyShelley_ed25519"`, `"cborHex"`): its hex payload. A verification key's is public.
    need: (t) => /[Ss]igning|[Ss]ecret|[Pp]rivate/.test(t),
    re: /("(?:type|description)"\s*:\s*"[^"\n]*(?:Signing|Secret|Private|signing|secret|private)[ _]?(?:Key|key)[^"\n]*"[^{}]{0,400}?"(?:cborHex|key|privateKey|secretKey|hex|data|value)"\s*:\s*")([0-9a-fA-F]{64,})(?=")/g,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "kerberos-key",
    // Key material in a keytab listing (`klist -k -K`, ktutil's `list -k`): `(<enctype>)  (0x<hex>)`, or `(0x<hex>)` after a principal's realm.
    need: (t) => t.includes("(0x"),
    re: /((?:\((?:aes|des|des3|rc4|arcfour|camellia)[\w-]*\)|@[A-Z0-9.-]+)[ \t]*\(0x)([0-9a-fA-F]{32,})(?=\))/g,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "sql-password",
    // SQL Server's Unicode literal: `CREATE LOGIN … WITH PASSWORD = N'…'`.
    need: (t) => t.includes("N'"),
    re: /(\b(?:CREATE|ALTER|create|alter)[ \t]+(?:LOGIN|USER|ROLE|login|user|role)\b[^;\n]{0,200}?\b(?:PASSWORD|password)[ \t]*=[ \t]*N')([^'\n]{4,128})(?=')/g,
    replace: (m, pre, value) => (held(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "session-key",
    // A session key under its name (Bitwarden's `BW_SESSION`, 1Password's `OP_SESSION_<account>`,
    // `session_key`): a strong random value of 24 or more.
    need: (_t, lower) => lower().includes("session"),
    re: /(\b(?:[A-Za-z][\w]*?)?(?:SESSION|[Ss]ession)(?:_?(?:KEY|ID|[Kk]ey|[Ii]d|TOKEN|[Tt]oken)|_[A-Za-z0-9]+)?["']?[ \t]*[=:][ \t]*)(["']?)([A-Za-z0-9+/_=.-]{24,})\2/g,
    replace: (m, pre, q, value) => (strongRandom((value ?? "").replace(/=+$/, "")) || oneCaseToken(value ?? "") || generatedKey(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "env-assignment",
    // A key's value written `<host>=<token>` (Develocity's `DEVELOCITY_ACCESS_KEY=host=key`, several
    // hosts parted by ";"): the token after the host.
    need: (t) => t.includes("="),
    re: /(\b[A-Za-z_]*(?:KEY|TOKEN|key|token|Key|Token)[ \t]*=[ \t]*["']?(?:[\w-]+(?:\.[\w-]+)+=[^\s;"']+;)*[\w-]+(?:\.[\w-]+)+=)([A-Za-z0-9_-]{16,})/g,
    replace: (m, pre, value) => (generatedKey(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "prose-password",
    // A password in a sentence of any language, by its shape alone (proseSecret): a line of words
    // (three or more words of letters besides it, none of code's brackets, "=", ";" or "|"; a reply's "> " quote marks before it, after words or not, allowed), and
    // in it a token as a password generator makes one, not base64 of text (an encoded id). The line before and after the token is read
    // around it, so each token is judged with its line.
    // The cheap checks first (a run's start, its length, a digit in it), the line's lookbehind only where they hold.
    re: /(?<![A-Za-z0-9!#$%&*+?^_~/.@:-])(?=[A-Za-z0-9!#$%&*+?^_~-]{0,63}\d)(?=[A-Za-z0-9!#$%&*+?^_~-]{10})(?<=(?:^|\n)(?:>[ \t]?)*((?:[^\n{}[\]=;<>|\\]|>[ \t])*?))([A-Za-z0-9!#$%&*+?^_~-]{10,64})(?![A-Za-z0-9!#$%&*+?^_~/@:-])(?=([^\n{}[\]=;<>|\\]*)(?:\n|$))/g,
    replace: (m, before, token, after) => (proseLine(`${before ?? ""} ${after ?? ""}`) && proseSecret(token ?? "", otherScriptLine(besideWords(before ?? "", after ?? ""))) && !encodedText(token ?? "") ? m : token ?? ""),
  },
];
