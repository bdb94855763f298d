/**
 * A case-insensitive regex's source rewritten so that it matches the same strings without the
 * `i` flag: every literal character becomes the class of the characters the flag makes equal to
 * it, and every class is closed the same way. Used at build time (scripts/bundle-hook.js) for
 * the own rules whose long `i` patterns cost the most to compile in a fresh hook process: V8
 * computes a case-insensitive class's equivalents at each compile (docs/privacy.md "Cost"), here
 * they are computed once, when the bundle is built.
 *
 * Only for a pattern without the `u` or `v` flag (ECMAScript's Canonicalize for such a pattern:
 * a character equals another when both upper-case, as one code unit, to the same one, and a
 * character outside ASCII never equals one inside it; so `\w`, `\b` and `\d` keep their ASCII
 * meaning). A back-reference to a group whose text the flag could change, or a named
 * back-reference, gives null (the caller keeps the rule as it is). test/privacy/caseless.test.ts
 * compares every rewritten character set with the original one over all 65,536 code units.
 *
 * Example: `caselessSource("ab[c-d]")` -> `"[Aa][Bb][C-Dc-d]"`.
 */

/** Each code unit's canonical value under the `i` flag without `u` (ECMAScript Canonicalize). */
let canonTable: Uint16Array | undefined;
/** The code units of each canonical value that more than one code unit has. */
let classes: Map<number, number[]> | undefined;

function canon(): Uint16Array {
  if (canonTable !== undefined) return canonTable;
  const t = new Uint16Array(65536);
  const groups = new Map<number, number[]>();
  for (let c = 0; c < 65536; c++) {
    const u = String.fromCharCode(c).toUpperCase();
    const cu = u.length === 1 ? u.charCodeAt(0) : c;
    t[c] = c >= 128 && cu < 128 ? c : cu;
    const g = groups.get(t[c]!);
    if (g === undefined) groups.set(t[c]!, [c]);
    else g.push(c);
  }
  classes = new Map([...groups].filter(([, g]) => g.length > 1));
  canonTable = t;
  return t;
}

/** The code units the flag makes equal to `c` (`c` alone when none). */
function equals(c: number): number[] {
  const t = canon();
  return classes!.get(t[c]!) ?? [c];
}

/** A code unit as class text: an ASCII letter or digit as it is, anything else escaped (no character needs thought). */
const hex = (c: number): string => ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? String.fromCharCode(c) : c < 256 ? `\\x${c.toString(16).padStart(2, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`);

/** A set of code units as class ranges. */
function ranges(set: Set<number>): string {
  const sorted = [...set].sort((a, b) => a - b);
  let out = "";
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out += j === i ? hex(sorted[i]!) : `${hex(sorted[i]!)}-${hex(sorted[j]!)}`;
    i = j + 1;
  }
  return out;
}

const SINGLE_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/** The code unit an escape at `s[i]` (after the backslash) stands for, and its length; null for a class escape. */
function escapeChar(s: string, i: number, inClass: boolean): { c: number; len: number } | null {
  const e = s[i]!;
  if ("dDwWsS".includes(e)) return null;
  if (e === "b" && inClass) return { c: 8, len: 1 };
  if (e === "u" && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) return { c: parseInt(s.slice(i + 1, i + 5), 16), len: 5 };
  if (e === "x" && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) return { c: parseInt(s.slice(i + 1, i + 3), 16), len: 3 };
  if (e === "c" && /^[A-Za-z]$/.test(s[i + 1] ?? "")) return { c: s.charCodeAt(i + 1) % 32, len: 2 };
  if (e === "0" && !/[0-9]/.test(s[i + 1] ?? "")) return { c: 0, len: 1 };
  if (e in SINGLE_ESCAPES) return { c: SINGLE_ESCAPES[e]!, len: 1 };
  return { c: s.charCodeAt(i), len: 1 };
}

/**
 * The rewritten source, or null when the pattern holds something this rewrite does not take.
 * `onAtom` sees each character or class rewritten (its text before and after: both match one code unit).
 */
export function caselessSource(source: string, onAtom?: (before: string, after: string) => void): string | null {
  let out = "";
  let groups = 0;
  /** Capturing groups open now (their numbers), and the numbers of those whose text the flag could change. */
  const open: Array<number | null> = [];
  const changed = new Set<number>();
  const mark = (): void => {
    for (const g of open) if (g !== null) changed.add(g);
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === "\\") {
      const next = source[i + 1] ?? "";
      if (next === "k") return null;
      if (/[1-9]/.test(next)) {
        const n = Number(/^[0-9]+/.exec(source.slice(i + 1))![0]);
        if (n > groups || changed.has(n) || open.includes(n)) return null;
        out += `\\${n}`;
        i += 1 + String(n).length;
        continue;
      }
      const e = escapeChar(source, i + 1, false);
      if (e === null || next === "b" || next === "B") {
        out += source.slice(i, i + 2);
        i += 2;
        continue;
      }
      const eq = equals(e.c);
      if (eq.length > 1) {
        mark();
        onAtom?.(source.slice(i, i + 1 + e.len), `[${eq.map(hex).join("")}]`);
      }
      out += eq.length > 1 ? `[${eq.map(hex).join("")}]` : source.slice(i, i + 1 + e.len);
      i += 1 + e.len;
      continue;
    }
    if (ch === "[") {
      const cls = readClass(source, i);
      if (cls === null) return null;
      if (cls.changed) {
        mark();
        onAtom?.(source.slice(i, cls.end), cls.text);
      }
      out += cls.changed ? cls.text : source.slice(i, cls.end);
      i = cls.end;
      continue;
    }
    if (ch === "(") {
      if (source[i + 1] !== "?" || (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!")) open.push(++groups);
      else open.push(null);
      const head = /^\((?:\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>))?/.exec(source.slice(i))![0];
      out += head;
      i += head.length;
      continue;
    }
    if (ch === ")") {
      open.pop();
      out += ch;
      i++;
      continue;
    }
    if (ch === "{") {
      // A quantifier is kept as it is; a brace that is none is a literal, which has no case.
      const q = /^\{\d+(?:,\d*)?\}/.exec(source.slice(i));
      out += q === null ? ch : q[0];
      i += q === null ? 1 : q[0].length;
      continue;
    }
    if ("^$.|*+?}]".includes(ch)) {
      out += ch;
      i++;
      continue;
    }
    const eq = equals(source.charCodeAt(i));
    if (eq.length > 1) {
      mark();
      onAtom?.(ch, `[${eq.map(hex).join("")}]`);
    }
    out += eq.length > 1 ? `[${eq.map(hex).join("")}]` : ch;
    i++;
  }
  return out;
}

/** The class at `s[at]` ("["), closed under the flag's equalities. */
function readClass(s: string, at: number): { text: string; end: number; changed: boolean } | null {
  let i = at + 1;
  const negated = s[i] === "^";
  if (negated) i++;
  const set = new Set<number>();
  let kept = "";
  const items: number[] = [];
  while (i < s.length && s[i] !== "]") {
    let c: number;
    if (s[i] === "\\") {
      const e = escapeChar(s, i + 1, true);
      if (e === null) {
        kept += s.slice(i, i + 2);
        i += 2;
        continue;
      }
      c = e.c;
      i += 1 + e.len;
    } else c = s.charCodeAt(i++);
    // A range "a-b" (a "-" before "]" or after a class escape is a literal).
    if (s[i] === "-" && s[i + 1] !== "]" && i + 1 < s.length) {
      let d: number;
      if (s[i + 1] === "\\") {
        const e = escapeChar(s, i + 2, true);
        if (e === null) return null;
        d = e.c;
        i += 2 + e.len;
      } else {
        d = s.charCodeAt(i + 1);
        i += 2;
      }
      if (d < c) return null;
      for (let x = c; x <= d; x++) items.push(x);
      continue;
    }
    items.push(c);
  }
  if (s[i] !== "]") return null;
  if (items.length === 0 && kept === "") return { text: s.slice(at, i + 1), end: i + 1, changed: false };
  for (const c of items) for (const x of equals(c)) set.add(x);
  const changed = set.size !== new Set(items).size;
  return { text: `[${negated ? "^" : ""}${ranges(set)}${kept}]`, end: i + 1, changed };
}
