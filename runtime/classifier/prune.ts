/**
 * A regex cut down to one subject string before it is compiled. V8 builds a regex's
 * bytecode at its first use, and for the classifier's rules (hundreds of characters of
 * alternatives) that is most of what a hook process spends classifying a prompt that fires
 * rules. An alternative that needs a run of literal characters the subject does not hold can
 * match nowhere in it, so it is dropped (and an optional part or negative lookaround that can
 * match nowhere with it); what is left is often a small part of the whole, or nothing at all
 * ("cannot match": no regex is built).
 *
 * On that subject the cut regex matches exactly where the whole one does, at the same
 * positions with the same lengths: a dropped alternative fails at every position, and the
 * order of the ones kept is unchanged. Tests compare both on every rule.
 *
 * This is the classifier's one reader of regex syntax. It reads what the rules and the rating
 * and reply checks use: alternation, groups (a dropped part that holds capturing groups is
 * replaced by one that fails at once and keeps their numbers, `(?!)()`), lookarounds, classes,
 * escapes, quantifiers, anchors. Anything else (a named group, a back-reference, a `{` that is
 * no quantifier) makes `parseRegex` return null, and the caller compiles the whole regex. The
 * caller must not use the "i" flag (literals are compared as they are).
 *
 * The rule files (`lang/<code>.rules.tsv`, written with the index) keep every rule's regex
 * read into a compact tree (`parseRegex`, `compactTree`), so the hook neither reads the
 * language files nor parses a regex: it only walks the tree (`cutRegex`).
 *
 * Example: `cutRegex(compactTree(parseRegex("^(?:no|nope)\\s+(?:wrong|bad)")!), "no, bad")`
 * -> `"^(?:no)\\s+(?:bad)"`; with the subject "yes" -> null.
 */

/** Alternatives, in order. */
export interface RegexTree {
  seqs: Seq[];
}

interface Seq {
  items: Item[];
  /** Runs of literal characters every match of this alternative holds (may repeat). */
  needs: string[];
}

type Item = Leaf | Group;

interface Leaf {
  kind: "leaf";
  /** The item's source, without its quantifier. */
  src: string;
  /** The one literal character it matches, or null (a class, an escape class, an anchor). */
  lit: string | null;
  q: Quantifier | null;
}

interface Group {
  kind: "group";
  /** "(?:", "(?=", "(?!", "(?<=" or "(?<!". */
  open: string;
  body: RegexTree;
  q: Quantifier | null;
}

interface Quantifier {
  src: string;
  min: number;
}

class Unsupported extends Error {}

const GROUP_OPENS = ["(?:", "(?<=", "(?<!", "(?=", "(?!"] as const;
/** What stands for a part that can match nowhere but holds capturing groups: fails at once, and keeps the groups' numbers. */
const NEVER = "(?!)";
/** Escapes that stand for a class of characters or an assertion, not for one character. */
const CLASS_ESCAPES = "dDsSwWbB";
const CONTROL_ESCAPES: Record<string, string> = { t: "\t", n: "\n", r: "\r", f: "\f", v: "\v" };

/** The regex's tree, or null when it uses syntax this reader does not take apart. */
export function parseRegex(source: string): RegexTree | null {
  const p = { s: source, i: 0 };
  try {
    const tree = parseAlternatives(p);
    return p.i === source.length ? tree : null;
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

interface Cursor {
  s: string;
  i: number;
}

function parseAlternatives(p: Cursor): RegexTree {
  const seqs = [parseSeq(p)];
  while (p.s[p.i] === "|") {
    p.i++;
    seqs.push(parseSeq(p));
  }
  return { seqs };
}

function parseSeq(p: Cursor): Seq {
  const items: Item[] = [];
  while (p.i < p.s.length && p.s[p.i] !== "|" && p.s[p.i] !== ")") items.push(parseItem(p));
  return { items, needs: literalRuns(items) };
}

function parseItem(p: Cursor): Item {
  const { s } = p;
  const c = s[p.i]!;
  if (c === "(") {
    const open = GROUP_OPENS.find((o) => s.startsWith(o, p.i)) ?? (s[p.i + 1] === "?" ? undefined : "(");
    if (open === undefined) throw new Unsupported("named group or unknown (? syntax");
    p.i += open.length;
    const body = parseAlternatives(p);
    if (s[p.i] !== ")") throw new Unsupported("unclosed group");
    p.i++;
    const q = parseQuantifier(p);
    if (q !== null && open !== "(?:" && open !== "(") throw new Unsupported("quantified lookaround");
    return { kind: "group", open, body, q };
  }
  const start = p.i;
  let lit: string | null = null;
  let assertion = false;
  if (c === "[") {
    p.i++;
    if (s[p.i] === "^") p.i++;
    while (p.i < s.length && s[p.i] !== "]") p.i += s[p.i] === "\\" ? 2 : 1;
    if (p.i >= s.length) throw new Unsupported("unclosed class");
    p.i++;
  } else if (c === "\\") {
    const e = s[p.i + 1];
    if (e === undefined) throw new Unsupported("trailing backslash");
    if (CLASS_ESCAPES.includes(e)) {
      assertion = e === "b" || e === "B";
      p.i += 2;
    } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(s.slice(p.i + 2, p.i + 6))) {
      lit = String.fromCharCode(parseInt(s.slice(p.i + 2, p.i + 6), 16));
      p.i += 6;
    } else if (e === "x" && /^[0-9a-fA-F]{2}$/.test(s.slice(p.i + 2, p.i + 4))) {
      lit = String.fromCharCode(parseInt(s.slice(p.i + 2, p.i + 4), 16));
      p.i += 4;
    } else if (CONTROL_ESCAPES[e] !== undefined) {
      lit = CONTROL_ESCAPES[e] as string;
      p.i += 2;
    } else if (/[0-9A-Za-z]/.test(e)) {
      throw new Unsupported(`escape \\${e}`);
    } else {
      lit = e;
      p.i += 2;
    }
  } else if (c === "^" || c === "$") {
    assertion = true;
    p.i++;
  } else if (c === "*" || c === "+" || c === "?" || c === "{") {
    throw new Unsupported(`${c} with nothing to repeat`);
  } else {
    lit = c === "." ? null : c;
    p.i++;
  }
  const src = s.slice(start, p.i);
  const q = parseQuantifier(p);
  if (q !== null && assertion) throw new Unsupported("quantified assertion");
  return { kind: "leaf", src, lit, q };
}

function parseQuantifier(p: Cursor): Quantifier | null {
  const { s } = p;
  const start = p.i;
  const c = s[p.i];
  let min: number;
  if (c === "*" || c === "?") min = 0;
  else if (c === "+") min = 1;
  else if (c === "{") {
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(s.slice(p.i, p.i + 24));
    if (m === null) throw new Unsupported("{ that is no quantifier");
    min = Number(m[1]);
    p.i += m[0].length - 1;
  } else return null;
  p.i++;
  if (s[p.i] === "?") p.i++;
  return { src: s.slice(start, p.i), min };
}

/** The runs of literal characters a match of `items` holds, in order. */
function literalRuns(items: readonly Item[]): string[] {
  const runs: string[] = [];
  let run = "";
  const end = (): void => {
    if (run !== "") runs.push(run);
    run = "";
  };
  for (const item of items) {
    if (item.kind === "leaf" && item.lit !== null) {
      if (item.q === null) run += item.lit;
      else if (item.q.min === 0) end();
      else {
        // "no+": "no" is there; what follows comes after the last "o".
        run += item.lit;
        end();
        run = item.lit;
      }
    } else end();
  }
  end();
  // A run inside another says nothing more.
  return runs.filter((r, k) => !runs.some((o, j) => j !== k && o.length >= r.length && o.includes(r) && (o.length > r.length || j < k)));
}

/**
 * A tree as the rule files keep it (JSON): its alternatives, each `[needs, ...pieces]`, where
 * `needs` are the runs of literal characters a match of the alternative holds and a piece is
 * either source text or a group `[open, quantifier, droppable, alternatives]` (droppable 1: a
 * negative lookaround, or a group that may be taken zero times).
 */
export type CutTree = CutSeq[];
export type CutSeq = [string[], ...CutPiece[]];
export type CutPiece = string | [string, string, 0 | 1, CutTree];

/** The tree in its compact form (adjacent source pieces joined). */
export function compactTree(tree: RegexTree): CutTree {
  return tree.seqs.map((seq) => {
    const out: CutSeq = [seq.needs];
    let text = "";
    for (const item of seq.items) {
      const q = item.q === null ? "" : item.q.src;
      if (item.kind === "leaf") {
        text += item.src + q;
        continue;
      }
      if (text !== "") out.push(text);
      text = "";
      const droppable = item.open === "(?!" || item.open === "(?<!" || (item.q !== null && item.q.min === 0);
      out.push([item.open, q, droppable ? 1 : 0, compactTree(item.body)]);
    }
    if (text !== "") out.push(text);
    return out;
  });
}

/** The source a compact tree stands for (the regex as parsed). */
export function treeSource(tree: CutTree): string {
  let out = "";
  for (let a = 0; a < tree.length; a++) {
    if (a > 0) out += "|";
    const seq = tree[a]!;
    for (let k = 1; k < seq.length; k++) {
      const piece = seq[k] as CutPiece;
      out += typeof piece === "string" ? piece : `${piece[0]}${treeSource(piece[3])})${piece[1]}`;
    }
  }
  return out;
}

/**
 * The source of `tree` cut to what can match somewhere in `subject`, or null when nothing
 * can. With nothing to cut, the source is the whole one. With a `prefix`, the cut also holds
 * for any string made of `prefix` and a part of `subject` (`testNear`'s windows): a run with
 * a character of the prefix is never dropped.
 */
export function cutRegex(tree: CutTree, subject: string, prefix = ""): string | null {
  const seen = new Map<string, boolean>();
  const grouped = capturingGroupsIn(tree) > 0;
  return cutAlternatives(tree, grouped, (run) => {
    let v = seen.get(run);
    if (v === undefined) {
      v = subject.includes(run) || (prefix !== "" && sharesChar(run, prefix));
      seen.set(run, v);
    }
    return v;
  });
}

/** Whether `a` holds a character of `b`. */
function sharesChar(a: string, b: string): boolean {
  for (let i = 0; i < b.length; i++) if (a.includes(b.charAt(i))) return true;
  return false;
}

/** Capturing groups of a whole tree (counted once per tree: a rule's have none, and then no part is counted). */
const groupsByTree = new WeakMap<CutTree, number>();
function capturingGroupsIn(tree: CutTree): number {
  let n = groupsByTree.get(tree);
  if (n === undefined) {
    n = capturingGroupsOf(tree);
    groupsByTree.set(tree, n);
  }
  return n;
}

function cutAlternatives(tree: CutTree, grouped: boolean, holds: (run: string) => boolean): string | null {
  let out: string | null = null;
  let kept = false;
  for (let a = 0; a < tree.length; a++) {
    const seq = tree[a]!;
    let s = cutSeq(seq, grouped, holds);
    if (s !== null) kept = true;
    else {
      const groups = grouped ? capturingGroupsOf([seq]) : 0;
      if (groups === 0) continue;
      s = NEVER + "()".repeat(groups);
    }
    out = out === null ? s : `${out}|${s}`;
  }
  return kept ? out : null;
}

/** Capturing groups in a tree (they keep their numbers when a part is cut). */
function capturingGroupsOf(tree: CutTree): number {
  let n = 0;
  for (const seq of tree) {
    for (let k = 1; k < seq.length; k++) {
      const piece = seq[k] as CutPiece;
      if (typeof piece === "string") continue;
      if (piece[0] === "(") n++;
      n += capturingGroupsOf(piece[3]);
    }
  }
  return n;
}

function cutSeq(seq: CutSeq, grouped: boolean, holds: (run: string) => boolean): string | null {
  const needs = seq[0];
  for (let k = 0; k < needs.length; k++) if (!holds(needs[k]!)) return null;
  let out = "";
  for (let k = 1; k < seq.length; k++) {
    const piece = seq[k] as CutPiece;
    if (typeof piece === "string") {
      out += piece;
      continue;
    }
    const body = cutAlternatives(piece[3], grouped, holds);
    if (body !== null) out += `${piece[0]}${body})${piece[1]}`;
    // A negative lookaround that can match nowhere always holds; an optional group that can
    // match nowhere is taken zero times (its capturing groups kept, never set). Anything else
    // that can match nowhere sinks the whole.
    else if (piece[2] !== 1) return null;
    else if (grouped) {
      const groups = (piece[0] === "(" ? 1 : 0) + capturingGroupsOf(piece[3]);
      if (groups > 0) out += `(?:${NEVER}${"()".repeat(groups)})?`;
    }
  }
  return out;
}

/**
 * Uses of a regex cut to their subject before it is compiled whole: a process that
 * classifies one prompt (the hook's) never builds a whole rule regex; a long-lived one (a
 * daily run, `mine`) builds each once, after which a test costs less than a cut.
 */
export const CUT_USES = 2;

/**
 * A regex built on demand: its first `cutUses` uses run it cut to their subject, later ones
 * the whole regex, compiled once. `cutUses` 0 never cuts, Infinity always does (tests
 * compare the two).
 *
 * Example: `new SubjectRegex(compactTree(parseRegex("^(?:hmm+|ok)$")!), "").on("ok")?.source` -> `"^(?:ok)$"`.
 */
export class SubjectRegex {
  /** The whole regex, once compiled. */
  whole: RegExp | null = null;
  private uses = 0;

  constructor(
    readonly tree: CutTree,
    readonly flags: string,
    readonly cutUses: number = CUT_USES,
  ) {}

  /** The whole regex (compiled on first call). */
  compiled(): RegExp {
    this.whole ??= new RegExp(treeSource(this.tree), this.flags);
    return this.whole;
  }

  /** The regex to run on `subject`, or null when it cannot match there. */
  on(subject: string): RegExp | null {
    return this.onWindowsOf(subject, "");
  }

  /**
   * The regex to run on parts of `text` with `prefix` in front (or on `text` itself), or null
   * when it cannot match any of them.
   */
  onWindowsOf(text: string, prefix: string): RegExp | null {
    if (this.uses >= this.cutUses || (this.whole !== null && this.cutUses !== Infinity)) return this.compiled();
    this.uses++;
    const src = cutRegex(this.tree, text, prefix);
    return src === null ? null : new RegExp(src, this.flags);
  }
}
