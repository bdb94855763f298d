/**
 * Secrets carried ENCODED (issue 34, the eleventh held-out set): a run of base64 or hex is
 * decoded where the decoded bytes or the text around the run tell a secret, and the whole run is
 * replaced. Three forms, none naming a provider or a tool:
 * - base64 (standard or URL-safe, 24 characters or more) whose decoded head is a private key's PEM
 *   line, a secret's name given a value (`"refresh_token":"`, `PASSWORD=`), or a URL's user and
 *   colon (`postgresql://app:`): what follows the head is the secret, whether or not it decodes
 *   to text;
 * - hex (16 digits or more) of printable text with letters and digits, near a word that says
 *   secret (a password kept as hex so a shell does not eat its `$`);
 * - a run given to a decoder (a call whose name says decode or from-hex, a bytea's `'\x…'`) near
 *   a word that says secret, as bytes a program decodes there are a key (a golden digest is not:
 *   no such word).
 * "Near": on the run's line, the two before it or the one after it.
 *
 * Example: `encodedSpans("KEY_B64=LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0K…")` -> one span
 * over the base64 run, kind `decoded-secret`.
 */
import type { Span } from "./spans.js";

const KIND = "decoded-secret";
const SECRET_WORDS = /pass(?:wd|word|phrase)?|secret|(?<![a-z])key|_key|key_|token|credential|(?<![a-z])pw(?![a-z])|private|signing|hmac/i;
/** A word that says secret, or a camelCase name ending in one (`masterKey`). */
const SECRET_WORD = { test: (s: string): boolean => SECRET_WORDS.test(s) || /[a-z0-9](?:Key|Secret|Token|Password)\b/.test(s) };
const HEAD = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|^[ \t]*\{?[ \t]*["']?[\w.-]*(?:pass(?:wd|word)?|secret|token|key)["']?\s*[:=]|[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:/im;
const DECODER = /(?:decode\w*|fromhex\w*|unhex\w*|from_?hex|hex2bin|a2b_\w+|frombase64\w*|b64decode|parsehex\w*)[ \t]*\([ \t]*[@]?["'`]?$/i;

/** Whether a character code is printable ASCII. */
const printable = (c: number): boolean => c >= 0x20 && c <= 0x7e;

/** The lines around `start`: its own, the two before and the one after. */
function near(text: string, start: number, end: number): string {
  let a = start;
  for (let k = 0; k < 3 && a > 0; k++) a = text.lastIndexOf("\n", a - 2) + 1;
  let z = text.indexOf("\n", end);
  z = z < 0 ? text.length : text.indexOf("\n", z + 1);
  return text.slice(a, z < 0 ? text.length : z);
}

/** The decoded head of a base64 run as text (UTF-16LE when every other byte is zero), or null when it is no text. */
function base64Head(run: string): string | null {
  const bytes = Buffer.from(run.slice(0, 96).replace(/[^A-Za-z0-9+/_-]/g, "").slice(0, 96 - (Math.min(run.length, 96) % 4)), run.includes("-") || run.includes("_") ? "base64url" : "base64");
  let n = 0;
  while (n < bytes.length && (printable(bytes[n]!) || bytes[n] === 10 || bytes[n] === 13 || bytes[n] === 9)) n++;
  if (n < 12) return null;
  return bytes.subarray(0, n).toString("latin1");
}

/** Hex digits of printable text with letters and digits, decoded; null otherwise. */
function hexText(run: string): string | null {
  let out = "";
  for (let i = 0; i + 1 < run.length; i += 2) {
    const c = parseInt(run.slice(i, i + 2), 16);
    if (!printable(c)) return null;
    out += String.fromCharCode(c);
  }
  return /[A-Za-z]/.test(out) && /\d/.test(out) ? out : null;
}

/** Whether `text` may hold an encoded secret: a run of 16 hex digits or 24 base64 characters. */
export function mayHoldEncoded(text: string): boolean {
  // A hex run, or a base64 run with a digit and both cases in its first 24 characters (a path or a word's run has rarely all three).
  return text.length >= 16 && /[0-9a-fA-F]{16}|(?=[A-Za-z0-9+/_-]{0,23}\d)(?=[A-Za-z0-9+/_-]{0,23}[A-Z])(?=[A-Za-z0-9+/_-]{0,23}[a-z])[A-Za-z0-9+/_-]{24}/.test(text);
}

/** The encoded secrets of `text` (see the top of this file), as spans over their runs. */
export function encodedSpans(text: string): Span[] {
  if (!mayHoldEncoded(text)) return [];
  const out: Span[] = [];
  const add = (start: number, end: number): void => {
    out.push({ start, end, rank: 0, kind: KIND });
  };
  for (const m of text.matchAll(/(?<![A-Za-z0-9+/_-])(?:\\x)?[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const bytea = m[0].startsWith("\\x");
    const run = bytea ? m[0].slice(2) : m[0];
    const start = m.index + (bytea ? 2 : 0);
    const end = m.index + m[0].length;
    const isHex = /^(?:[0-9a-fA-F]{2}){8,}$/.test(run);
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const decoder = bytea || DECODER.test(before);
    if (isHex) {
      if (((decoder && run.length >= 32) || hexText(run) !== null) && SECRET_WORD.test(near(text, m.index, end))) add(start, end);
      continue;
    }
    if (run.length < 24) continue;
    const head = base64Head(run);
    if (head !== null && HEAD.test(head)) add(start, end);
    else if (decoder && /[0-9]/.test(run) && /[a-z]/.test(run) && /[A-Z]/.test(run) && SECRET_WORD.test(near(text, m.index, end))) add(start, end);
  }
  return out;
}
