/**
 * The pre-filter's conditions for the eighth-set pass's rules (own-families.ts, own-families-files.ts;
 * docs/privacy.md "An eighth held-out set"), apart from prefilter.ts: each needs a literal of its
 * rule's place before its pattern (a relaxation of the rule's, on the lower-cased text) is tried;
 * the prose rule's is a scan of the text's runs (proseWitness), no pattern. Also the prose rule's
 * test of a token and a line, here so that the capture part bundles no rule.
 */
import type { Witness } from "./prefilter.js";
import { isLetter, letterWord, secretStem } from "./letters.js";

/** Shannon entropy in bits a character (as gitleaks.ts's, not imported: the capture part bundles this file). */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/**
 * A token as a password generator makes one, in prose: 10 to 64 letters and digits (and a few
 * symbols), letters and digits interleaved, switching class or case often (five runs or more),
 * and under 40% in word-like runs (`iPhone15ProMax`, `MacBookPro2021` are names). Both cases and
 * two digits; or, in a line written in another script than the token's, one case and three
 * digits or more (`U0A0J4YKXK65` in Kazakh prose). A label and "#" before it is left out. Not hex in any case (a hash, an id, an
 * Ethereum address with its checksum's capitals).
 */
export function proseSecret(v: string, otherScript: boolean): boolean {
  // Read character by character, not by patterns: the witness calls this for a few runs of a
  // text, and in a fresh hook process each of the dozen small patterns it took cost its compile,
  // twice once it ran a second time (bytecode, then machine code): 3 to 4 M instructions on the
  // bench's real reply (docs/privacy.md "Cost"). test/privacy/letters.test.ts compares it with
  // the patterns' version on made and real tokens.
  // A label before "#" is no part of it: a booking's "Ref#5VXVB79S" is its reference (MultiWOZ's replies).
  const letter = (x: number): boolean => x === LOWER || x === UPPER;
  let k = 0;
  while (k < v.length && letter(kindOf(v.charCodeAt(k)))) k++;
  if (k >= 1 && k <= 6 && v.charCodeAt(k) === 35) v = v.slice(k + 1);
  const n = v.length;
  if (n < 10 || n > 64) return false;
  let digits = 0, lowers = 0, uppers = 0, runs = 0, hex = true;
  // Runs of one kind (lower, upper, digit, symbol), counted; and runs of letters (either case),
  // digits or symbols, whose kinds in order tell a digit run between letters or a letter run between digits.
  let prev = NONE;
  const coarse: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i);
    const kind = kindOf(c);
    if (kind === NONE) return false;
    if (kind === DIGIT) digits++;
    else if (kind === LOWER) lowers++;
    else if (kind === UPPER) uppers++;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) hex = false;
    if (kind !== prev) runs++;
    prev = kind;
    const group = letter(kind) ? LOWER : kind;
    if (coarse[coarse.length - 1] !== group) coarse.push(group);
  }
  if (hex || (n > 2 && v.charCodeAt(0) === 48 && v.charCodeAt(1) === 120 && allHex(v, 2))) return false;
  let interleaved = false;
  for (let i = 2; i < coarse.length && !interleaved; i++) interleaved = coarse[i - 1] !== SYMBOL && coarse[i - 2] === coarse[i] && coarse[i] !== SYMBOL;
  if (!interleaved && !lettersThenDigits(v)) return false;
  const both = lowers > 0 && uppers > 0;
  if (!(both && digits >= 2) && !(otherScript && digits >= 3 && lowers + uppers >= 3)) return false;
  // Five runs of class or case; a token of one case (no case runs to count) three, in a line of another script
  // (`0bbsldtxzt86` in Sinhala: the ninth-set pass).
  if (runs < (both || !otherScript ? 5 : 3)) return false;
  // A word-like run: a capital or none, then two lower-case letters or more, a third of its letters or more
  // vowels ("Pro", "Max", "Book"; "Ljnyc" and "Jhiw" are none: a random run has a vowel one time in five).
  let words = 0;
  for (let i = 0; i < n; ) {
    const j = kindOf(v.charCodeAt(i)) === UPPER ? i + 1 : i;
    let e = j;
    while (e < n && kindOf(v.charCodeAt(e)) === LOWER) e++;
    if (e - j < 2) {
      i++;
      continue;
    }
    let vowels = 0;
    let vowelAfterFirst = false;
    for (let x = i; x < e; x++) {
      if (VOWELS.includes(v[x]!)) {
        vowels++;
        if (x > i && v.charCodeAt(x) >= 97) vowelAfterFirst = true;
      }
    }
    // A run of three whose capital ends a run of capitals ("EZso": "Zso") is no word (the tenth-set pass).
    const afterCapitals = e - i === 3 && i > 0 && kindOf(v.charCodeAt(i)) === UPPER && kindOf(v.charCodeAt(i - 1)) === UPPER;
    if (e - i >= 3 && !afterCapitals && vowelAfterFirst && 3 * vowels >= e - i) words += e - i;
    i = e;
  }
  return words < 0.4 * n && entropy(v) > 3 && !decodesToText(v);
}

const NONE = 0, LOWER = 1, UPPER = 2, DIGIT = 3, SYMBOL = 4;
const VOWELS = "aeiouAEIOU";
/** A token character's kind: a lower-case or capital ASCII letter, a digit, one of !#$%&*+?^_~-, or none of them. */
function kindOf(c: number): number {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  return c === 33 || c === 35 || c === 36 || c === 37 || c === 38 || c === 42 || c === 43 || c === 63 || c === 94 || c === 95 || c === 126 || c === 45 ? SYMBOL : NONE;
}
const allHex = (v: string, from: number): boolean => {
  for (let i = from; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
};
/** Three letters or more, then two digits or more, and nothing else. */
function lettersThenDigits(v: string): boolean {
  let i = 0;
  while (i < v.length && (kindOf(v.charCodeAt(i)) === LOWER || kindOf(v.charCodeAt(i)) === UPPER)) i++;
  if (i < 3 || v.length - i < 2) return false;
  for (let j = i; j < v.length; j++) if (kindOf(v.charCodeAt(j)) !== DIGIT) return false;
  return true;
}

/** Base64 that decodes to printable text (`eyJhbGciOiJIUzI1NiJ9`, an encoded id): 9 random bytes are all printable about once in 10^4, 12 once in 10^5. */
function decodesToText(v: string): boolean {
  // /^[A-Za-z0-9+/_-]{12,}={0,2}$/, then the "="s off, read by hand (as proseSecret).
  let end = v.length;
  while (end > 0 && v.charCodeAt(end - 1) === 61) end--;
  if (v.length - end > 2 || end < 12) return false;
  for (let i = 0; i < end; i++) {
    const c = v.charCodeAt(i);
    const kind = kindOf(c);
    if (!(kind === LOWER || kind === UPPER || kind === DIGIT || c === 43 || c === 47 || c === 95 || c === 45)) return false;
  }
  const body = v.slice(0, end);
  const bytes = Buffer.from(body.slice(0, body.length - (body.length % 4)), "base64");
  return bytes.length >= 9 && bytes.every((b) => b >= 0x20 && b < 0x7f);
}

/** Whether a line's letters are mostly of a script other than Latin (Cyrillic, Armenian, Arabic, Ethiopic…). */
export function otherScriptLine(line: string): boolean {
  let latin = 0;
  let other = 0;
  for (const ch of line) {
    const c = ch.codePointAt(0)!;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && c <= 0x24f)) latin++;
    else if (c >= 0x370 && isLetter(ch)) other++;
  }
  return other > 2 * latin;
}

/** The words beside a token: the two before it and the two after (a message may quote the line after words of its own). */
export function besideWords(before: string, after: string): string {
  return `${before.split(/\s+/).filter(Boolean).slice(-2).join(" ")} ${after.split(/\s+/).filter(Boolean).slice(0, 2).join(" ")}`;
}

/** A line of prose (the rest of a token's line): three or more words of letters (any script), no URL. */
export function proseLine(rest: string): boolean {
  if (rest.includes("://")) return false;
  let words = 0;
  // A word's letters with their combining marks and joiners (Indic vowel signs and viramas, Yoruba's tone marks,
  // the zero-width non-joiner of Kannada and Malayalam): `\p{L}` alone split them (the ninth-set pass).
  // letterWord is that pattern without compiling it for ASCII and symbols (letters.ts); the third word answers.
  for (const w of rest.split(/[\s,.:;!?"'()«»]+/)) if (letterWord(w) && ++words >= 3) return true;
  return false;
}

/**
 * The prose rule's witness: a run of 10 to 64 letters and digits that proseSecret takes (as in a
 * line of another script, the looser test), found by a scan of the text's characters, in a line
 * the rule reads (none of code's brackets, "=", ";", "|", "\\"; three words besides it).
 */
/**
 * The ninth-set pass's prose-key rule's witness (own-families-9.ts): a 32-hex run or a UUID's head
 * (a pattern compiled once) in a line the rule reads: none of code's brackets, "=", ";", "|", "\\",
 * "<", ">", three words, another script beside it or a secret's word in it, no hash's or id's word.
 * (Only a run's line is read: a hash in code or a log line clears as before.)
 */
const HEX_RUN = /[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/gi;
export function proseKeyWitness(text: string): boolean {
  HEX_RUN.lastIndex = 0;
  for (let m = HEX_RUN.exec(text); m !== null; m = HEX_RUN.exec(text)) {
    const from = text.lastIndexOf("\n", m.index) + 1;
    const to = text.indexOf("\n", m.index);
    const line = text.slice(from, to < 0 ? text.length : to);
    if (/[{}[\]=;<>|\\]/.test(line) || !proseLine(line.replace(m[0], " "))) continue;
    if (/hash|sha\d*|md5|commit|checksum|digest|fingerprint|\buuid|\bid\b|request|trace|build|version|etag/i.test(line)) continue;
    const beside = besideWords(text.slice(from, m.index), line.slice(m.index - from).replace(/^[0-9a-fA-F-]+/, ""));
    if (secretStem(line) || otherScriptLine(line) || otherScriptLine(beside)) return true;
  }
  return false;
}

export function proseWitness(text: string): boolean {
  // Only a run with two digits or more can pass (both of the counts' tests below need them), so
  // the runs are found from their digits by a pattern, a native search, and only those runs are
  // read here: a loop over every character ran as interpreted code, about 1.2 M instructions of
  // a cleared capture in a fresh hook process (docs/privacy.md "Cost"). proseWitnessEveryRun is
  // the loop over every run, which test/privacy/letters.test.ts compares with this.
  const twoDigits = /\d[0-9A-Za-z!#$%&*+\-?^_~]*\d/g;
  for (let m = twoDigits.exec(text); m !== null; m = twoDigits.exec(text)) {
    let start = m.index;
    while (start > 0 && isRunChar(text.charCodeAt(start - 1))) start--;
    let end = twoDigits.lastIndex;
    while (end < text.length && isRunChar(text.charCodeAt(end))) end++;
    twoDigits.lastIndex = end;
    if (proseRun(text, start, end)) return true;
  }
  return false;
}

/** [0-9A-Za-z!#$%&*+\-?^_~]: the characters of proseWitness's runs. */
function isRunChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 33 || c === 35 || c === 36 || c === 37 || c === 38 || c === 42 || c === 43 || c === 45 || c === 63 || c === 94 || c === 95 || c === 126;
}

/** proseWitness on every run of the text (the scan it replaced; for the test that compares them). */
export function proseWitnessEveryRun(text: string): boolean {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isRunChar(text.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && proseRun(text, start, i)) return true;
    start = -1;
  }
  return false;
}

/**
 * Whether the run text[start, end) is proseWitness's: 10 to 64 characters with a letter beyond hex
 * or a symbol and enough digits (most runs are hashes and ids), that proseSecret takes, on a line
 * of prose (its patterns are compiled only for such a run).
 */
function proseRun(text: string, start: number, end: number): boolean {
  const n = end - start;
  if (n < 10 || n > 64) return false;
  let upper = 0;
  let lower = 0;
  let digits = 0;
  let beyondHex = 0;
  let syms = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 65 && c <= 90) upper++;
    else if (c >= 97 && c <= 122) lower++;
    else syms++;
    if ((c >= 71 && c <= 90) || (c >= 103 && c <= 122)) beyondHex++;
  }
  if (!(beyondHex + syms > 0 && ((upper > 0 && lower > 0 && digits >= 2) || (digits >= 3 && upper + lower >= 3)) && proseSecret(text.slice(start, end), true))) return false;
  const from = text.lastIndexOf("\n", start) + 1;
  const to = text.indexOf("\n", end);
  const before = text.slice(from, start).replace(/^(?:>[ \t]?)+/, ""); // a reply's quote marks
  const after = text.slice(end, to < 0 ? text.length : to);
  return !/[{}[\]=;<>|\\]/.test(before.replace(/>[ \t]/g, "")) && !/[{}[\]=;<>|\\]/.test(after) && proseLine(`${before} ${after}`);
}

const CRED_WORDS = ["cred", "auth", "token", "secret", "passw", "pwd", "pw", "login", "logon", "connect", "client", "apikey", "api_key", "setkey"];
const QUOTED_NAME_ENDS = ["key", "token", "secret", "auth", "password", "passwd", "pwd", "signature", "passphrase"].flatMap((w) => [`${w}"`, `${w}'`]);

export const FAMILY_WITNESSES: readonly Witness[] = [
  // own-families.ts
  { name: "credential call", rules: ["own:call-credential"], need: CRED_WORDS, re: /(?:cred|auth|token|secret|passw|pwd|pw|login|logon|connect|client|apikey|api_key|setkey)[\w$.:>\\-]*[ \t]*\([^()\n]{0,300}?["'][^"'\n]{4}/ },
  { name: "id and secret pair", rules: ["own:call-credential"], need: ["(\"", "('"], re: /\(["'][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}["']\s*,\s*["'][^"'\n]{4}/ },
  { name: "credential application", rules: ["own:call-credential"], need: ["auth", "cred", "login", "password", "passwd"], re: /[a-z]\w*(?:auth|credentials?|login|password|passwd)\w*(?:[ \t]+"[^"\n]*")*[ \t]+"[^"\n]*"[ \t]+"[^"\n]{4}/ },
  { name: "header pair", rules: ["own:header-pair"], need: QUOTED_NAME_ENDS, re: /["'][\w.-]{0,40}(?:key|token|secret|auth|password|passwd|pwd|signature|apikey|passphrase)["'][ \t]*(?:,|\][ \t]*=|=>)[ \t]*["'][^\n\\]{8}/ },
  { name: "basic credentials", rules: ["own:basic-auth"], need: ["basic"], re: /basic[ \t]+[a-z0-9+/]{12}/ },
  { name: "secret flag", rules: ["own:secret-flag"], need: ["key", "token", "secret", "pass", "pw", "auth", "cookie", "sec", "cred"], re: /\s-{1,2}(?:[a-z][\w.-]{0,40}?)?(?:key|token|secret|pass(?:wd|word|phrase)?|pwd?|auth(?:key)?|cookie|sec|creds?|credentials)(?:[ \t]+|=)["']?[^\s"'$<{[-][^\s"']{5}/ },
  { name: "key flag", rules: ["own:secret-flag"], need: [" -k"], re: /\s-k[ \t]+["']?[a-z0-9_-]{32}/ },
  {
    name: "user and password pair", rules: ["own:user-password"], need: ["login", "userpwd", "userpass", "user_pass", "user-pass", "credentials", "basic", "proxy", "-u", "--user"],
    re: /(?:(?:login|userpwd|user[_-]?pass(?:word)?|credentials|basic[_-]?auth|proxy[_-]?user)[ \t]*[=:][ \t]*|\s-{1,2}(?:u|user|proxy-user|userpwd|basic-auth)(?:[ \t]+|=))["']?[^\s:@"'/=]{0,64}:[^\s"'@]{4}/,
  },
  {
    name: "log-in command", rules: ["own:command-password"],
    need: ["using", ".logon", "add_user", "adduser", "add-user", "user_add", "user-add", "create_user", "create-user", "change_password", "change-password", "set_password", "set-password", "connect", "login", "auth"],
    re: /\buser[ \t]+["']?[\w.@\\-]+["']?[ \t]+using[ \t]+["']?[^\s"';,]{4}|\.logon[ \t]+(?:[\w.-]+\/)?[\w$.-]+,["']?[^\s;,"']{4}|\b(?:add_user|adduser|add-user|user[_-]add|create[_-]user|change[_-]password|set[_-]password)[ \t]+(?:-{1,2}[\w-]+[ \t]+)*["']?[\w.@-]+["']?[ \t]+["']?[^\s"'$<{-]|\b(?:connect|login|auth)[ \t]+(?:https?:\/\/)?[\w-]+(?:\.[\w-]+)+\/?[ \t]+[a-z0-9_-]{16}/,
  },
  { name: "password heredoc", rules: ["own:prompt-password"], need: ["<<"], re: /\b(?:kinit|kpasswd|passwd|su|ksu|sudo[ \t]+-s|smbpasswd|chpasswd|ftp|openssl|gpg|vault[ \t]+login)\b[^\n]*<</ },
  { name: "password piped", rules: ["own:prompt-password"], need: ["echo", "printf"], re: /\b(?:echo|printf)\b[^\n|]*\|[ \t]*(?:sudo[ \t]+-s|kinit|kpasswd|passwd|su\b|ksu|smbpasswd|chpasswd|[\w-]+[ \t]+login\b[^\n]*--password-stdin)/ },
  { name: "expect send", rules: ["own:prompt-password"], need: ["expect"], re: /expect\b[^\n]*?(?:pass|pin|secret)[^\n]*?(?:\n(?:[^\n]*\n){0,2}?[ \t]*|[ \t]+)(?:send|exp_send|\w+\.send(?:line)?)\b[ \t(]*["'][^"'\n\\$[][^"'\n\\]{3}/ },
  { name: "query secret", rules: ["own:query-secret"], need: ["code=", "sig=", "signature="], re: /[?&](?:code|sig|signature)=[a-z0-9_-]{32}/ },
  { name: "secret prefix and hex", rules: ["own:prefixed-key"], need: ["sk_", "sk-", "secret_", "secret-", "token_", "token-", "tkn_", "tkn-"], re: /(?:sk|secret|token|tkn)[_-](?:(?:live|test|prod)_)?[0-9a-f]{32}/ },
  // own-families-files.ts
  { name: "csv secret column", rules: ["own:csv-secret"], need: ["pass", "pwd", "secret", "token", "key"], gate: /,[\w.-]{0,40},/, re: /[\w.-]{0,40}(?:,[\w.-]{0,40}){0,40}?(?:pass|pwd|secret|token|key)[\w.-]{0,40}(?:,[\w.-]{0,40}){0,40}[\n \t]/ },
  {
    name: "secrets file", rules: ["own:secret-file"], need: ["secret", "passw", "credential", ".auth", "auth", ".pass", "psk", "netrc", "api_key", "api-key", "apikey", "token"],
    re: /(?:\$[ \t]*(?:cat|less|more|head|tail)[ \t]+|#[ \t]*|==>[ \t]*)\S*(?:secret|passw|credential|\.auth|auth\b|\.pass|psk|netrc|api[_-]?key|token)/,
  },
  { name: "accounts section", rules: ["own:secret-section"], need: ["[admins]", "[users]", "[passwords]", "[credentials]", "[secrets]", "[accounts]"], re: /\[(?:admins|users|passwords|credentials|secrets|accounts)\]/ },
  {
    name: "declared secret", rules: ["own:declared-secret"], need: ["value", "default", "define", "@secure"],
    re: /(?:password|passwd|pwd|secret|token|api-key|apikey|api_key)[\w-]*\b[^\n=;'"]{1,40}?\b(?:value|default)[ \t]+n?['"]|#[ \t]*define[ \t]+\w+[ \t]+"[^"\n]{4}|@secure\(\)\s*param/,
  },
  { name: "secret parameter", rules: ["own:declared-secret"], need: ["noecho", "sensitive"], re: /noecho|sensitive[ \t]*[=:][ \t]*true/ },
  { name: "pw name", rules: ["own:pw-name"], need: ["pw", "::"], re: /[a-z_.-]pw["']?[ \t]*[:=][ \t]*["']?[^\s"',;]{4}|(?:^|\n)[a-z][\w-]*(?:password|pw|secret)[\w-]*::/ },
  { name: "key bytes", rules: ["own:key-bytes"], need: ["key", "secret", "psk"], re: /(?:key|secret|psk)\w*(?:[ \t]*\[\d*\])?["']?[ \t]*[:=][ \t]*(?:bytes\(|new byte\[\][ \t]*|\(byte\[\]\)[ \t]*)?[[{(]\s*(?:(?:0x[0-9a-f]{1,2}|\d{1,3})[ \t]*,\s*){8}/ },
  { name: "key file", rules: ["own:key-file"], need: ["signing", "secret", "private"], re: /"(?:type|description)"\s*:\s*"[^"\n]*(?:signing|secret|private)[ _]?key/ },
  { name: "keytab key", rules: ["own:kerberos-key"], need: ["(0x"], re: /(?:\((?:aes|des|des3|rc4|arcfour|camellia)[\w-]*\)|@[a-z0-9.-]+)[ \t]*\(0x[0-9a-f]{32}/ },
  { name: "sql unicode password", rules: ["own:sql-password"], need: ["password"], re: /(?:create|alter)[ \t]+(?:login|user|role)\b[^;\n]{0,200}?\bpassword[ \t]*=[ \t]*n'/ },
  { name: "session key", rules: ["own:session-key"], need: ["session"], re: /(?:[a-z]\w*?)?session(?:_?(?:key|id|token)|_[a-z0-9]+)?["']?[ \t]*[=:][ \t]*["']?[a-z0-9+/_=.-]{24}/ },
  // own-families-9.ts (the ninth-set pass)
  { name: "key in a url path", rules: ["own:url-path-key"], need: ["://"], re: /:\/\/[\w.-]+(?::\d+)?(?:\/[\w.-]+)*?\/(?:(?:key|keys|token|tokens|hook|hooks|webhook|webhooks|inputs|secret)(?:\/(?:catch|services|bot|v\d))?\/[\w-]{6}|(?:v\d+\/)?[0-9a-f]{32})/ },
  { name: "token in a url parameter", rules: ["own:url-param-token"], need: ["token=", "key=", "secret=", "password="], re: /[?&#](?:[a-z]+_)?(?:token|key|apikey|api_key|secret|password)=[a-z0-9._~%+-]{16}/ },
  { name: "key as a url's user", rules: ["own:url-user-token"], need: ["://"], re: /:\/\/[a-z0-9_-]{16,}:?@[\w-]+\./ },
  { name: "key as basic auth's user", rules: ["own:user-token"], need: [" -u", "--user"], re: /\s(?:-u|--user)[ \t=]+["']?[\w.-]{16,}:/ },
  { name: "secret name and value", rules: ["own:name-value-secret"], need: ['"value"', '\\"'], re: /"(?:name|key)"\s*:\s*"[^"\n]*(?:key|token|secret|password|auth\w*)"\s*,\s*"value"\s*:\s*"[^"\n]{8}|\\"[\w.-]*(?:key|token|secret|password)\\"\s*:\s*\\"[^"\\\n]{8}/ },
  { name: "password after a dsn", rules: ["own:dsn-password"], need: [":host=", ":dbname="], re: /\(\s*["'][a-z]+:(?:host|dbname)=[^"'\n]*["']\s*,\s*["'][^"'\n]*["']\s*,\s*["'][^"'\n]{4}/ },
];
