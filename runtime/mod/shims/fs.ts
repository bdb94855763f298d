/**
 * node:fs for the mod's bundle: `readFileSync` over the classifier's files (its index and its
 * rule files), which the core reads through `$.fs.read` from mod/lang/ (the index once a
 * session, a language's rule file when the classifier first asks for it) and hands to
 * `provide`. A file not yet provided is refused with `NOT_READ` (the core reads it and runs the
 * classifier again: it is pure). The classifier reads its files as bytes, by offsets, with
 * Buffer's `toString(encoding, start, end)` and `indexOf`: `Bytes` gives those on a Uint8Array
 * (the mod's environment has no Buffer). The files are ASCII (`asciiJson` writes them), so a
 * byte offset is a character offset and `Bytes` keeps the text to answer from; other text is
 * encoded as UTF-8. The decoders are hand-written because the environment promises neither
 * `atob` nor `TextDecoder`.
 */
const files = new Map<string, Bytes>();

/** The code of the error `readFileSync` throws for a file the core has not provided yet (`file` names it). */
export const NOT_READ = "ERRATA_MOD_NOT_READ";

/** Makes `name` readable with the text read from the mod's folder. */
export function provide(name: string, text: string): void {
  files.set(name, Bytes.ofText(text));
}

/** True once `name` is provided. */
export const provided = (name: string): boolean => files.has(name);

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;

export function fromBase64(s: string): Uint8Array {
  const clean = s.replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const a = B64_VALUE[clean.charCodeAt(i)]!;
    const b = B64_VALUE[clean.charCodeAt(i + 1)]!;
    const c = i + 2 < clean.length ? B64_VALUE[clean.charCodeAt(i + 2)]! : 0;
    const d = i + 3 < clean.length ? B64_VALUE[clean.charCodeAt(i + 3)]! : 0;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = (n >> 16) & 255;
    if (i + 2 < clean.length) out[o++] = (n >> 8) & 255;
    if (i + 3 < clean.length) out[o++] = n & 255;
  }
  return out;
}

/**
 * UTF-8 bytes to a string, as TextDecoder (and Buffer) decode them: an ill-formed sequence's
 * maximal subpart becomes one U+FFFD.
 */
export function utf8(bytes: Uint8Array, from = 0, to = bytes.length): string {
  const parts: string[] = [];
  let s = "";
  for (let i = from; i < to; ) {
    const b = bytes[i]!;
    let need = 0;
    let cp = b;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) (need = 1), (cp = b & 0x1f);
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else if (b >= 0x80) {
      s += "\ufffd";
      i++;
      continue;
    }
    let k = 0;
    while (k < need && i + 1 + k < to) {
      const c = bytes[i + 1 + k]!;
      if (c < lo || c > hi) break;
      cp = (cp << 6) | (c & 0x3f);
      lo = 0x80;
      hi = 0xbf;
      k++;
    }
    s += k === need ? String.fromCodePoint(cp) : "\ufffd";
    i += 1 + k;
    if (s.length > 8192) {
      parts.push(s);
      s = "";
    }
  }
  parts.push(s);
  return parts.join("");
}

/** A string's UTF-8 bytes. */
export function utf8Bytes(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return Uint8Array.from(out);
}

/** The part of Buffer the classifier uses, on a Uint8Array: toString by range, indexOf of a byte or a string. */
export class Bytes extends Uint8Array {
  /** The text the bytes encode, when it is all ASCII (a byte offset is then a character offset). */
  ascii: string | null = null;

  /** The UTF-8 bytes of `text`, keeping the text itself when it is ASCII. */
  static ofText(text: string): Bytes {
    // eslint-disable-next-line no-control-regex
    const isAscii = /^[\x00-\x7f]*$/.test(text);
    const raw = isAscii ? null : utf8Bytes(text);
    const bytes = new Bytes(raw === null ? text.length : raw.length);
    if (raw !== null) bytes.set(raw);
    else {
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      bytes.ascii = text;
    }
    return bytes;
  }

  override toString(_encoding?: string, from = 0, to = this.length): string {
    const [a, b] = [Math.max(0, from), Math.min(this.length, to)];
    if (this.ascii !== null) return b > a ? this.ascii.slice(a, b) : "";
    return utf8(this, a, b);
  }
  override indexOf(value: number | string, from = 0): number {
    if (typeof value === "number") return super.indexOf(value, from);
    // eslint-disable-next-line no-control-regex
    if (this.ascii !== null && /^[\x00-\x7f]*$/.test(value)) return this.ascii.indexOf(value, Math.max(0, from));
    const needle = utf8Bytes(value);
    if (needle.length === 0) return Math.min(from, this.length);
    const first = needle[0]!;
    for (let i = super.indexOf(first, from); i >= 0 && i + needle.length <= this.length; i = super.indexOf(first, i + 1)) {
      let j = 1;
      while (j < needle.length && this[i + j] === needle[j]) j++;
      if (j === needle.length) return i;
    }
    return -1;
  }
}

export function readFileSync(name: string, encoding?: string): Bytes | string {
  const bytes = files.get(name);
  if (bytes === undefined) throw Object.assign(new Error(`${name} is not read yet (the mod reads the classifier's files through $.fs)`), { code: NOT_READ, file: name });
  return encoding === undefined ? bytes : bytes.toString(encoding);
}

function unavailable(name: string): never {
  throw new Error(`${name} is not available in the mod (files go through $.fs)`);
}
export const readdirSync = (): never => unavailable("readdirSync");
export const appendFileSync = (): never => unavailable("appendFileSync");
export const mkdirSync = (): never => unavailable("mkdirSync");
export const statSync = (): never => unavailable("statSync");
export const existsSync = (): boolean => false;
export default { readFileSync, readdirSync, appendFileSync, mkdirSync, statSync, existsSync };
