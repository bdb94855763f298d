/**
 * Values a program or a formula ASSEMBLES from pieces (issue 34, the eleventh held-out set): string
 * literals joined by an operator (`+ . .. ++ <> & // || ^ * ~`), written side by side, listed in a
 * join or concat call, filled into a format string (`%s`, `{}`, `%@`), char literals or char codes
 * (decimal or hex, in a bracketed list or as `chr(n)` calls), or variables holding literals joined
 * in a template (`"$a$b"`, `"${A}${B}"`, f"{a}{b}"). No rule names a language: the joiners are the
 * operators and verbs many languages share. Each value found is given as a synthetic line, the
 * text before it on its line (the assignment's name) and the joined value quoted, for the
 * redactor's ordinary rules to read (assembled.ts), with the places of its parts in the text.
 *
 * Example: `assembledValues('KEY = "ab12" + "cd34"')` -> one value whose line is `KEY = "ab12cd34"`
 * and whose parts are the two literals.
 */

/** A literal (or a char code) of the text: its span, quotes included, and its content. */
interface Piece {
  start: number;
  end: number;
  content: string;
}

/** One part of a joined value: where it sits in the text and which characters of the value it gave. */
export interface Part {
  start: number;
  end: number;
  from: number;
  to: number;
}

export interface Assembled {
  /** The synthetic line: what came before the value on its line, then the value quoted. */
  line: string;
  /** Where the value starts in `line` (each place it is written). */
  valueAt: number[];
  valueLength: number;
  parts: Part[];
  /** Whether the parts sit side by side (a chain: everything from the first part used to the last is redacted) or apart (variables). */
  chain: boolean;
}

/** Verbs that join their arguments or list (several languages, spreadsheets, SQL). */
const JOIN_VERBS = new Set([
  "join", "joined", "jointostring", "concat", "concat!", "paste", "paste0", "str", "append", "mkstring", "encodepacked", "format",
  "sprintf", "printf", "stringwithformat", "db", "dc", "string-append", "fromcharcode", "pack", "chars", "implode", "strcat",
]);
/** Words that may sit between two joined literals besides the verbs (a builder, a list, a cast). */
const GAP_WORDS = new Set([
  "string", "stringbuilder", "new", "tostring", "fmt", "nsstring", "abi", "seq", "listof", "list", "arrayof", "array", "of",
  "bytes", "char", "chr", "chrw", "builder", "std", "strings", "concatenate", "text",
]);
const MIN_VALUE = 10;

/** Whether `text` may hold an assembled value: a joiner between two quotes, two interpolations side by side, or a list of small numbers (one pass of a pattern). */
export function mayHoldAssembled(text: string): boolean {
  if (text.length < 16) return false;
  // An operator between quotes, quotes over a line break, a plus between backticks, a builder's
  // chained call; a join verb before a quote or after a list; single characters listed; a format
  // string before its arguments; a binary; templates of names; small numbers listed; char calls.
  // Quotes side by side (but after "=" or "[") or after a comma alone (a prose list, JSON) do
  // not open the reading.
  // Three patterns, each starting with a mark (a quote, a bracket, "$", "}"), so that the
  // engine skips to the marks; the verbs' pattern last (a pattern starting with a letter tries
  // every position: one such alternative cost the gate 2 M instructions on a real reply, cold).
  return (
    /["'](?:[ \t]*(?:[+.&|/^*~<>]{1,2})[ \t\r\n]*@?["']|[ \t]*\\?\r?\n[ \t]*@?["']|[ \t]*[\])]+[ \t]*\.[ \t]*(?:join|mkString|mkstring)|\)[ \t]*\.[ \t]*\w+\([ \t]*["'`]|[ \t]*,[ \t]*'.'[ \t]*,[ \t]*'.')|`(?:[ \t]*\+[ \t\r\n]*`|\)[ \t]*\.[ \t]*\w+\([ \t]*["'`])|[=[][ \t]*(["'])[^"'\n]*\1[ \t]+["']|<<[ \t]*["']|\$\{?\w+\}?\$|\}\{|%[sv@][^"'\n]*["'][ \t]*[, ]|\{\d*\}[^"'\n]*["'][ \t]*[, ]/.test(text) ||
    /[[({][ \t]*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})[ \t]*,[ \t]*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})[ \t]*,|\)[ \t]*&[ \t]*\w+\(\d/.test(text) ||
    /(?:[Jj]oin|[Cc]oncat|CONCAT|paste0?|str|append|strcat|implode|format|[Pp]rintf|[Pp]acked|WithFormat|db|[Ss]tring|STRING)!?[ \t]*[(\[{<:]*[ \t]*@?["'(]/.test(text)
  );
}


/**
 * The literals of `text` from `a` to `z`: quoted runs on one line (a backslash escapes), an
 * apostrophe after a letter or a digit being none (`don't`, `users'`; any character past Latin-1's
 * symbols counts as a letter: a Unicode class would cost its compile). Found by one pattern, not
 * read character by character: on the hook path the code runs interpreted, and a loop over a
 * long reply's characters cost some 30 M instructions (docs/privacy.md "Cost").
 */
function literals(text: string, a: number, z: number): Piece[] {
  const out: Piece[] = [];
  const re = /"((?:[^"\\\n]|\\.)*)"|(?<![A-Za-z0-9_\u00c0-\uffff])'((?:[^'\\\n]|\\.)*)'|`([^`\n]*)`/g;
  re.lastIndex = a;
  for (let m = re.exec(text); m !== null && m.index + m[0].length <= z; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, content: m[1] ?? m[2] ?? m[3]! });
  return out;
}

type Gap = "adjacent" | "operator" | "comma" | "call" | null;

/** What joins two pieces: the text between them, read as whitespace, one operator, a comma, or a join call's brackets. */
function gapKind(gap: string): Gap {
  if (gap.length > 48) return null;
  if (/\n[ \t]*\n/.test(gap)) return null;
  const bare = gap.replace(/\\\r?\n/g, " ").replace(/\s+/g, "");
  if (bare === "" || bare === "@") return "adjacent";
  // A dot with space after it only ends a sentence (`"x". "y"`); a program's is spaced on both sides or on neither.
  if (/^@?(?:\+\+?|\.\.?|<>|&|\/\/|\|\||\^|\*|~)@?$/.test(bare)) return bare === "." && /^\S*\.\s/.test(gap) ? null : "operator";
  if (/^[(\[{]*,[(\[{@]*$/.test(bare)) return "comma";
  const words = bare.toLowerCase().match(/[a-z][\w!-]*/g) ?? [];
  if (!/^[\w!.()[\]{},+&<>@$:-]+$/.test(bare) || words.length === 0) return null;
  if (!words.every((w) => JOIN_VERBS.has(w) || GAP_WORDS.has(w))) return null;
  return words.some((w) => JOIN_VERBS.has(w)) || /[+&]|<>|\|\|/.test(bare) ? "call" : null;
}

const FORMAT_MARK = /%[sv@d]|\{\d*\}/g;

/** Pieces side by side with their gaps: the joined value and its parts, or null when it is no value. */
function joinChain(chain: Piece[], gaps: Gap[]): { value: string; parts: Part[] } | null {
  const first = chain[0]!;
  const marks = chain.length >= 2 ? [...first.content.matchAll(FORMAT_MARK)] : [];
  const parts: Part[] = [];
  let value = "";
  const add = (p: Piece, s: string): void => {
    parts.push({ start: p.start, end: p.end, from: value.length, to: value.length + s.length });
    value += s;
  };
  if (marks.length > 0) {
    // A format string: the following pieces are its arguments, one per comma or space, joined within one by an operator.
    const args: Piece[][] = [];
    for (let k = 1; k < chain.length; k++) {
      if (args.length === 0 || gaps[k - 1] !== "operator") args.push([]);
      args[args.length - 1]!.push(chain[k]!);
    }
    let at = 0;
    marks.forEach((m, k) => {
      add(first, first.content.slice(at, m.index));
      for (const p of args[k] ?? []) add(p, p.content);
      at = m.index + m[0].length;
    });
    add(first, first.content.slice(at));
  } else for (const p of chain) add(p, p.content);
  return value.length >= MIN_VALUE ? { value, parts: parts.filter((p) => p.to > p.from) } : null;
}

/** The name a value at `at` is given to: the word before the last assignment mark on its line (or the line before, when the value opens a line), a typed name's (`KEY: &str =`), else the last word that is no join verb. */
function nameFor(text: string, at: number): string | null {
  let lineStart = text.lastIndexOf("\n", at - 1) + 1;
  let before = text.slice(lineStart, at);
  for (let k = 0; k < 2 && /^[\s([{]*$/.test(before) && lineStart > 0; k++) {
    lineStart = text.lastIndexOf("\n", lineStart - 2) + 1;
    before = text.slice(lineStart, at);
  }
  const ops = [...before.matchAll(/(?<![=!<>])(?::=|=>|<-|=(?!=))/g)];
  const last = ops[ops.length - 1];
  if (last !== undefined) {
    const head = before.slice(0, last.index);
    // The word before the mark, or a typed name's (`KEY: &str =`, `Pw : constant String :=`) when that one says secret and the other does not.
    const plain = /([A-Za-z_][\w.-]*)[^\w]*$/.exec(head)?.[1];
    const typed = /([A-Za-z_][\w-]*)[ \t]*:[^:=]*$/.exec(head)?.[1];
    const secretish = (w: string | undefined): boolean => w !== undefined && /pass|secret|key|token|pw|cred|auth|seed|salt/i.test(w);
    const near = [...head.slice(-48).matchAll(/[A-Za-z_][\w-]*/g)].map((m) => m[0]).filter(secretish);
    const word = secretish(plain) ? plain : typed !== undefined && secretish(typed) ? typed : (near[near.length - 1] ?? plain ?? typed);
    if (word !== undefined) return word;
  }
  const words = [...before.matchAll(/[A-Za-z_][\w-]*/g)].map((m) => m[0]).filter((w) => !JOIN_VERBS.has(w.toLowerCase()) && !GAP_WORDS.has(w.toLowerCase()));
  return words[words.length - 1] ?? null;
}

/**
 * The synthetic lines for a value at `at`: its name and the value quoted, as an assignment, and
 * the value alone on the next line (a value under a name that says no secret is read by the
 * shape of its own line, as the random-token rule reads one).
 */
function lineFor(text: string, at: number, value: string): Omit<Assembled, "parts" | "chain"> {
  const name = nameFor(text, at);
  const q = value.includes('"') ? "'" : '"';
  const head = name === null ? "" : `${name} = ${q}`;
  const line = name === null ? value : `${head}${value}${q}\n${value}`;
  return { line, valueAt: name === null ? [0] : [head.length, head.length + value.length + 2], valueLength: value.length };
}

/** Whether a chain with commas reads as a join: single characters, a format string, or a join verb before or after it. */
function joinedList(text: string, chain: Piece[], gaps: Gap[]): boolean {
  if (!gaps.includes("comma") || gaps.includes("call")) return true;
  const chars = chain.filter((p) => p.content !== "");
  if (chars.length >= 8 && chars.every((p) => p.content.length === 1)) return true;
  if (chain[0]!.content.match(FORMAT_MARK) !== null) return true;
  const start = chain[0]!.start;
  const end = chain[chain.length - 1]!.end;
  const before = text.slice(Math.max(0, start - 40), start).toLowerCase();
  const after = text.slice(end, end + 24).toLowerCase();
  // The last word before the list (past its brackets and one separator literal, `join("", [`) is a join verb, or the list is a binary (`<<`).
  const lastWord = /([a-z][\w!-]*)[ \t]*(?:[([{<:]+[ \t]*|[ \t]+)(?:(?:'[^']*'|"[^"]*")[ \t]*,[ \t]*)?[([{<@]*[ \t]*$/.exec(before)?.[1];
  if (lastWord !== undefined && JOIN_VERBS.has(lastWord.replace(/^-/, ""))) return true;
  return before.trimEnd().endsWith("<<") || /^[ \t)\]}]*\.[ \t]*(?:join|joined|jointostring|mkstring|concat)\b/.test(after);
}

/** Char codes in a bracketed list (eight or more, each 0-255) or as `chr(n)` calls joined by an operator: one piece each. */
function codeRuns(text: string): Piece[][] {
  const out: Piece[][] = [];
  // A list's start found by a short pattern, its numbers read by hand (a pattern counting seven
  // numbers or more backtracks at every bracket of a long text: 4 ms on a real reply, cold).
  for (const m of text.matchAll(/[[({][ \t]*(?=0x[0-9a-fA-F]|\d)/g)) {
    const pieces: Piece[] = [];
    let i = m.index + m[0].length;
    for (;;) {
      const n = /0x[0-9a-fA-F]{1,2}(?![0-9a-fA-F])|\d{1,3}(?!\d)/y;
      n.lastIndex = i;
      const d = n.exec(text);
      if (d === null) break;
      const code = Number(d[0]);
      if (code > 255) break;
      pieces.push({ start: i, end: i + d[0].length, content: String.fromCharCode(code) });
      i += d[0].length;
      while (text[i] === " " || text[i] === "\t") i++;
      if (text[i] !== ",") break;
      i++;
      while (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r") i++;
    }
    // A C string's terminating zero is no character of it.
    if (pieces.length > 0 && pieces[pieces.length - 1]!.content === "\0") pieces.pop();
    if (pieces.length >= 8) out.push(pieces);
  }
  const calls = /\b(?:chrw?|char)\$?\((\d{1,3})\)(?:[ \t]*(?:&|\+|\.)[ \t]*(?:chrw?|char)\$?\(\d{1,3}\)){7,}/gi;
  for (const m of text.matchAll(calls)) out.push([...m[0].matchAll(/\((\d{1,3})\)/g)].map((n) => ({ start: m.index + n.index, end: m.index + n.index + n[0].length, content: String.fromCharCode(Number(n[1])) })));
  return out;
}

/** Bytes as a value: printable text as it is, other bytes as hex. */
function codesValue(pieces: Piece[]): { value: string; parts: Part[] } | null {
  // Printable text as it is, unless it holds symbols a name's value rarely holds (the rules read such a key's bytes as hex).
  const printable = pieces.every((p) => /[A-Za-z0-9 +/=_.,:!?-]/.test(p.content));
  const parts: Part[] = [];
  let value = "";
  for (const p of pieces) {
    const s = printable ? p.content : p.content.charCodeAt(0).toString(16).padStart(2, "0");
    parts.push({ start: p.start, end: p.end, from: value.length, to: value.length + s.length });
    value += s;
  }
  return value.length >= MIN_VALUE ? { value, parts } : null;
}

/** Literals assigned to a plain name (`a = "…"`, `export A=…`, `a, b = "…", "…"`), by name. */
function assignedLiterals(text: string): Map<string, Piece> {
  const out = new Map<string, Piece>();
  const one = /(?:^|[\s;({,])(?:(?:export|let|const|val|var|private|local|my|set|final)\s+)*\$?([A-Za-z_]\w*)[ \t]*(?::=|=|[ \t])[ \t]*(?:(["'`])([^"'`\s]{4,})\2|([A-Za-z0-9+/_-]{8,})(?=[ \t]*(?:;|$)))/gm;
  for (const m of text.matchAll(one)) {
    const content = m[3] ?? m[4]!;
    const start = m.index + m[0].length - content.length - (m[2] === undefined ? 0 : 1);
    out.set(m[1]!, { start, end: start + content.length + (m[2] === undefined ? 0 : 2), content });
  }
  const pair = /\b([A-Za-z_]\w*)[ \t]*,[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*(["'])([^"'\s]{4,})\3[ \t]*,[ \t]*(["'])([^"'\s]{4,})\5/g;
  for (const m of text.matchAll(pair)) {
    const s1 = m.index + m[0].indexOf(m[3]! + m[4]!);
    const s2 = m.index + m[0].lastIndexOf(m[5]! + m[6]!);
    out.set(m[1]!, { start: s1, end: s1 + m[4]!.length + 2, content: m[4]! });
    out.set(m[2]!, { start: s2, end: s2 + m[6]!.length + 2, content: m[6]! });
  }
  return out;
}

/** Templates made only of two or more interpolated names that hold literals: the joined value, parts at the literals. */
function templateValues(text: string, lits: Piece[]): Assembled[] {
  const out: Assembled[] = [];
  const only = /^(?:\$\{?[A-Za-z_]\w*\}?|#?\{[A-Za-z_]\w*\})+$/;
  let vars: Map<string, Piece> | null = null;
  for (const t of lits) {
    if (!only.test(t.content)) continue;
    const names = [...t.content.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0]);
    if (names.length < 2) continue;
    vars ??= assignedLiterals(text);
    const pieces = names.map((n) => vars!.get(n));
    if (pieces.some((p) => p === undefined || p.start > t.start)) continue;
    const parts: Part[] = [];
    let value = "";
    for (const p of pieces as Piece[]) {
      parts.push({ start: p.start, end: p.end, from: value.length, to: value.length + p.content.length });
      value += p.content;
    }
    if (value.length >= MIN_VALUE) out.push({ ...lineFor(text, t.start, value), parts, chain: false });
  }
  return out;
}

/** The chains of pieces in `pieces` (sorted, apart): pieces joined by gaps that read as joiners. */
function chainsOf(text: string, pieces: Piece[]): Assembled[] {
  const out: Assembled[] = [];
  let k = 0;
  while (k < pieces.length) {
    const chain = [pieces[k]!];
    const gaps: Gap[] = [];
    while (k + 1 < pieces.length) {
      const g = gapKind(text.slice(pieces[k]!.end, pieces[k + 1]!.start));
      // Backticks side by side or in a list are Markdown's code spans, not a program's literals.
      // Backticks are joined by a plus only (a template or a raw string); side by side, in a list or after a dot they are Markdown's code spans.
      if (g === null || ((text[pieces[k]!.start] === "`" || text[pieces[k + 1]!.start] === "`") && !/^\s*\+\s*$/.test(text.slice(pieces[k]!.end, pieces[k + 1]!.start)))) break;
      gaps.push(g);
      chain.push(pieces[++k]!);
    }
    k++;
    if (chain.length < 2) continue;
    // A list that reads as no join (a call's arguments) is read as its comma-free runs (`f('NAME', 'a' . 'b')`).
    const runs: Array<[Piece[], Gap[]]> = [];
    if (joinedList(text, chain, gaps)) runs.push([chain, gaps]);
    else {
      let run: [Piece[], Gap[]] = [[chain[0]!], []];
      for (let i = 1; i < chain.length; i++) {
        if (gaps[i - 1] === "comma") {
          runs.push(run);
          run = [[chain[i]!], []];
        } else {
          run[0].push(chain[i]!);
          run[1].push(gaps[i - 1]!);
        }
      }
      runs.push(run);
    }
    for (const [c, g] of runs) {
      const j = c.length < 2 ? null : joinChain(c, g);
      if (j !== null) out.push({ ...lineFor(text, c[0]!.start, j.value), parts: j.parts, chain: true });
    }
  }
  return out;
}

/** A value split over numbered names on lines that follow each other (`PART1=…`, `PART2=…`): joined in their order. */
function splitValues(text: string): Assembled[] {
  const out: Assembled[] = [];
  const re = /^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*?)_?1[ \t]*[=:][ \t]*(["']?)([^\s"']{4,})\2[ \t]*\r?$/gm;
  for (const m of text.matchAll(re)) {
    const parts: Part[] = [];
    let value = "";
    let at = m.index;
    for (let n = 1; n <= 9; n++) {
      const line = new RegExp(`^[ \\t]*(?:export[ \\t]+)?${m[1]}_?${n}[ \\t]*[=:][ \\t]*(["']?)([^\\s"']{4,})\\1[ \\t]*\\r?$`, "my");
      line.lastIndex = at;
      const l = line.exec(text);
      if (l === null) break;
      const start = at + l[0].lastIndexOf(l[2]!);
      parts.push({ start, end: start + l[2]!.length, from: value.length, to: value.length + l[2]!.length });
      value += l[2]!;
      at += l[0].length + 1;
    }
    if (parts.length < 2 || value.length < MIN_VALUE) continue;
    const q = '"';
    const head = `${m[1]} = ${q}`;
    out.push({ line: `${head}${value}${q}\n${value}`, valueAt: [head.length, head.length + value.length + 2], valueLength: value.length, parts, chain: false });
  }
  return out;
}

/** Every assembled value of `text` (see the top of this file); none for most texts. */
export function assembledValues(text: string): Assembled[] {
  const split = text.includes("2=") || text.includes("2 =") || text.includes("2:") ? splitValues(text) : [];
  if (!mayHoldAssembled(text)) return split;
  const lits = literals(text, 0, text.length);
  const out = chainsOf(text, lits);
  // A literal holding quotes of another kind (a one-line program given to a command) is read inside too.
  for (const l of lits) if (l.content.length >= 24 && /["'`]/.test(l.content)) out.push(...chainsOf(text, literals(text, l.start + 1, l.end - 1)));
  out.push(...templateValues(text, lits));
  for (const run of codeRuns(text)) {
    const v = codesValue(run);
    if (v !== null) out.push({ ...lineFor(text, run[0]!.start, v.value), parts: v.parts, chain: true });
  }
  return [...out, ...split];
}
