/**
 * The reader of gitleaks' and betterleaks' rule files (`config/gitleaks.toml`,
 * `config/betterleaks.toml`: both written by their projects' generators in one regular layout)
 * and the rewriting of their Go RE2 patterns into JavaScript's. Shared by
 * scripts/import-gitleaks-rules.js (gitleaks' data, kept in the repository) and
 * betterleaks-convert.ts (betterleaks' rules, converted at run time from a file the user
 * points Errata at: `errata secrets rules import`).
 *
 * Why a small reader and not a TOML parser: no TOML parser is a dependency, and both files
 * use a fixed subset (tables `[[rules]]`, `[[rules.allowlists]]`, `[[rules.required]]`,
 * `[allowlist]`; `key = value` with strings, '''literal''' strings (one line or several),
 * numbers, booleans and arrays of strings). Anything else is an error naming its line.
 *
 * Example: `readRuleToml("[[rules]]\nid = \"x\"\nregex = '''ab+'''\n")`
 * -> `{ top: {}, rules: [{ id: "x", regex: "ab+", allowlists: [], required: [] }], allowlist: {} }`.
 */

export type TomlValue = string | number | boolean | string[];
export interface TomlTable {
  [key: string]: TomlValue | TomlTable[] | undefined;
}
export interface TomlRule extends TomlTable {
  allowlists: TomlTable[];
  required: TomlTable[];
}
export interface RuleToml {
  /** Keys before the first table (betterleaks' `title`, `prefilter`, `filter`). */
  top: TomlTable;
  rules: TomlRule[];
  /** gitleaks' global `[allowlist]`. */
  allowlist: TomlTable;
}

/** A line the reader cannot read: its number (1-based) and why. */
export class RuleTomlError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "RuleTomlError";
  }
}

function scalar(v: string, line: number): TomlValue {
  v = v.trim();
  if (v.startsWith("'''")) {
    const end = v.indexOf("'''", 3);
    if (end < 0) throw new RuleTomlError(line, "unclosed ''' string");
    return v.slice(3, end);
  }
  if (v.startsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      throw new RuleTomlError(line, `unreadable string ${v.slice(0, 40)}`);
    }
  }
  if (v.startsWith("'")) {
    const end = v.indexOf("'", 1);
    if (end < 0) throw new RuleTomlError(line, "unclosed ' string");
    return v.slice(1, end);
  }
  if (v === "true" || v === "false") return v === "true";
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  throw new RuleTomlError(line, `unexpected value ${v.slice(0, 40)}`);
}

function items(text: string): string[] {
  const out: string[] = [];
  const re = /'''([\s\S]*?)'''|"((?:[^"\\]|\\.)*)"|'([^'\n]*)'/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m[1] ?? m[3] ?? (JSON.parse(`"${m[2]}"`) as string));
  return out;
}

/** Reads the rule file's text; throws RuleTomlError on a line outside the layout. */
export function readRuleToml(text: string): RuleToml {
  const lines = text.split(/\r?\n/);
  const out: RuleToml = { top: {}, rules: [], allowlist: {} };
  let target: TomlTable = out.top;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("[")) {
      const lastRule = out.rules[out.rules.length - 1];
      if (line === "[[rules]]") out.rules.push((target = { allowlists: [], required: [] } as TomlRule));
      else if ((line === "[[rules.allowlists]]" || line === "[[rules.required]]") && lastRule !== undefined) {
        target = {};
        (line === "[[rules.allowlists]]" ? lastRule.allowlists : lastRule.required).push(target);
      } else if (line === "[allowlist]") target = out.allowlist;
      else throw new RuleTomlError(i + 1, `unexpected table ${line.slice(0, 40)}`);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0) throw new RuleTomlError(i + 1, `expected key = value, found ${line.slice(0, 40)}`);
    const key = line.slice(0, eq).trim();
    if (!/^[A-Za-z0-9_.-]+$/.test(key)) throw new RuleTomlError(i + 1, `unexpected key ${key.slice(0, 40)}`);
    let value = line.slice(eq + 1).trim();
    const at = i + 1;
    if (value.startsWith("[")) {
      while (!value.trimEnd().endsWith("]")) {
        if (++i >= lines.length) throw new RuleTomlError(at, "unclosed array");
        value += `\n${lines[i]}`;
      }
      target[key] = items(value.slice(1, value.lastIndexOf("]")));
    } else if (value.startsWith("'''") && value.indexOf("'''", 3) < 0) {
      // A literal string over several lines (betterleaks' filters): up to the closing '''.
      const parts = [value.slice(3)];
      for (;;) {
        if (++i >= lines.length) throw new RuleTomlError(at, "unclosed ''' string");
        const l = lines[i]!;
        const end = l.indexOf("'''");
        if (end >= 0) {
          parts.push(l.slice(0, end));
          break;
        }
        parts.push(l);
      }
      // TOML drops a newline right after the opening delimiter.
      target[key] = (parts[0] === "" ? parts.slice(1) : parts).join("\n");
    } else target[key] = scalar(value, at);
  }
  return out;
}

export interface JsPattern {
  src: string;
  flags: string;
}

/**
 * Go RE2 -> JavaScript source and flags, or throws when a construct is not handled: a leading
 * (?i) becomes the `i` flag, (?i:...) inside a case-sensitive pattern becomes letters in both
 * cases (so does the rest of a group after a mid-pattern (?i)), a case-insensitive pattern
 * with (?-i:...) parts becomes case-sensitive with the letters of everything outside those
 * parts doubled (JavaScript in Node 20 has no inline modifiers), (?s:.) becomes [\s\S] (also
 * quantified, (?s:.{0,24}?)), \z
 * becomes $, [[:alnum:]] becomes [A-Za-z0-9], and named groups (?P<name>...) become plain
 * groups (their names are labels, and a named group must not be taken for the secret).
 */
export function re2ToJs(go: string): JsPattern {
  let src = go.replaceAll("(?s:.)", "[\\s\\S]").replaceAll("[[:alnum:]]", "[A-Za-z0-9]").replaceAll("\\z", "$").replaceAll("(?P<", "(?<");
  // A dot-all group holding one quantified dot (betterleaks' `(?s:.{0,24}?)`).
  src = src.replace(/\(\?s:\.((?:\{\d*,?\d*\}|[*+?])\??)\)/g, "(?:[\\s\\S]$1)");
  let flags = "";
  if (src.startsWith("(?i)")) {
    flags = "i";
    src = src.slice(4);
  }
  // Names of groups are labels only; a named group must not be taken for the secret.
  src = src.replace(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g, "(?:");
  // A caseless pattern with case-sensitive parts, `(?-i:...)`: Node 20's RegExp has no inline
  // modifiers, so the whole pattern becomes case-sensitive with its caseless parts' letters
  // doubled (a plain group there was looser than gitleaks: its generic rule's `(?-i:[Aa]pi|API)`
  // then took "aPi" inside "ultraPictureBox1" for an API key name).
  if (flags === "i" && src.includes("(?-i:")) {
    flags = "";
    src = caseSensitive(`(?i)${src}`);
  } else if (flags === "i") src = src.replaceAll("(?i:", "(?:").replaceAll("(?i)", "");
  else src = caseSensitive(src);
  if (/\(\?[a-z-]+[:)]/.test(src)) throw new Error(`inline flags left in ${src.slice(0, 40)}`);
  new RegExp(src, `${flags}g`); // throws on anything JavaScript cannot compile
  return { src, flags };
}

/**
 * A case-sensitive pattern with case-insensitive parts: `(?i:...)` groups, and `(?i)` to the
 * end of its group, have their letters doubled; `(?-i:...)` inside them stays as it is.
 */
function caseSensitive(src: string): string {
  let out = "";
  let i = 0;
  let caseless = false;
  const saved: boolean[] = [];
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "\\") {
      out += src.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === "[") {
      const close = classEnd(src, i);
      const body = src.slice(i + 1, close);
      out += caseless ? `[${doubleClass(body)}]` : `[${body}]`;
      i = close + 1;
      continue;
    }
    if (src.startsWith("(?i)", i)) {
      caseless = true;
      i += 4;
      continue;
    }
    if (src.startsWith("(?i:", i) || src.startsWith("(?-i:", i)) {
      saved.push(caseless);
      caseless = src[i + 2] === "i";
      out += "(?:";
      i += src[i + 2] === "i" ? 4 : 5;
      continue;
    }
    if (ch === "(") {
      saved.push(caseless);
      out += ch;
      i++;
      continue;
    }
    if (ch === ")") {
      caseless = saved.pop() ?? false;
      out += ch;
      i++;
      continue;
    }
    if (ch === "{") {
      // a quantifier: copy it whole
      const close = src.indexOf("}", i);
      out += src.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    out += caseless && /[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch;
    i++;
  }
  return out;
}

function classEnd(src: string, open: number): number {
  let j = open + 1;
  if (src[j] === "^") j++;
  if (src[j] === "]") j++;
  while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
  return j;
}

/** A class body with every letter and letter range in both cases. */
function doubleClass(body: string): string {
  let extra = "";
  for (let j = 0; j < body.length; j++) {
    if (body[j] === "\\") {
      j++;
      continue;
    }
    const a = body[j]!;
    if (body[j + 1] === "-" && j + 2 < body.length && body[j + 2] !== "]") {
      const b = body[j + 2]!;
      if (/[a-z]/.test(a) && /[a-z]/.test(b)) extra += `${a.toUpperCase()}-${b.toUpperCase()}`;
      else if (/[A-Z]/.test(a) && /[A-Z]/.test(b)) extra += `${a.toLowerCase()}-${b.toLowerCase()}`;
      j += 2;
      continue;
    }
    if (/[a-z]/i.test(a)) extra += a === a.toLowerCase() ? a.toUpperCase() : a.toLowerCase();
  }
  return body + extra;
}
