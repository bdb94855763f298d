/**
 * Places that make a value a secret with no secret's word beside it (docs/privacy.md
 * "Generalisation, twelfth pass"), read by the context rule's scan (context-find.ts) with the
 * same value test, so its pre-filter witness holds wherever these find:
 * - a user and password pair: `user:password@host` (a URL's or a DSN's userinfo, with or without
 *   a scheme) and the value of a flag or key that takes one (`-u`, `--user`, `-a`, `--auth`,
 *   `login=`): the part after the first ":" (the user may be empty);
 * - the string arguments of a call that makes a client, opens a connection or logs in
 *   (`SearchClient.create("…", "…")`, `new Recurly\Client('…')`, `DBI->connect(…, 'user', '…')`,
 *   `x := pushnotifications.New(…)` assigned to a `…Client`): a literal the weak test takes
 *   (a generated value), and in a connect, login or credentials call the literal after a user's
 *   the strong test takes (a password's mix).
 * - an armoured block whose BEGIN line names a secret and nothing public (`-----BEGIN … Static key V1-----`);
 * - the values of the block a secret's key opens (`DBPassword:` … `Default: …`, `secrets:`, `[credentials]`);
 * - the output of a command that prints a file whose name or extension names a secret
 *   (`$ cat payment.skey`, `cat /etc/openvpn/acme.auth`): generated tokens in it, a password alone on a line.
 * Written from the general forms of these places (RFC 3986's userinfo, curl's and httpie's
 * `-u`/`-a`, the client constructors of SDKs), not from any one tool.
 *
 * Example: `positionalValues('servers = ["monitor:LQOxOV2fO6Uh0U67@tcp(db:3306)/"]', …, ok)` pushes
 * the span of `LQOxOV2fO6Uh0U67`.
 */
import type { Strength, ValueTest } from "./context-find.js";
import { familyOn } from "./context-families.js";
import { nameParts, namePartKind, NOT_SECRET_WORDS } from "./context-words.js";
import { codeSpans, mayHaveCode } from "./made-values.js";

const isUserChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46 || c === 43 || c === 37;
const isSpaceOrEnd = (c: number): boolean => Number.isNaN(c) || c === 32 || c === 9 || c === 10 || c === 13;

/** What may stand right before a pair's user: a line's or token's start, a quote, a bracket, `=`, `//`, a space. */
const PAIR_LEADS = " \t\n\"'`=([{,/>";

/** The password of `user:password` ending at `at` (the "@" or the token's end), read back; null when no pair stands there. */
function pairBefore(text: string, at: number, ok: ValueTest): [number, number] | null {
  let p = at;
  // The password: no space, quote, "@", "/" or ":" (a percent-encoded one keeps its escapes).
  while (p > 0 && !isSpaceOrEnd(text.charCodeAt(p - 1)) && !"\"'`@/:".includes(text[p - 1]!)) p--;
  if (p === at || p === 0 || text[p - 1] !== ":") return null;
  let u = p - 1;
  while (u > 0 && isUserChar(text.charCodeAt(u - 1))) u--;
  if (u > 0 && !PAIR_LEADS.includes(text[u - 1]!)) return null;
  const user = text.slice(u, p - 1);
  // A scheme (`mailto:`, `http:`) or a port's host (`db:5432@`) is no user; a user is a word or empty.
  if (/^(?:https?|mailto|ftp|ssh|git|file|tel|urn|data)$/i.test(user) || /^\d+$/.test(text.slice(p, at))) return null;
  const v = text.slice(p, at);
  return ok(v, "strong") && !v.includes(".") ? [p, at] : null;
}

/** `user:password@host`: each "@" with a host's character after it. */
function userinfo(text: string, found: Array<[number, number]>, ok: ValueTest): void {
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    const c = text.charCodeAt(at + 1);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 91)) continue;
    const span = pairBefore(text, at, ok);
    if (span !== null) found.push(span);
  }
}

/** Flags and keys whose value is `user:password` (curl's and wget's `-u`/`--user`, httpie's `-a`/`--auth`, `login=`). */
const PAIR_FLAGS = [" -u ", " -a ", " --user", " --auth", "login="];

/** The value of a pair flag: its token, and the part after the first ":" when the strong test takes it. */
function pairFlags(text: string, lower: string, found: Array<[number, number]>, ok: ValueTest): void {
  for (const f of PAIR_FLAGS) {
    for (let at = lower.indexOf(f); at >= 0; at = lower.indexOf(f, at + f.length)) {
      let s = at + f.length;
      // `--user` and `--auth` take their value after a space or "=" (not `--user-agent`).
      if (f.startsWith(" --")) {
        if (text[s] !== " " && text[s] !== "=") continue;
        s++;
      }
      while (text[s] === " " || text[s] === '"' || text[s] === "'") s++;
      let e = s;
      while (e < text.length && !isSpaceOrEnd(text.charCodeAt(e)) && !"\"'`,;)]}".includes(text[e]!)) e++;
      const colon = text.indexOf(":", s);
      if (colon < 0 || colon >= e || text.slice(colon + 1, e).includes("@")) continue;
      const v = text.slice(colon + 1, e);
      // A path (`-u 'C:\\Users\\…'`, `-a /dev:/x`) is no pair.
      if (/[\\/]/.test(text.slice(s, e))) continue;
      // `-u KEY:` (an API key as the user, the password empty: how many APIs take a key over Basic auth).
      if (colon + 1 === e && colon > s && ok(text.slice(s, colon), "weak")) found.push([s, colon]);
      else if (/^[A-Za-z0-9_.+%-]*$/.test(text.slice(s, colon)) && ok(v, "strong")) found.push([colon + 1, e]);
    }
  }
}

/** A call's last name part that makes a client, a connection or a login. */
const MAKERS = new Set(["new", "create", "init", "initialize", "connect", "login", "logon", "signin", "authenticate", "auth", "client", "credential", "credentials", "configure", "provider", "open", "builder"]);
/** Name parts that say the call (or what it is assigned to) is a client's, a connection's, a login's. */
const CLIENT_PARTS = new Set(["client", "api", "sdk", "connect", "connection", "auth", "login", "logon", "credential", "credentials", "session", "provider", "signin", "authenticate"]);
/** Calls whose user argument a password follows. */
const LOGIN_PARTS = new Set(["connect", "login", "logon", "signin", "authenticate", "credential", "credentials", "auth"]);
const CALL_ANCHORS = ["client", "connect", "login", "logon", "credential", "signin", "authenticat", "auth"];

const isCallName = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 92 || c === 36;

/** The string literals of the call whose "(" is at `open`, up to its ")" on the same line: [start, end] of each body. */
function literals(text: string, open: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let depth = 0;
  for (let i = open; i < text.length && i < open + 600; i++) {
    const ch = text[i]!;
    if (ch === "\n") break;
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      if (--depth === 0) break;
    } else if ((ch === '"' || ch === "'") && depth === 1) {
      const close = text.indexOf(ch, i + 1);
      const nl = text.indexOf("\n", i + 1);
      if (close < 0 || (nl >= 0 && nl < close)) break;
      out.push([i + 1, close]);
      i = close;
    }
  }
  return out;
}

/** The call that starts at the name around `at` (or, for an assignment's target, the first call after its "="). */
function callAt(text: string, at: number): { parts: string[]; open: number } | null {
  let s = at;
  let e = at;
  while (s > 0 && isCallName(text.charCodeAt(s - 1))) s--;
  while (e < text.length && isCallName(text.charCodeAt(e))) e++;
  const own = nameParts(text.slice(s, e).replace(/[\\$]/g, "."));
  let k = e;
  while (text[k] === " ") k++;
  if (text[k] === "(") return { parts: own.map((p) => p.part), open: k };
  // An assignment's target (`beamsClient, _ := pkg.New(`, `$client = new X(`): the first call after its "=".
  // Read by its pattern only where an "=" and a "(" follow within the window (the pattern's first use costs a compilation).
  const near = text.slice(e, e + 120);
  if (!near.includes("=") || !near.includes("(")) return null;
  const eq = /^\s*(?:,\s*\w+\s*)*(?::=|=)(?!=)\s*(?:new\s+)?([A-Za-z_$\\][\w$.\\]*(?:->[\w]+)?)\s*\(/.exec(near);
  if (eq === null) return null;
  const callee = nameParts(eq[1]!.replace(/->|[\\$]/g, ".")).map((p) => p.part);
  return { parts: [...own.map((p) => p.part), ...callee], open: e + eq[0].length - 1 };
}

/** The literals of client, connection and login calls (see the file's comment). */
function clientCalls(text: string, lower: string, found: Array<[number, number]>, ok: ValueTest): void {
  const seen = new Set<number>();
  for (const a of CALL_ANCHORS) {
    for (let at = lower.indexOf(a); at >= 0; at = lower.indexOf(a, at + a.length)) {
      const call = callAt(text, at);
      if (call === null || seen.has(call.open)) continue;
      seen.add(call.open);
      // `->connect(`, `.create(`: the part before "(" is the callee's last.
      const before = text.slice(Math.max(0, call.open - 40), call.open).trimEnd();
      const lastPart = nameParts(/([A-Za-z]*)$/.exec(before)![1]!).pop()?.part ?? "";
      const newed = /\bnew\s+[\w$.\\]+\s*$/.test(before);
      if (!(MAKERS.has(lastPart) || newed) || !call.parts.some((p) => CLIENT_PARTS.has(p))) continue;
      const login = call.parts.some((p) => LOGIN_PARTS.has(p));
      const lits = literals(text, call.open);
      lits.forEach(([s, e], i) => {
        const v = text.slice(s, e);
        if (ok(v, "weak") || (login && i > 0 && ok(v, "strong"))) found.push([s, e]);
      });
    }
  }
}

/** Commands that print a file (a shell's, PowerShell's, a pager's). */
const PRINTERS = ["cat ", "type ", "get-content ", "gc ", "head ", "tail ", "less ", "more ", "bat ", "xxd ", "od "];
/** A file's extensions that hold key material or a secret whatever its name. */
const SECRET_EXTENSIONS = new Set(["key", "pem", "p12", "pfx", "skey", "jks", "keystore", "keytab", "secret", "secrets", "creds", "token", "auth", "psk", "kdbx"]);

/** Parts of the names of files of public keys (`authorized_keys`, `known_hosts`, `trusted.gpg`). */
const PUBLIC_FILES = new Set(["authorized", "known", "hosts", "trusted", "allowed", "signers", "crt", "cert", "certs", "ca"]);

/** Whether a path's file names a secret: a part of its name (`acme.auth`, `db_password.txt`) or its extension. */
function secretFile(path: string): boolean {
  const file = path.slice(path.lastIndexOf("/") + 1).replace(/["']/g, "");
  const ext = file.includes(".") ? file.slice(file.lastIndexOf(".") + 1).toLowerCase() : "";
  if (SECRET_EXTENSIONS.has(ext)) return true;
  const parts = nameParts(file).map((p) => p.part);
  return parts.some((p) => namePartKind(p) !== null) && !parts.some((p) => (NOT_SECRET_WORDS.has(p) && p !== "txt" && p !== "json") || PUBLIC_FILES.has(p));
}

/**
 * A file that names a secret printed by a command (`$ cat payment.skey`, `type C:\keys\app.key`):
 * its output's lines, up to the next prompt or a blank line, each token the weak test takes and
 * each line the strong test takes alone.
 */
function printedFiles(text: string, lower: string, found: Array<[number, number]>, ok: ValueTest): void {
  for (const p of PRINTERS) {
    for (let at = lower.indexOf(p); at >= 0; at = lower.indexOf(p, at + p.length)) {
      const ls = lower.lastIndexOf("\n", at - 1) + 1;
      // The command starts its line, after a prompt (`$ `, `# `, `PS C:\> `, `user@host:~$ `) at most.
      if (!/^\s*(?:[\w.@~:/\\-]*[$#>%]\s*)?$/.test(text.slice(ls, at)) || (at > 0 && /\w/.test(text[at - 1]!))) continue;
      let le = text.indexOf("\n", at);
      if (le < 0) break;
      const args = text.slice(at + p.length, le).trim().split(/\s+/).filter((a) => !a.startsWith("-"));
      if (args.length !== 1 || !secretFile(args[0]!)) continue;
      for (let n = 0; n < 60; n++) {
        const from = le + 1;
        if (from >= text.length) break;
        le = text.indexOf("\n", from);
        const line = text.slice(from, le < 0 ? text.length : le);
        if (line.trim() === "" || /^\s*(?:[\w.@~:/-]*[$#%]|PS [^>]*>)\s/.test(line)) break;
        const alone = line.trim();
        if (!alone.includes(" ") && ok(alone.replace(/^["']|["'],?$/g, ""), "strong")) {
          const s = from + line.indexOf(alone);
          found.push([s, s + alone.length]);
        } else {
          for (const m of line.matchAll(/[^\s"',:;{}[\]()<>=]{16,}/g)) if (ok(m[0], "weak")) found.push([from + m.index, from + m.index + m[0].length]);
        }
        if (le < 0) break;
      }
    }
  }
}

/** A block's line `key: value` or `key = value` (YAML, INI, TOML): the key and the value's place. */
const PAIR_LINE = /^([\w.-]{1,60})\s*[:=]\s*(["']?)([^\s"'#;]{8,300})\2\s*$/;

/**
 * The values of the block a secret's key opens: a YAML key at its line's end (`DBPassword:`,
 * `secrets:`), its lines at a deeper indent, or an INI or TOML section (`[credentials]`), its
 * lines up to the next section; within twenty lines. Each `key: value` line's value the test
 * takes for the key's strength, unless the key says no secret (`MinLength`, `public_key_id`).
 * So a CloudFormation parameter's `Default:` under `DBPassword:`, and every value under a
 * `secrets:` or `[credentials]` of generated or password-like values.
 */
export function blockValues(text: string, start: number, end: number, strength: Strength, ok: ValueTest, found: Array<[number, number]>): void {
  let i = end;
  while (text[i] === '"' || text[i] === "'") i++;
  const section = start > 0 && text[start - 1] === "[" && text[i] === "]";
  if (text[i] !== ":" && !section) return;
  let nl = i + 1;
  while (text[nl] === " " || text[nl] === "\t" || text[nl] === "\r") nl++;
  if (text[nl] !== "\n") return;
  const ls = text.lastIndexOf("\n", start - 1) + 1;
  if (section ? text.slice(ls, start - 1).trim() !== "" : false) return;
  const indent = /^\s*/.exec(text.slice(ls, start))![0].length;
  for (let k = 0; k < 20; k++) {
    const from = nl + 1;
    if (from >= text.length) return;
    const to = text.indexOf("\n", from);
    const line = text.slice(from, to < 0 ? text.length : to).replace(/\r$/, "");
    const own = /^\s*/.exec(line)![0].length;
    const rest = line.slice(own);
    if (section ? rest.startsWith("[") : rest !== "" && own <= indent) return;
    const m = PAIR_LINE.exec(rest);
    if (m !== null && !nameParts(m[1]!).some((p) => NOT_SECRET_WORDS.has(p.part)) && ok(m[3]!, strength)) {
      const s = from + own + rest.lastIndexOf(m[3]!);
      found.push([s, s + m[3]!.length]);
    }
    if (to < 0) return;
    nl = to;
  }
}

/**
 * An armoured block whose BEGIN line names a secret and no public part (`-----BEGIN OpenVPN
 * Static key V1-----`, `-----BEGIN … SECRET …-----`): its body, from the first line after BEGIN to
 * the last before END, when the body is one run of base64 or hex of 32 characters or more.
 */
function armouredBlocks(text: string, lower: string, found: Array<[number, number]>): void {
  for (let at = lower.indexOf("-----begin "); at >= 0; at = lower.indexOf("-----begin ", at + 11)) {
    const close = lower.indexOf("-----", at + 11);
    const nl = lower.indexOf("\n", at);
    if (close < 0 || nl < 0 || close > nl) continue;
    const parts = lower.slice(at + 11, close).split(/[^a-z0-9]+/).filter(Boolean);
    if (!parts.some((p) => namePartKind(p) !== null) || parts.some((p) => PUBLIC_PARTS.has(p))) continue;
    const end = lower.indexOf("-----end ", nl);
    if (end < 0) continue;
    const body = text.slice(nl + 1, end).replace(/\s+$/, "");
    if (/^[A-Za-z0-9+/=\s]+$/.test(body) && body.replace(/\s/g, "").length >= 32) found.push([nl + 1, nl + 1 + body.length]);
  }
}
const PUBLIC_PARTS = new Set(["public", "certificate", "cert", "csr", "request", "signature", "signed", "message", "pgp"]);

/**
 * Whether positionalValues may find anything in `lower` (the text lower-cased): each of its readers
 * starts at one of these searches. The hook's pre-filter asks it before loading the context rule's
 * scan (reader-gates.ts); kept beside the readers so a new one adds its start here.
 */
export function mayHavePosition(text: string, lower: string): boolean {
  if (lower.includes("-----begin ") || PAIR_FLAGS.some((f) => lower.includes(f)) || mayHaveCode(text)) return true;
  // userinfo's "@": a host's character after it, and a ":" before the run that ends at it (pairBefore's first tests).
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    const c = text.charCodeAt(at + 1);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 91)) continue;
    let p = at;
    while (p > 0 && !isSpaceOrEnd(text.charCodeAt(p - 1)) && !"\"'`@/:".includes(text[p - 1]!)) p--;
    if (p < at && p > 0 && text[p - 1] === ":") return true;
  }
  // clientCalls' anchors: a "(" after the name with a quote after it on its line (literals' first
  // test), or an assignment before a call and a quote in the reach of its literals (callAt's tests, loosened).
  const quoted = (s: string): boolean => s.includes('"') || s.includes("'");
  for (const a of CALL_ANCHORS) {
    for (let at = lower.indexOf(a); at >= 0; at = lower.indexOf(a, at + a.length)) {
      let e = at;
      while (e < text.length && isCallName(text.charCodeAt(e))) e++;
      let k = e;
      while (text[k] === " ") k++;
      const nl = text.indexOf("\n", k);
      if (text[k] === "(" && quoted(text.slice(k, nl < 0 ? text.length : nl))) return true;
      const after = text.slice(e, e + 120);
      if (after.includes("=") && after.includes("(") && quoted(text.slice(e, e + 720))) return true;
    }
  }
  // printedFiles' printers: a "\n" after it, and no word's character right before it.
  for (const p of PRINTERS) {
    for (let at = lower.indexOf(p); at >= 0; at = lower.indexOf(p, at + p.length)) if (!(at > 0 && /\w/.test(text[at - 1]!)) && text.includes("\n", at)) return true;
  }
  return false;
}

/** Every value one of these places holds, pushed on `found` as spans of `text`. */
export function positionalValues(text: string, lower: string, found: Array<[number, number]>, ok: ValueTest): void {
  if (familyOn("pairs")) {
    userinfo(text, found, ok);
    pairFlags(text, lower, found, ok);
  }
  if (familyOn("calls")) clientCalls(text, lower, found, ok);
  if (familyOn("printed")) printedFiles(text, lower, found, ok);
  if (familyOn("lines")) armouredBlocks(text, lower, found);
  found.push(...codeSpans(text)); // the thirteenth pass's codes (made-values.ts), behind their own switch
}
