/**
 * Secrets told by their position among a line's fields, nothing beside them naming them
 * (docs/privacy.md "A twelfth held-out set"), one scan of each line:
 * - a call's or a tuple's arguments in the order the usual signatures give them (`FTP(host, user,
 *   passwd)`, `login(user, password)`, `simple_bind_s(who, cred)`, `Sequelize(database, username,
 *   password, {host})`, `Net::SMTP.start(address, port, helo, user, secret)`): a quoted literal of
 *   a password's or a generated key's shape right after a quoted user, when the call or tuple
 *   also holds a host (a dotted name, an address, a URL, a directory name) or its name is a
 *   login's verb (login, bind, auth, connect, credential, begin, open); with or without
 *   parentheses (`cn.Open "DSN=…", "user", "…"`);
 * - a row's fields in that order, unquoted: a host, a user, then a password (`column -t` of a
 *   hosts file);
 * - a command's positional argument: after a program named by its path (`./vpn-up.sh`,
 *   `bin/queue-runner`, `/usr/bin/python3 /opt/x.py`, `.\Connect-Lab.ps1`), or in a list under a
 *   command's key (`command: [...]`, `args:`, `CMD [...]`), a field that no flag introduces and
 *   that is a generated key or a typed password; hex beside a named file is that file's digest
 *   (`verify.sh dist/x.tar.gz <sha256>`) and a UUID is an id; after a program named by its bare
 *   name (`git`, `sentry-cli`), only a mixed-case password or token;
 * - a key beside its cipher's name (`aead rfc4106(gcm(aes)) 0x<hex>`, `hmac(sha256) 0x<hex>`).
 *
 * Example: `findSilentFields('ftp = FTP_TLS("ftp.x.example", "acme-in", "<a password>")')` ->
 * the password's span; `findSilentFields('git revert 50423c36…a07e')` -> none.
 */
import { generatedRun, hexRun, typedPassword, UUID } from "./silent-shapes.js";

type Field = { v: string; at: number };

const FLAG = /^-{1,2}[A-Za-z]/;
const SCRIPT = /\.(?:sh|bash|zsh|py|rb|pl|js|mjs|cjs|ts|ps1|php|exe|bat|cmd)$/i;
const PATH_PROGRAM = /^(?:\.{1,2}[\\/]|~\/|\/|(?:s?bin|scripts?|tools|ci|\.venv\/bin)\/|[\w.-]+\/[\w./-]*\.(?:sh|bash|py|rb|pl|js|mjs|cjs|ts|ps1|php)$)[\w./\\-]*[\w-]$/;
const HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?|(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?|localhost|[a-z][a-z0-9+.-]*:\/\/\S+)$/i;
const DIRECTORY_NAME = /^(?:cn|uid|dc|ou)=[^,]+(?:,[a-z]+=[^,]+)*$/i;
const USER = /^[A-Za-z][\w.@+-]{1,63}$/;
const LOGIN_VERB = /login|logon|bind|auth|connect|credential|begin|open/i;
const LIST_KEY = /(?:^|[\s"'])(?:command|args|cmd|entrypoint)["']?\s*[:=]?\s*\[|^\s*(?:CMD|ENTRYPOINT|RUN)\s+\[/i;
const CIPHER = /\b(?:aes|gcm|cbc|ctr|hmac|chacha20|poly1305|des3?|blowfish|camellia|rc4)\b/i;
const MODULAR_HASH = /^[a-z0-9_-]+\$\d+\$/i; // pbkdf2_sha256$600000$…: a password's hash, no password

/** The line's fields: runs between blanks (and escaped line ends), with quotes, brackets, commas and a `key=` head taken off. */
function fields(line: string, base: number): Field[] {
  const out: Field[] = [];
  // An escaped line end or tab (`\n`, `\t` in a JSON string) separates fields as a blank does.
  for (const m of line.matchAll(/(?:[^\s\\]|\\(?![nrt]))+/g)) {
    let v = m[0];
    let at = base + m.index;
    const head = /^[[({"'`,]+/.exec(v)?.[0].length ?? 0;
    v = v.slice(head);
    at += head;
    v = v.replace(/[\])}"'`,;]+$/, "");
    if (v !== "") out.push({ v, at });
  }
  return out;
}

function passwordOrKey(v: string, hex: boolean): boolean {
  return !MODULAR_HASH.test(v) && (typedPassword(v) || generatedRun(v, hex));
}

/** A call's or a tuple's quoted arguments in the order host, user, password (see the file's comment). */
function callArguments(line: string, base: number, found: Array<[number, number]>): void {
  const opens: Array<[number, string]> = [];
  for (let open = line.indexOf("("); open >= 0; open = line.indexOf("(", open + 1)) opens.push([open, /[\w:.$]*$/.exec(line.slice(0, open))?.[0] ?? ""]);
  // A call without parentheses (VBA's, Ruby's, Perl's): a statement's callee, then quoted arguments.
  const bare = /^\s*([\w.:$]+)[ \t]+(?=["'])/.exec(line);
  if (bare !== null) opens.push([bare[0].length - 1, bare[1]!]);
  for (const [open, callee] of opens) {
    const close = line.indexOf(")", open);
    const inside = line.slice(open + 1, close < 0 ? line.length : close);
    const args = [...inside.matchAll(/\s*(["'])([^"'\n]*)\1|[^,]+/g)].map((m) => ({ quoted: m[1] !== undefined, v: m[2] ?? m[0].trim(), at: base + open + 1 + m.index + (m[1] !== undefined ? m[0].indexOf(m[1]) + 1 : 0) }));
    const placed = LOGIN_VERB.test(callee) || /\bhost\s*[:=]/i.test(line) || args.some((a) => a.quoted && (HOST.test(a.v) || DIRECTORY_NAME.test(a.v)));
    if (!placed) continue;
    for (let i = 1; i < args.length; i++) {
      const a = args[i]!;
      const user = args[i - 1]!;
      if (!a.quoted || !user.quoted || !(USER.test(user.v) || DIRECTORY_NAME.test(user.v)) || HOST.test(user.v)) continue;
      if (passwordOrKey(a.v, false)) found.push([a.at, a.at + a.v.length]);
    }
  }
}

/** A row's unquoted fields in the order host, user, password. */
function hostUserPassword(fs: Field[], found: Array<[number, number]>): void {
  for (let i = 2; i < fs.length; i++) {
    const [h, u, p] = [fs[i - 2]!, fs[i - 1]!, fs[i]!];
    if (HOST.test(h.v) && USER.test(u.v) && !HOST.test(u.v) && typedPassword(p.v)) found.push([p.at, p.at + p.v.length]);
  }
}

/** A command's positional arguments (see the file's comment). */
function positional(line: string, base: number, fs: Field[], found: Array<[number, number]>): void {
  const program = fs.findIndex((f) => !passwordOrKey(f.v, true) && PATH_PROGRAM.test(f.v.replace(/^[\w-]+=/, "")) && (SCRIPT.test(f.v) || /[\\/]/.test(f.v.replace(/^[\w-]+=/, ""))) && !/^\/\//.test(f.v) && !f.v.includes("://"));
  const listed = LIST_KEY.test(line);
  // A prompt's command line (after a message's own words too: "see this: $ …"): its arguments after the program's name. A
  // line's "> " is a reply's quote mark, no prompt.
  const prompt = program < 0 && !listed ? /(?:^|\s)(?:[$%]|PS[^>]{0,80}>)\s+[a-z][\w.-]*\s/.exec(line) : null;
  const bare = prompt !== null;
  const after = prompt === null ? -1 : fs.findIndex((f) => f.at >= base + prompt.index + prompt[0].length);
  const from = program >= 0 ? program + 1 : listed ? 0 : after >= 0 ? after : fs.length;
  for (let i = 1; i < fs.length; i++) if (CIPHER.test(fs[i - 1]!.v) && /^0x[0-9a-f]{32,}$/i.test(fs[i]!.v)) found.push([fs[i]!.at + 2, fs[i]!.at + fs[i]!.v.length]);
  for (let i = from; i < fs.length; i++) {
    const f = fs[i]!;
    const prev = fs[i - 1];
    // A flag's value is no positional argument; a `--no-…` flag takes none.
    if (FLAG.test(f.v) || (prev !== undefined && FLAG.test(prev.v) && !prev.v.includes("=") && !prev.v.startsWith("--no-"))) continue;
    if (/^[./~\\]|:\/\/|=(?!=*$)/.test(f.v) || UUID.test(f.v)) continue; // `name=value`, not base64's padding
    if (f.v.includes("/") && (/\.[a-z]{1,5}$/i.test(f.v) || !generatedRun(f.v, false))) continue; // a path, not base64 with a "/"
    if (bare) {
      if (/^[A-Za-z0-9_-]+$/.test(f.v) && !/^0x/.test(f.v) && passwordOrKey(f.v, false) && /[A-Z]/.test(f.v) && /[a-z]/.test(f.v)) found.push([f.at, f.at + f.v.length]);
      continue;
    }
    if (!passwordOrKey(f.v, true)) continue;
    // Hex beside a file it names is that file's digest (a glob names no one file).
    if (hexRun(f.v, 24) && fs.slice(from, i).some((g) => /[\w-]\.[a-z][a-z0-9]{0,5}$/i.test(g.v) && !SCRIPT.test(g.v) && !g.v.includes("*") && !g.v.includes("://") && !HOST.test(g.v))) continue;
    found.push([f.at, f.at + f.v.length]);
  }
}

/** A run of token characters that may be a value here: a password's or a generated key's shape, or a cipher's 0x key. */
const CANDIDATE = /[A-Za-z0-9_+/=.~-]{10,}/g;
function candidate(run: string): boolean {
  const v = run.replace(/^[./=~-]+|[.=]+$/g, "");
  if (!/\d/.test(v) || !/[A-Za-z]/.test(v) || UUID.test(v) || /^[a-z]{2,8}_[A-Za-z0-9]{20,}$/.test(v)) return false; // an id: a UUID, an API's object id (`msg_…`)
  return /^0x[0-9a-f]{32,}$/i.test(v) || v.split(/[=]/).some((p) => passwordOrKey(p, true));
}

/**
 * Every span the file's comment describes. The lines read are only those holding a candidate
 * value (a run of a password's or a key's shape), found first: reading every line's fields cost
 * about three times as much on real sessions' texts, few of whose lines hold one.
 */
export function findSilentFields(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const read = new Set<number>();
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    if (!candidate(m[0])) continue;
    const base = text.lastIndexOf("\n", m.index) + 1;
    if (read.has(base)) continue;
    read.add(base);
    const nl = text.indexOf("\n", m.index);
    const line = text.slice(base, nl < 0 ? text.length : nl);
    if (line.length < 12 || line.length > 2000) continue;
    callArguments(line, base, found);
    const fs = fields(line, base);
    if (fs.length >= 2) {
      hostUserPassword(fs, found);
      positional(line, base, fs, found);
    }
  }
  return found;
}
