/**
 * The tenth-set pass (docs/privacy.md "A tenth held-out set"): secrets by the family of their
 * place in what a session shows, no rule naming a provider or a tool: the output line of a
 * command that names a secret, and the value a tool announces ("the following password:", "New
 * value:"); a two-column listing's row whose name says secret; a password sent in a wire
 * protocol's log-in (a `PASS` command, the line after a base64 "Password:" prompt); a signed
 * URL's signature parameter; base64 of a private key store (its decoded head: PKCS#12, PKCS#8,
 * PKCS#1, SEC1, OpenSSH, a Java key store's magic); an OTP seed (an otpauth URI's secret or data,
 * a base32 seed on a line about one-time codes); a list of recovery or backup codes; a licence
 * block's key lines; a URL named or hosted as a webhook, its random segment; a value put in a
 * cookie jar; a key file's base64 after a comment saying secret key (a password with its
 * encryption type number, `password 7 <hex>`, was one until the context rule replaced it); a Wi-Fi payload's `P:`; a generated password as a
 * command's argument; a passphrase of random letter groups; a literal piped into a command that
 * reads a secret; a composed password (a capital, letters, digits, a symbol) in prose. Their
 * pre-filter witnesses are in witness-families-10.ts.
 */
import type { OwnRule } from "./own-rules.js";
import { generatedKey, held, secretValue } from "./own-families.js";
import { encodedText, strongRandom } from "./own-shapes.js";
import { proseLine, proseSecret } from "./witness-families.js";
import { SILENT_RULES } from "./silent-secrets.js"; // the twelfth-set pass, placed with this pass's rules
import { keptBySilentPlace } from "./silent-kept.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a hash, an id or a public value is called: a line that says so announces no secret. */
const NOT_SECRET_WORD = /fingerprint|randomart|hash|checksum|digest|\bid\b|identifier|public|\.pub\b|accessor|version|commit/i;
/** A secret's word. */
const SECRET_WORD = /passw|passphrase|secret|token|psk|credential|api[_-]?key|private[_ ]key/i;
/** A command's words that name a secret (a password store's name, `pass`, and `…_key`; `key.txt` of a key tool that prints a public key is none). */
const COMMAND_SECRET = /pass(?:w|phrase|\b)|secret|token|psk|credential|_key/i;

/** A value a generator or a person made as a secret: generated, random, or a password's shape. */
function madeSecret(v: string): boolean {
  return held(v) && (secretValue(v) || strongRandom(v) || generatedKey(v));
}

/** A group of five letters or more with a vowel in five letters or fewer: no word of a language writes so (`mnvbzb`, `xklqzns`). */
function randomGroup(g: string): boolean {
  return g.length >= 5 && /^[a-z]+$/.test(g) && 5 * (g.match(/[aeiou]/g) ?? []).length <= g.length;
}

/** The decoded head of base64 that opens a private key's container (a certificate's, `MII…zCC`, is none). */
const KEY_STORE_HEAD = /(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{2}[AQgw]IBA(?:z|DAN|AK)|MHcCAQEE|b3BlbnNzaC1rZXktdjE|\/u3\+7Q|zs7Ozg)[A-Za-z0-9+/]{60,}={0,2}/g;

/** An own rule whose pattern is made by a function, on first use (lazyRule). */
type LazyRule = Omit<OwnRule, "re"> & { re: () => RegExp };

/**
 * The rule with its pattern made on first use and kept: a regex literal costs its creation when
 * the redactor part loads, in every capture that loads it, though the pre-filter names one of
 * these rules for almost no text (own-contexts.ts's lazy rules do the same).
 */
function lazyRule({ re: make, ...rest }: LazyRule): OwnRule {
  let re: RegExp | undefined;
  return {
    ...rest,
    get re(): RegExp {
      return (re ??= make());
    },
  };
}

export const TENTH_RULES: readonly OwnRule[] = ([
  {
    kind: "printed-secret",
    // A prompt's command line that names a secret (`… show -o <entry>` of a password store, `lookup`
    // in a keyring, `read "<ref>/password"`, `-g <…>.psk`, `initial-password`, `generate_key()` at a
    // REPL), then its output: one value alone on the next line (a bytes literal's quotes or a
    // prompt glued after it allowed).
    need: (t) => t.includes("\n"),
    re: () => /((?:^|\n)(?:[^\n]*?[ \t])?(?:\$|>>>|PS [^\n>]{0,80}>|[\w.-]+@[\w.-]+[^\n$#]{0,40}[$#])[ \t]+([^\n]{3,300})\r?\n[ \t]*b?(["']?))([^\s"'[\]]{8,200})(?=\3[ \t]*(?:\r?\n|$|\[[^\]\n]{1,60}\][$#]))/g,
    replace: (m, pre, cmd, _q, value) => (COMMAND_SECRET.test(cmd ?? "") && !NOT_SECRET_WORD.test(cmd ?? "") && !UUID.test(value ?? "") && madeSecret(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "announced-secret",
    // A line that announces a password or secret (ending in ":"), then, a blank line or two on, one
    // value alone (a log's `<service> | ` prefix allowed); or a `New value: <v>` a line or two
    // after a line that names a password.
    need: (_t, lower) => SECRET_WORD.test(lower()),
    re: () => /((?:^|\n)(?:[^\n|]{0,40}\|[ \t]*)?[^\n]*(?:passw|passphrase|secret|token)[^\n]*(?::[ \t]*\r?\n(?:(?:[^\n|]{0,40}\|)?[ \t]*\r?\n){0,2}(?:[^\n|]{0,40}\|)?[ \t]*|\r?\n(?:[^\n]*\n)?[ \t]*(?:[Nn]ew |[Gg]enerated )?[Vv]alue[ \t]*:[ \t]*))([^\s|]{8,200})(?=[ \t]*(?:\r?\n|$))/gi,
    replace: (m, pre, value) => {
      const line = (pre ?? "").split("\n").find((l) => SECRET_WORD.test(l)) ?? "";
      // A sentence announces (three words of letters); a config's `secrets:` key is none, nor is a key's name after it.
      return proseLine(line) && !/:$/.test(value ?? "") && !NOT_SECRET_WORD.test(line) && !UUID.test(value ?? "") && madeSecret(value ?? "") ? `${pre}${m}` : `${pre}${value}`;
    },
  },
  {
    kind: "column-secret",
    // A row of a command's two-column listing (`<name>   <value>`: a key-value table, a config
    // listing) whose name ends in a secret's word, its value alone after two spaces or more.
    need: (t, lower) => t.includes("  ") && SECRET_WORD.test(lower()),
    re: () => /((?:^|\n)[ \t]*([\w.:/-]*(?:[Pp]assword|PASSWORD|[Pp]asswd|[Pp]assphrase|[Ss]ecret|SECRET|secret_id|[Tt]oken|TOKEN|[Pp]sk|PSK|[Aa]pi_?[Kk]ey|API_?KEY))[ \t]{2,})([^\s]{8,200})(?=[ \t]*(?:\r?\n|$))/g,
    replace: (m, pre, name, value) => (!/public|pub[_.]|fingerprint|hash|checksum/i.test(name ?? "") && (madeSecret(value ?? "") || (UUID.test(value ?? "") && new Set(value).size > 6)) ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "wire-password",
    // A password in a wire protocol's log-in, as a trace shows it: a `PASS <pw>` command line
    // (after `>`, `C:` or nothing), and the line after a server's base64 prompt for a password
    // (`334 UGFzc3dvcmQ6`, "Password:").
    need: (t) => t.includes("PASS") || t.includes("334 "),
    re: () => /((?:^|\n)[ \t]*(?:[<>][ \t]*|C:[ \t]*)?PASS[ \t]+)([^\s]{4,200})(?=[ \t]*(?:\r?\n|$))|((?:^|\n)[ \t]*(?:[<>][ \t]*|S:[ \t]*)?334[ \t]+(?:UGFzc3dvcmQ6|cGFzc3dvcmQ6)[ \t]*\r?\n[ \t]*(?:[<>][ \t]*|C:[ \t]*)?)([A-Za-z0-9+/]{4,}={0,2})(?=[ \t]*(?:\r?\n|$))/g,
    replace: (m, pre, value, pre2) => (pre2 ? `${pre2}${m}` : held(value ?? "") && !/^\*+$|^<|^\$/.test(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "url-signature",
    // A signed URL's signature parameter, whatever its prefix or its place in the query
    // (`X-…-Signature=`, `Signature=`, `sig=` first): the URL's bearer credential while it lives.
    need: (_t, lower) => lower().includes("sig"),
    re: () => /([?&][\w-]*(?:[Ss]ignature|SIGNATURE|[Ss]ig)=)([A-Za-z0-9%_~+/.-]{32,})/g,
    replace: (m, pre, value) => {
      let v = value ?? "";
      try { v = decodeURIComponent(v); } catch { /* left as written */ }
      return new Set(v).size >= 12 ? `${pre}${m}` : `${pre}${value}`;
    },
  },
  {
    kind: "key-store-base64",
    // Base64 of a private key's container, known by its decoded head: PKCS#12 (version 3), PKCS#8
    // (version 0 and an algorithm), PKCS#1 and SEC1 private keys, OpenSSH's key file, a Java key
    // store's or JCE key store's magic number.
    need: (t) => t.includes("MII") || t.includes("MHcCAQEE") || t.includes("b3BlbnNzaC1rZXktdjE") || t.includes("/u3+7Q") || t.includes("zs7Ozg"),
    re: () => KEY_STORE_HEAD,
  },
  {
    kind: "otp-seed",
    // A one-time password's seed: an otpauth URI's `secret=` or `data=` (an authenticator's export),
    // and a base32 seed (16 characters or more, letters and the digits 2-7, or groups of four) on a
    // line that speaks of one-time codes.
    need: (_t, lower) => /otp|2fa|mfa|authenticator|oath/.test(lower()),
    re: () => /(otpauth(?:-migration)?:\/\/[^\s?#]*\?(?:[^\s#]*?&)?(?:secret|data)=)([^&\s#"'<>]{8,})|((?:^|\n)[^\n]*(?:[Tt][Oo][Tt][Pp]|[Hh][Oo][Tt][Pp]|OTP|2FA|MFA|[Aa]uthenticator|[Oo]ath)[^\n]*?[\s:="'])([A-Z2-7]{16,64}={0,6}|[a-z2-7]{16,64}|[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?: [a-z2-7]{4}){3,15})(?![\w-])/g,
    replace: (m, pre, value, pre2, value2) => {
      if (pre) return held(value ?? "") ? `${pre}${m}` : `${pre}${value}`;
      const v = (value2 ?? "").replace(/ /g, "");
      return /[2-7]/.test(v) && (v.match(/[A-Za-z]/g) ?? []).length >= 8 && new Set(v).size >= 10 ? `${pre2}${m}` : `${pre2}${value2}`;
    },
  },
  {
    kind: "recovery-codes",
    // A list of recovery or backup codes after a line naming them (three lines or more, each a code
    // of groups of letters and digits), and a recovery key of eight groups of six digits.
    need: (_t, lower) => lower().includes("recovery") || lower().includes("backup"),
    re: () => /((?:recovery|backup|RECOVERY|BACKUP|Recovery|Backup)[^\n]*\n(?:[^\n]*\n){0,4}?)((?:[ \t]*(?=[^\n]*\d)[0-9A-Za-z]{4,6}(?:[- ][0-9A-Za-z]{4,6}){1,7}[ \t]*(?:\r?\n|$)){3,}|[ \t]*\d{6}(?:-\d{6}){7}(?=[ \t]*(?:\r?\n|$)))/g,
    replace: (m, pre, codes) => (/\d/.test(codes ?? "") && !/[A-Z][a-z]{3,}/.test(codes ?? "") ? `${pre}${m}` : `${pre}${codes}`),
  },
  {
    kind: "licence-block",
    // A licence block's key lines (groups of hex or base64, digits in each line) between its BEGIN
    // and END marks.
    need: (t) => /LICEN[CS]E/.test(t),
    re: () => /(-{3,}[ \t]*BEGIN[ \t]+[A-Z ]*LICEN[CS]E[A-Z ]*-{3,}[^\n]*\n(?:[^\n]*\n)*?)((?:[ \t]*(?=[^\n]*\d[^\n]*\d[^\n]*\d[^\n]*\d)[A-Za-z0-9+/=]{4,}(?:[ \t-][A-Za-z0-9+/=]{4,}){2,}[ \t]*\r?\n)+)(?=[ \t]*-{3,}[ \t]*END)/g,
    replace: (m, pre) => `${pre}${m}\n`,
  },
  {
    kind: "webhook-url",
    // A URL named as a webhook (`…_WEBHOOK=`, `webhook:`) or hosted on a host whose first label is
    // a hook's: its random path segment (letters and digits, twelve or more) is its key.
    need: (t, lower) => lower().includes("hook") && t.includes("://"),
    re: () => /((?:\b[\w-]*(?:WEBHOOK|[Ww]ebhook|HOOK|[Hh]ook)[\w-]*["']?[ \t]*[=:][ \t]*["']?)?https?:\/\/([\w-]+)[\w.-]*(?::\d+)?((?:\/[^\s/?#"'<>]+)*?)\/)([A-Za-z0-9]{12,64})(?=[/?#"'\s]|$)/g,
    replace: (m, pre, host, _path, seg) => {
      const named = /hook/i.test((pre ?? "").split("://")[0] ?? "") || /^(?:web)?hooks?$/i.test(host ?? "");
      const s = seg ?? "";
      return named && /\d/.test(s) && /[a-z]/i.test(s) && (s.match(/\d/g) ?? []).length >= 3 && new Set(s).size >= 8 ? `${pre}${m}` : `${pre}${seg}`;
    },
  },
  {
    kind: "cookie-jar",
    // A value put in a cookie jar by a cookie's name (`cookies["<name>"] = "…"`, `cookies.set("<name>", "…")`).
    need: (_t, lower) => lower().includes("cookie"),
    re: () => /(\b[Cc]ookies?(?:\.[\w]+)?(?:\[\s*["'][^"'\n]+["']\s*\]\s*=\s*|\.set\(\s*["'][^"'\n]+["']\s*,\s*)["'])([^"'\n]{16,})(?=["'])/g,
    replace: (m, pre, value) => {
      const v = value ?? "";
      const key = v.split(/[^A-Za-z0-9]+/).find((p) => p.length >= 16 && generatedKey(p));
      if (key === undefined) return strongRandom(v) ? `${pre}${m}` : `${pre}${value}`;
      // A fixed notice of words before the key (a service's warning) is no part of it: the key, and what follows, is taken.
      const at = v.indexOf(key);
      return /(?:[A-Za-z]{2,}[-\s.]+){4}/.test(v.slice(0, at)) ? `${pre}${v.slice(0, at)}${m}` : `${pre}${m}`;
    },
  },
  {
    kind: "commented-key-file",
    // A key file's base64 after its comment line saying secret or private key (`untrusted comment: … secret key`).
    need: (_t, lower) => lower().includes("comment"),
    re: () => /((?:^|\n)[^\n]*\b[Cc]omment\b[^\n]*\b(?:[Ss]ecret|[Pp]rivate|SECRET|PRIVATE)[ \t]+(?:[Kk]ey|KEY)\b[^\n]*\r?\n[ \t]*)([A-Za-z0-9+/]{40,}={0,2})/g,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "wifi-payload",
    // A Wi-Fi network's payload (a QR code's `WIFI:…;P:<password>;…`).
    need: (t) => t.includes("WIFI:"),
    re: () => /(WIFI:(?:[^;\n]*;)*?P:)((?:[^;\\\n]|\\.){4,})(?=;)/g,
    replace: (m, pre, value) => (held(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "command-argument",
    // A generated password as an argument of a command line (after a flag, glued to a one-letter
    // flag, or after a user and ","): a token as a generator makes one (proseSecret's shape).
    need: (t) => t.includes(" -") || t.includes("\t-"),
    re: () => /(?<=(?:^|\n)[ \t]*(?:\$[ \t]+)?[A-Za-z0-9][^\s]*(?=[ \t])[^\n]*?(?:[ \t]-[A-Za-z]|[ \t]-[^\n]*?[ \t,]))(?=[A-Za-z0-9!#%&*+?^_~]{0,63}\d)([A-Za-z0-9!#%&*+?^_~]{10,64})(?=[ \t,'"]|\r?\n|$)/g,
    replace: (m, value) => (proseSecret(value ?? "", false) && !encodedText(value ?? "") ? m : value ?? ""),
  },
  {
    kind: "random-passphrase",
    // A passphrase of random letter groups (three to six groups, two or more of five letters with
    // one vowel in five or fewer, one with four consonants in a row, one vowel in five letters or fewer over all), in quotes or
    // after ":": no language writes such words.
    need: (t) => /[bcdfghjklmnpqrstvwxz]{4}/.test(t),
    re: () => /(["'“„«]|:[ \t\u00a0]+)([a-z]{3,8}(?:[ \t\u00a0-](?:[a-z]{3,8}|\d{1,4})){2,5})(?=["'”“»]|[ \t\u00a0]*(?:\(|\r?\n|$|[.,;]))/g,
    replace: (m, pre, value) => {
      const groups = (value ?? "").split(/[ \t\u00a0-]/);
      // And a vowel in five letters or fewer over the whole ("typed prompts mean" is English: four in fifteen).
      const letters = groups.join("").replace(/\d/g, "");
      const few = 5 * (letters.match(/[aeiou]/g) ?? []).length <= letters.length;
      return few && groups.filter(randomGroup).length >= 2 && groups.some((g) => /[bcdfghjklmnpqrstvwxz]{4}/.test(g)) ? `${pre}${m}` : `${pre}${value}`;
    },
  },
  {
    kind: "piped-secret",
    // A literal echoed or printed into a command that reads a secret from its input (`… | <tool>
    // secret create <name> -`, `… --key-file=-`).
    need: (t) => t.includes("|") && (t.includes("echo") || t.includes("printf")),
    re: () => /(\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+|(["'])%s(?:\\n)?\2[ \t]+)*(["']))([^"'\n]{4,200})(?=\3[ \t]*\|[^\n|]*(?:secret|key|passw|token|cred))/g,
    replace: (m, pre, _q1, _q2, value) => (madeSecret(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "composed-password",
    // A password as composition rules make one (a capital, letters that are no word, two digits or
    // more, a symbol) in a line of prose.
    need: (t) => /\d[!#$%&*?@^~]/.test(t),
    re: () => /(?<![\w!#$%&*+?^~@./:-])(?<=(?:^|\n)([^\n{}[\]=;<>|\\]*?))([A-Z][a-z]{4,}\d{2,}[!#$%&*?@^~]{1,3})(?=[\s,.;:)]|$)(?=([^\n{}[\]=;<>|\\]*)(?:\r?\n|$))/g,
    replace: (m, before, token, after) => {
      const letters = (token ?? "").replace(/[^a-z]/g, "");
      return proseLine(`${before ?? ""} ${after ?? ""}`) && (5 * (letters.match(/[aeiou]/g) ?? []).length <= letters.length || /[bcdfghjklmnpqrstvwxz]{4}/.test(letters)) ? m : token ?? "";
    },
  },
] as LazyRule[]).map(lazyRule).concat(SILENT_RULES);

/** Whether a reference's segments are words and names, none what a key generator makes. */
const wordSegments = (v: string): boolean => v.split(/[/.:#+-]/).every((p) => p.length < 16 || !generatedKey(p));

/**
 * Kept by the family of their place (the tenth-set pass; applied to every rule's finding as
 * keptByPlace is): a ciphertext made to be committed (inside `ENC[…]`, under an `encryptedData:`
 * map, a YAML tag's name such as `!vault` or `!secret <name>`); what a `/.well-known/` path
 * publishes (and the key authorization that repeats its token); a key's fingerprint after
 * `SHA256:`; a content-addressed name (`<HASH>-s<size>--<hex>`); an object's id under an id's name
 * (`"id": "<prefix>_…"`, `"event_id": "$…"`) where the name says no secret; a test vector under a
 * comment saying so; a reference to a secret store with a fragment (`ref+<store>://…#/<field>`), a
 * cloud resource's name (an ARN, `projects/<p>/secrets/<s>/…`); a placeholder in guillemets or
 * between doubled percent signs; a bare run right after a word naming an id's kind (`build <id>`).
 */
export function keptByPlace10(text: string, start: number, end: number): boolean {
  if (keptBySilentPlace(text, start, end)) return true; // the twelfth-set pass (silent-kept.ts)
  const value = text.slice(start, end);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(lineStart, start);
  if (value.startsWith("ENC[") || /ENC\[[^\]\n]*$/.test(before)) return true;
  if (/^![A-Za-z_]+$/.test(value)) return true;
  if (/^[«‹]|^%%\w+%%$/.test(value)) return true;
  if (/(?:SHA256|SHA512|SHA1|MD5):$/.test(before) && /^[A-Za-z0-9+/]{27,86}={0,2}$/.test(value)) return true;
  if (/^[A-Z0-9]{3,12}E?-s\d+(?:-[a-zA-Z]\d+)*--[0-9a-f]{32,}(?:\.\w+)?$/.test(value)) return true;
  if (/\barn:[\w-]+:[\w-]+:[^\s"']*$/.test(before) || /^arn:[\w-]+:[\w-]+:/.test(value)) return true;
  if (/^projects\/[\w.-]+(?:\/[a-zA-Z]+\/[\w.-]+)+$/.test(value) && wordSegments(value)) return true;
  if (/^[a-z][a-z0-9+.-]{1,20}:\/\/[\w./-]+#\/?[\w./-]+$/.test(value) && wordSegments(value)) return true;
  if (/"(\w*?)(?:_id|Id|_ID|^id)"\s*:\s*"[$!]?$/.test(before) || /"id"\s*:\s*"$/.test(before)) {
    const name = /"(\w*)"\s*:\s*"[$!]?$/.exec(before)?.[1] ?? "";
    if (!/secret|key|token|pass|auth|session|api/i.test(name) && /^[\w-]{12,}$/.test(value)) return true;
  }
  if (text.includes("/.well-known/")) {
    if (/\/\.well-known\/[^\s]*$/.test(before)) return true;
    for (const m of text.matchAll(/\/\.well-known\/[\w-]+\/([\w-]{16,})/g)) if (value.startsWith(m[1]!)) return true;
  }
  // A bare run right after a word that names what it is an id of ("build <id>", "request <id>").
  if (/^[A-Za-z0-9_-]{8,40}$/.test(value) && !/^[A-Za-z0-9]{1,5}_/.test(value) && /\b(?:id|ID|build|request|trace|order|ticket|ref|reference|job|run|commit|invoice|booking)[ \t]+$/.test(before)) return true;
  const above = text.slice(Math.max(0, lineStart - 400), lineStart);
  if (/test vectors?|known[- ]answer/i.test(above.split("\n").slice(-4).join("\n"))) return true;
  if (text.includes("encryptedData:")) {
    const at = text.lastIndexOf("encryptedData:", start);
    if (at >= 0) {
      const indent = at - (text.lastIndexOf("\n", at) + 1);
      const lines = text.slice(text.indexOf("\n", at) + 1, lineStart).split("\n").filter((l) => l.trim() !== "");
      if (lines.every((l) => /^[ \t]*/.exec(l)![0].length > indent) && start - lineStart > indent) return true;
    }
  }
  return false;
}
