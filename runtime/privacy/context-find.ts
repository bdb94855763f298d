/**
 * The context rule's scan (context-secrets.ts has the rule and its value test): the hits of a
 * secret's word (context-words.ts), and the value after each, on its line, alone on the next, or
 * under a header's column, judged by the value test it is given. Apart from the rule so that the
 * pre-filter (prefilter.ts, in the hook's capture part) runs the same scan as the rule's witness
 * with a relaxed test and no import of the redactor's shapes: a value the rule takes, the
 * relaxation takes too, and the scan reads the same tokens either way, so the witness holds
 * wherever the rule finds.
 *
 * Example: `scanContext(text, maybeValue)` on "pw: " and a 16-character random value -> `[[4, 20]]`,
 * the value's span.
 */
import { ANCHORS, nameParts, namePartKind, NOT_SECRET_WORDS, PROSE_STEMS } from "./context-words.js";
import { blockValues, positionalValues } from "./context-positions.js";
import { familyOn } from "./context-families.js";
import { ANCHORS_12, PROSE_STEMS_12 } from "./context-words-12.js";

const ANCHORS_ALL = [...ANCHORS, ...ANCHORS_12];

export type Strength = "strong" | "weak";
/** The value test the scan is given: the rule's (context-secrets.ts) or the witness's relaxation of it. */
export type ValueTest = (v: string, strength: Strength) => boolean;
interface Hit {
  /** Where the name (or the prose word) starts. */
  start: number;
  /** Where the name (or the prose word) ends: the value is read after it. */
  end: number;
  strength: Strength;
  /** Whether the hit is a word of prose (read on its line only when it is a strong one). */
  prose: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Words of prose before a weak part that make it a secret's name ("API key", "access token"). */
const WEAK_LEADS = new Set(["api", "access", "secret", "private", "auth", "bearer", "session", "app", "master", "license", "licence", "recovery", "signing", "encryption", "deploy", "personal", "refresh", "bot", "webhook", "admin", "root", "client"]);

const isAsciiName = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;
/** A name's character: ASCII letters, digits, "_", "-", ".", and Latin and Cyrillic letters beyond ASCII. */
const isNameChar = (c: number): boolean => isAsciiName(c) || (c >= 0xc0 && c <= 0x24f) || (c >= 0x400 && c <= 0x4ff);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 0xa0 || c === 0x3000;

function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) n++;
  return n;
}

/** `/^[A-Z0-9_]+$/`, by hand (the hot path of every hit). */
function upperName(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) return false;
  }
  return s.length > 0;
}

/** The hit of a name that holds `at` (an anchor's place), or null: its part must name a secret, its last part no id, hash or name. */
function nameHit(text: string, at: number): Hit | null {
  let s = at;
  let e = at;
  while (s > 0 && isNameChar(text.charCodeAt(s - 1))) s--;
  while (e < text.length && isNameChar(text.charCodeAt(e))) e++;
  // A trailing "." or "-" ends a sentence or a flag's dashes, not the name.
  while (e > s && (text.charCodeAt(e - 1) === 46 || text.charCodeAt(e - 1) === 45)) e--;
  const name = text.slice(s, e);
  // A random run (base64 holding "pw" or "key") names nothing, nor does a word that is a value (`"use": "sig"`).
  if (name.length > 64 || countDigits(name) > 4) return null;
  let b = s;
  while (b > 0 && (isSpace(text.charCodeAt(b - 1)) || text[b - 1] === '"' || text[b - 1] === "'")) b--;
  if (b > 0 && (text[b - 1] === ":" || text[b - 1] === "=") && b < s && /["']/.test(text.slice(b, s))) return null;
  const ps = nameParts(name);
  const own = ps.find((p) => s + p.at <= at && at < s + p.at + p.part.length);
  if (own === undefined || ps.length === 0) return null;
  const kind = namePartKind(own.part);
  if (kind === null || ps.some((p) => NOT_SECRET_WORDS.has(p.part))) return null;
  // A flag's name: its dashes are read into the name (`--sec`), or stand before it.
  const flag = (s > 0 && text.charCodeAt(s - 1) === 45) || (text.charCodeAt(s) === 45 && s < at && familyOn("names"));
  const compound = ps.length > 1 || flag || upperName(name);
  let next = e;
  while (next < text.length && (isSpace(text.charCodeAt(next)) || text.charCodeAt(next) === 34 || text.charCodeAt(next) === 39)) next++;
  // An element's name (`<Pass encoding="base64">…`) is a key: its value is read after the tag's ">".
  const tagEnd = s > 0 && text[s - 1] === "<" && familyOn("names") ? text.indexOf(">", e) : -1;
  const element = tagEnd >= e && tagEnd - e < 100 && !text.slice(e, tagEnd).includes("\n");
  const keyed = element || (next < text.length && (text[next] === ":" || text[next] === "=")) || (s > 0 && (text[s - 1] === '"' || text[s - 1] === "'"));
  const prose = !compound && !keyed;
  if (kind === "weak" && prose) {
    // "API key", "access token": a weak part after such a word of prose.
    const before = text.slice(Math.max(0, s - 16), s).toLowerCase().split(/[^a-z]+/).filter(Boolean).pop() ?? "";
    if (!WEAK_LEADS.has(before)) return null;
  }
  return { start: s, end: element ? tagEnd + 1 : e, strength: kind, prose };
}

/** Whether `at` is inside a marker (`[REDACTED:prefixed-token]`): a kind's word names nothing. */
function inMarker(lower: string, at: number): boolean {
  const open = lower.lastIndexOf("[redacted:", at);
  return open >= 0 && open > lower.lastIndexOf("]", at - 1);
}

/** A character beyond Latin-1: only then are the stems of other scripts searched. */
const WIDE = /[^\u0000-\u00ff]/;
const LATIN_STEMS = PROSE_STEMS.filter((w) => !WIDE.test(w));
const ALL_STEMS_12 = [...PROSE_STEMS, ...PROSE_STEMS_12];
const LATIN_STEMS_12 = [...LATIN_STEMS, ...PROSE_STEMS_12.filter((w) => !WIDE.test(w) && !w.includes("api"))];
/** The twelfth pass's stems that write "API key" in other languages: searched only in a text that holds "api". */
const API_STEMS_12 = [...LATIN_STEMS_12, ...PROSE_STEMS_12.filter((w) => !WIDE.test(w) && w.includes("api"))];
/** What ends a prose word (its inflection runs to one of these). */
const WORD_ENDS = " \t\n\r\"'`:=,;()[]{}<>|.!?،、。：，";

/** Every hit in the text: names by their anchors, words of prose by their stems. */
function hits(text: string, lower: string): Hit[] {
  const out = new Map<number, Hit>();
  for (const a of familyOn("words") ? ANCHORS_ALL : ANCHORS) {
    // An anchor led by "_" or "-" (`_sk`, `-sec`): a short part, read only where a name's separator leads it.
    const lead = a.charCodeAt(0) === 95 || a.charCodeAt(0) === 45 ? 1 : 0;
    for (let at = lower.indexOf(a); at >= 0; at = lower.indexOf(a, at + a.length)) {
      if (inMarker(lower, at)) continue;
      const h = nameHit(text, at + lead);
      if (h !== null && !out.has(h.end)) out.set(h.end, h);
    }
  }
  const wide = WIDE.test(lower);
  const words12 = familyOn("words");
  const stems = !words12 ? (wide ? PROSE_STEMS : LATIN_STEMS) : wide ? ALL_STEMS_12 : lower.includes("api") ? API_STEMS_12 : LATIN_STEMS_12;
  for (const w of stems) {
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + w.length)) {
      // Inside a name of code (`…_parola`, `hasloUzytkownika`) the anchors read it, with the name's other parts.
      if ((at > 0 && isAsciiName(text.charCodeAt(at - 1)) && text[at - 1] !== "." && text[at - 1] !== "-") || inMarker(lower, at)) continue;
      // The stem's word runs on to its inflection's end (letters and marks, no space).
      let e = at + w.length;
      while (e < text.length && !isSpace(text.charCodeAt(e)) && !WORD_ENDS.includes(text[e]!)) e++;
      if (!out.has(e)) out.set(e, { start: at, end: e, strength: "strong", prose: true });
    }
  }
  return [...out.values()];
}

/** Signs that join a name to its value (or end a token). */
const JOINERS = "\"'`:=,;()[]{}<>|*";
const isJoiner = (c: number): boolean => JOINERS.includes(String.fromCharCode(c)) || c === 0x201c || c === 0x201d || c === 0xab || c === 0xbb || c === 0x2013 || c === 0x2014 || c === 0x3001 || c === 0xff1a;

/** Letters only (any script, with marks): a connecting word, not a value. */
function wordOnly(t: string): boolean {
  for (const ch of t) {
    const c = ch.codePointAt(0)!;
    if ((c >= 48 && c <= 57) || c === 95 || c === 36 || c === 37 || c === 47 || c === 64 || c === 38) return false;
  }
  return t.length <= 30;
}

/** Signs that end a token: quotes, brackets, a list's separators ("=" and ":" stay inside a value). */
const ENDS = "\"'`,;()[]{}<>|";
/** The token at `i`: a run of no space and no ENDS, cut before a query's next `&name=`, trimmed of a sentence's end. */
function tokenAt(text: string, i: number): [number, number] {
  let e = i;
  for (; e < text.length; e++) {
    const c = text.charCodeAt(e);
    if (c < 32 || c === 127 || isSpace(c) || ENDS.includes(text[e]!)) break;
    if (c === 61 && text[e + 1] === "[") break; // `NAME=[REDACTED:…]`: a name before a marker
    // A query's next parameter (`&name=`) or an HTML entity (`&quot;`, `&#43;`) ends a value.
    if (c === 38 && /^&(?:[A-Za-z0-9_.-]{1,40}=|[A-Za-z]{2,8};|#x?[0-9A-Fa-f]{1,6};)/.test(text.slice(e, e + 42))) break;
  }
  while (e > i && /[.,:;!?]/.test(text[e - 1]!)) e--;
  return [i, e];
}

/**
 * A list of sixteen numbers or more that are bytes (0 to 255, decimal or `0x`), eight of them
 * distinct, starting at `i`: its span, or null. A key's raw bytes under a secret's name (the list
 * is judged by this, not by the value test: it holds no token).
 */
function byteList(text: string, i: number): [number, number] | null {
  const m = /^(?:(?:0x[0-9a-f]{1,2}|\d{1,3})\s*,\s*){15,}(?:0x[0-9a-f]{1,2}|\d{1,3})\b/i.exec(text.slice(i, i + 4000));
  if (m === null) return null;
  const ns = m[0].split(/\s*,\s*/).map((x) => Number(x));
  return ns.every((n) => n <= 255) && new Set(ns).size >= 8 ? [i, i + m[0].length] : null;
}

/** The value after a hit on its line: after at most five connecting words or signs; the first other token is judged and ends the search. */
function sameLine(text: string, h: Hit, ok: ValueTest): [number, number] | null {
  let i = h.end;
  let words = 0;
  let others = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return null;
    // A clause's end ("; ", ". "): the value is no further.
    if ((c === 59 || c === 46 || c === 33 || c === 63) && (i + 1 >= text.length || isSpace(text.charCodeAt(i + 1)))) return null;
    // A terminal's colour (`ESC[1;31m`) joins as a sign does.
    if (c === 27) {
      const m = /^\x1b\[[0-9;?]*[A-Za-z]/.exec(text.slice(i, i + 24));
      i += m === null ? 1 : m[0].length;
      continue;
    }
    // A CDATA section's opening joins; its value is read inside it.
    if (c === 60 && text.startsWith("<![CDATA[", i) && familyOn("names")) {
      i += 9;
      continue;
    }
    // An element's tag (`</Key><Value a="b">`) joins as a sign does.
    if (c === 60) {
      const close = text.indexOf(">", i);
      if (close > i && close - i < 100 && !text.slice(i, close).includes("\n")) {
        i = close + 1;
        continue;
      }
    }
    // Another flag (`-h`, `--env`) after the name: what follows is its value, not the name's.
    if (c === 45 && i > h.end && isSpace(text.charCodeAt(i - 1)) && /^-{1,2}[A-Za-z]/.test(text.slice(i, i + 3))) return null;
    if (isSpace(c) || isJoiner(c) || c === 45 || c === 62) {
      i++;
      continue;
    }
    // A key's bytes (`network_key: [129, 28, …]`, `kKey[16] = {0x3a, …}`): the list, by its own test.
    if (c >= 48 && c <= 57 && i > 0 && "[{(".includes(text[i - 1]!) && familyOn("names")) {
      const bytes = byteList(text, i);
      if (bytes !== null) return bytes;
    }
    const [s, e] = tokenAt(text, i);
    if (e === s) {
      i++;
      continue;
    }
    const t = text.slice(s, e);
    // A key's label glued to its value (`value:abc`, `pw=abc`): the label joins, the value follows.
    const label = /^[A-Za-z][A-Za-z0-9_.-]{0,30}[:=]+/.exec(t);
    // A long run of letters may be a random key: tried as a value first, then read as a word.
    if (wordOnly(t) && t.length >= 16 && label === null && ok(t, h.strength)) return [s, e];
    const connector = (wordOnly(t) && !/[A-Za-z][0-9]|[0-9][A-Za-z]/.test(t)) || /^\d{1,4}$/.test(t) || (label !== null && label[0].length === t.length);
    if (text[s - 1] === "{" && text[e] === "}" && /^[A-Z0-9-]{2,12}$/.test(t)) return null; // `{SSHA}`: a hash follows
    if (connector || label !== null) {
      const word = (label === null ? t : label[0].replace(/[:=]+$/, "")).toLowerCase();
      if (NOT_SECRET_WORDS.has(word) || ++words > 6) return null;
      i = label === null || connector ? e : s + label[0].length;
      continue;
    }
    // A pattern's class or alternative (`[A-Z0-9]{58}`, `(?:abc)|(def)`) is no value.
    const regexPart = /^\]?[{+*?]|^\)?\|/.test(text.slice(e, e + 2)) || (s > 0 && "(|".includes(text[s - 1]!) && ")|".includes(text[e] ?? ""));
    if (!regexPart && ok(t, h.strength)) return [s, e];
    // Another argument before it (a call's user, a host): skipped when a list's "," or a pair's ":" follows it.
    let k = e;
    while (k < text.length && (text[k] === '"' || text[k] === "'" || isSpace(text.charCodeAt(k)))) k++;
    if ((text[k] !== "," && text[k] !== ":") || ++others > 2) return null;
    i = k + 1;
  }
  return null;
}

/** A log's `<service> | ` prefix and a quote's `> ` marks, and the indent: the width to skip at a line's start. */
function lineLead(line: string): number {
  const m = /^(?:[^\s|]{1,40}\s*\|)?[\s>]*/.exec(line);
  return m === null ? 0 : m[0].length;
}

/** Words of a line that announce no secret on the next: a public key's block, a fingerprint's, an id's. */
const PUBLIC_LINE = new Set(["public", "pub", "fingerprint", "hash", "digest", "checksum", "signature", "certificate", "cert", "id", "uuid"]);

/** A value alone on the first line that is not blank after the hit's line (a short label before it allowed). */
function nextLine(text: string, h: Hit, ok: ValueTest): [number, number] | null {
  let nl = text.indexOf("\n", h.end);
  const own = text.slice(text.lastIndexOf("\n", h.end - 1) + 1, nl < 0 ? text.length : nl).toLowerCase();
  // ASCII words only (the list's are): a Unicode class costs a fresh process its tables (letters.ts).
  if (own.split(/[^a-z]+/).some((w) => PUBLIC_LINE.has(w))) return null;
  for (let k = 0; k < 3 && nl >= 0; k++) {
    const from = nl + 1;
    const to = text.indexOf("\n", from);
    const line = text.slice(from, to < 0 ? text.length : to).replace(/\r$/, "");
    const lead = lineLead(line);
    const rest = line.slice(lead);
    if (rest.trim() === "") {
      nl = to;
      continue;
    }
    // A short label: one to three words and ":" ("New value:", "Password:").
    const label = /^(?:[^\s:]{1,20}\s){0,2}[^\s:]{1,20}:\s+(?=\S)/.exec(rest);
    if (label !== null && label[0].toLowerCase().split(/[^a-z]+/).some((w) => NOT_SECRET_WORDS.has(w))) return null;
    // A command that types the value (`send "…\r"` after an `expect "password:"`, `echo '…'`): the value is its one argument.
    const typed = label === null && familyOn("lines") ? /^(?:send|echo|print|printf|puts|type|write)\s+(?=["'])/.exec(rest) : null;
    const body = label === null ? rest.slice(typed?.[0].length ?? 0) : rest.slice(label[0].length);
    const m = /^b?(["']?)([^\s"']{8,300}?)(?:\\[rn])?\1\s*$/.exec(body.replace(/^<([\w:.-]+)[^>\n]*>([^<\s]{8,300})<\/\1>\s*$/, "$2"));
    if (m === null) return null;
    const start = from + lead + (label?.[0].length ?? typed?.[0].length ?? 0) + body.indexOf(m[2]!);
    const strict = h.strength === "strong" && !h.prose ? "strong" : "weak";
    // An assignment of its own (`=NAME=value`) is no value alone.
    return ok(m[2]!, strict) && !UUID.test(m[2]!) && !/=[^=]/.test(m[2]!) ? [start, start + m[2]!.length] : null;
  }
  return null;
}

/** A line's cells split at `sep`, with their offsets in the line (a Markdown row's outer bars give empty cells). */
function cells(line: string, sep: string): Array<{ at: number; cell: string }> {
  const out: Array<{ at: number; cell: string }> = [];
  let at = 0;
  for (const cell of line.split(sep)) {
    out.push({ at, cell });
    at += cell.length + sep.length;
  }
  return out;
}

/**
 * A header whose cell is the hit's name (a CSV's, a Markdown or tab-separated table's, three cells
 * or more): that column's values in the rows below with as many cells (a Markdown rule `|---|` skipped).
 */
function column(text: string, h: Hit, found: Array<[number, number]>, ok: ValueTest): void {
  const from = text.lastIndexOf("\n", h.end - 1) + 1;
  const to = text.indexOf("\n", h.end);
  const twice = (c: string): boolean => {
    const a = text.indexOf(c, from);
    return a >= 0 && (to < 0 || a < to) && text.indexOf(c, a + 1) >= 0 && (to < 0 || text.indexOf(c, a + 1) < to);
  };
  if (to < 0 || !(twice(",") || twice("|") || twice("\t"))) return;
  const header = text.slice(from, to).replace(/\r$/, "");
  const sep = [",", "|", "\t"].find((x) => header.split(x).length >= 3);
  if (sep === undefined) return;
  const hs = cells(header, sep);
  const index = hs.findIndex((c) => from + c.at <= h.end && h.end <= from + c.at + c.cell.length);
  if (index < 0 || !/^[\s"'`]*[^\s"'`]+[\s"'`]*$/.test(hs[index]!.cell)) return;
  let at = to;
  for (let row = 0; row < 200 && at >= 0; row++) {
    const next = text.indexOf("\n", at + 1);
    const line = text.slice(at + 1, next < 0 ? text.length : next).replace(/\r$/, "");
    if (/^[\s|:-]+$/.test(line) && line.includes("-")) {
      at = next;
      continue;
    }
    const cs = cells(line, sep);
    if (cs.length !== hs.length) return;
    const c = cs[index]!;
    const lead = c.cell.length - c.cell.replace(/^[\s"']+/, "").length;
    const v = c.cell.trim().replace(/^["']|["']$/g, "");
    if (ok(v, "strong")) found.push([at + 1 + c.at + lead, at + 1 + c.at + lead + v.length]);
    at = next;
  }
}

/** Every value a secret's name or word tells, as spans of `text`. */
export function scanContext(text: string, ok: ValueTest, lower = text.toLowerCase()): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const h of hits(text, lower)) {
    // A weak word of prose ("the key is …") tells nothing; a line that says hash or id is read no further.
    column(text, h, found, ok);
    const same = sameLine(text, h, ok);
    if (same !== null) found.push(same);
    else if (!h.prose || h.strength === "strong") {
      const next = nextLine(text, h, ok);
      if (next !== null) found.push(next);
      else if ((!h.prose || text[h.start - 1] === "[") && familyOn("lines")) blockValues(text, h.start, h.end, h.strength, ok, found);
    }
  }
  // Places that tell a secret with no word (a user's password pair, a client's arguments): context-positions.ts.
  positionalValues(text, lower, found, ok);
  // Two hits may tell the same value (`Credentials::new(…, "…")` holds two names): each span once.
  return found.filter(([s, e], i) => found.findIndex(([a, b]) => a === s && b === e) === i);
}

/**
 * The witness's value test: what every value the rule's test (contextValue) takes holds, with no
 * import of the rules' shapes (the hook's capture part loads this file, not the redactor's): 8 to
 * 300 characters, and a digit or sixteen letters and digits (a generated key of letters, a UUID).
 */
export function maybeValue(v: string): boolean {
  if (v.length < 8 || v.length > 300) return false;
  let alnum = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) alnum++;
  }
  return alnum >= 16;
}

/** The pre-filter's witness for the rule: the same scan with the relaxed value test (a superset of the rule's findings). */
export function contextSecretWitness(text: string, lower?: string): boolean {
  return scanContext(text, maybeValue, lower).length > 0;
}
