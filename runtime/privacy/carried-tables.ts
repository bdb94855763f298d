/**
 * Secrets CARRIED in a table an export writes (issue 34, the eleventh held-out set): a header
 * that names its columns, one of them a secret's (`password`, `client_secret`, `API key secret`),
 * then rows; the value in that column of each row is the secret, whatever its shape. The forms
 * are a delimited file's (comma, semicolon, tab or bar, fields quoted or not, a quoted field
 * holding the delimiter), an SQL insert's column list and its value tuples, and a dump's column
 * list before its tab-separated rows (`COPY t (a, b) FROM stdin;`). No rule names a tool. A cell
 * of six characters or more, without spaces, with a digit or twelve characters or more: a
 * column's description in a document's table is prose, and a mask or a null is no value.
 *
 * Example: `tableSpans('"user","password"\n"bi","MzWx,pZd36"')` -> one span over `MzWx,pZd36`.
 */
import type { Span } from "./spans.js";

const KIND = "column-secret";
/** A column whose name says it holds a secret, not an id, a name, a hint or a date of one. */
const SECRET_COLUMN = /^(?:.*[\s_-])?(?:pass(?:wd|word)?|secret|token|api[\s_-]?key|private[\s_-]?key|pin|credential)s?$/i;
const NOT_SECRET_COLUMN = /(?:^|[\s_-])(?:id|name|type|url|hint|at|date|expires?|length|hash|count|ref)$/i;

interface Field {
  start: number;
  end: number;
  value: string;
}

/** The fields of one line from `a` to `z` split by `delim`, a field in double or single quotes holding it (its span is inside the quotes). */
function fields(text: string, a: number, z: number, delim: string): Field[] {
  const out: Field[] = [];
  let i = a;
  while (i <= z) {
    while (i < z && text[i] === " ") i++;
    const q = text[i];
    if ((q === '"' || q === "'") && i < z) {
      let j = i + 1;
      while (j < z && !(text[j] === q && text[j + 1] !== q)) j += text[j] === q || text[j] === "\\" ? 2 : 1;
      out.push({ start: i + 1, end: j, value: text.slice(i + 1, j) });
      const next = text.indexOf(delim, j + 1);
      i = next < 0 || next > z ? z + 1 : next + 1;
    } else {
      const next = text.indexOf(delim, i);
      const end = next < 0 || next > z ? z : next;
      out.push({ start: i, end, value: text.slice(i, end).trim() });
      i = end + 1;
    }
  }
  return out;
}

/** Whether a cell holds a value and not an empty one, a null, a mask or a marker. */
function filled(v: string): boolean {
  return v.length >= 6 && !/\s/.test(v) && !/^(?:null|\\n|none|n\/a|\*+|x+|-+)$/i.test(v) && !v.startsWith("[REDACTED:") && (/\d/.test(v) || v.length >= 12);
}

/** The lines of `text` from `at` on, as [start, end) pairs, up to a blank line or `max` lines. */
function linesFrom(text: string, at: number, max: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  while (at < text.length && out.length < max) {
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(at, end);
    if (line.trim() === "") break;
    out.push([at, end > at && text[end - 1] === "\r" ? end - 1 : end]);
    at = end + 1;
  }
  return out;
}

/** The secret columns' indices among `names`. */
const secretColumns = (names: readonly string[]): number[] =>
  names.flatMap((n, i) => {
    const name = n.trim().replace(/^[`"'[]|[`"'\]]$/g, "").trim();
    return SECRET_COLUMN.test(name) && !NOT_SECRET_COLUMN.test(name) ? [i] : [];
  });

/** Whether `text` may hold such a table: a column's name that says secret before or after a delimiter. */
export function mayHoldTable(text: string): boolean {
  return /(?:pass(?:wd|word)?|secret|token|key|pin|credentials?)["'`\]]?[ \t]*[,;\t|)\r\n]/i.test(text);
}

/** The secrets of `text`'s tables (see the top of this file), as spans over their cells. */
export function tableSpans(text: string): Span[] {
  if (!mayHoldTable(text)) return [];
  const out: Span[] = [];
  const add = (f: Field | undefined): void => {
    if (f !== undefined && filled(f.value)) out.push({ start: f.start, end: f.end, rank: 0, kind: KIND });
  };
  // An SQL insert's or a dump's column list, then its tuples or its tab-separated rows.
  for (const m of text.matchAll(/\b(?:INSERT\s+INTO|COPY)\s+[\w.`"]+\s*\(([^()\n]{3,400})\)\s*(VALUES\b|FROM\s+stdin;)/gi)) {
    const cols = secretColumns(m[1]!.split(","));
    if (cols.length === 0) continue;
    const after = m.index + m[0].length;
    if (m[2]!.toUpperCase().startsWith("VALUES")) {
      for (const t of text.slice(after, after + 20000).matchAll(/^\s*,?\s*\(((?:[^()'\n]|'(?:[^'\\]|''|\\.)*')*)\)\s*[,;]?/gm)) {
        const base = after + t.index + t[0].indexOf("(") + 1;
        const cells = fields(text, base, base + t[1]!.length, ",");
        for (const c of cols) add(cells[c]);
        if (t[0].trimEnd().endsWith(";")) break;
      }
    } else {
      for (const [a, z] of linesFrom(text, text.indexOf("\n", after) + 1, 500)) {
        if (text.startsWith("\\.", a)) break;
        const cells = fields(text, a, z, "\t");
        for (const c of cols) add(cells[c]);
      }
    }
  }
  // A delimited file: a header line whose fields name a secret, then rows with as many fields.
  for (const [a, z] of headerCandidates(text)) {
    const line = text.slice(a, z);
    const delim = [",", ";", "\t", "|"].find((d) => line.split(d).length >= 3) ?? null;
    if (delim === null) continue;
    // A lead-in before the header on its line ("here is the export: id,user,password") is no column's name.
    let lead = line.lastIndexOf(": ");
    if (lead >= 0 && line.slice(lead + 2).split(delim).length < 3) lead = -1;
    const names = fields(text, lead < 0 ? a : a + lead + 2, z, delim).map((f) => f.value);
    // A header names three columns or more, none empty and none holding a program's marks (a
    // list of strings in source code, one a line with a comma after each, is no header).
    if (names.length < 3 || names.some((n) => n === "" || n.length > 40 || /[:=(){}[\]<>]/.test(n))) continue;
    const cols = secretColumns(names);
    if (cols.length === 0) continue;
    for (const [ra, rz] of linesFrom(text, z + 1, 2000)) {
      const cells = fields(text, ra, rz, delim);
      if (cells.length !== names.length) break;
      for (const c of cols) add(cells[c]);
    }
  }
  return out;
}

/** The lines that may be a table's header: a delimiter and a column's name that says secret. */
function headerCandidates(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(/(?:pass(?:wd|word)?|secret|token|key|pin|credentials?)["'`]?[ \t]*(?:[,;\t|]|\r?$)/gim)) {
    const a = text.lastIndexOf("\n", m.index) + 1;
    const nl = text.indexOf("\n", m.index);
    const z = nl < 0 ? text.length : nl > 0 && text[nl - 1] === "\r" ? nl - 1 : nl;
    if (out.length > 0 && out[out.length - 1]![0] === a) continue;
    out.push([a, z]);
  }
  return out;
}
