/**
 * betterleaks' rule filters (`filter = '''…'''`: an expression language with `let`, slices and
 * raw `…` strings) as a tree the redactor evaluates (filter-eval.ts): a finding is discarded
 * when its rule's filter, or the file's global one, is true. This file reads an expression
 * once, when a rule file is imported (betterleaks-convert.ts); the tree is stored as JSON with
 * every regex already rewritten for JavaScript (rules-toml.ts), so the hook compiles no parser.
 *
 * What it reads, as betterleaks v1.7.0's rule file uses it: `||`, `&&`, `!`, `??`, comparisons,
 * `+` and `-`, `let name = …;`, `finding["…"]`, `attributes["…"]`, `s[a:b]`, lists, the
 * functions `entropy`, `matchesAny`, `containsAny`, `findMatch`, `len`, `max`, `min`, `get`
 * (each also as `filter.<name>`). Anything else (`failsTokenEfficiency`, which needs
 * betterleaks' tokenizer) is "unsupported": replaced by the constant that discards fewer
 * findings (false where the filter would discard on its truth, true under a `!`), so the rule
 * redacts more, never less; where no such constant exists (inside a comparison or an argument)
 * the whole filter is dropped, which also only redacts more. Each is reported.
 *
 * Example: `parseFilter('entropy(finding["secret"]) <= 3.5')`
 * -> `{ expr: { k: "cmp", op: "<=", a: { k: "call", fn: "entropy", args: [{ k: "field", name: "secret" }] }, b: { k: "num", v: 3.5 } }, unsupported: [] }`.
 */
import { re2ToJs, type JsPattern } from "./rules-toml.js";

export type Expr =
  | { k: "or" | "and" | "coalesce" | "add" | "sub"; a: Expr; b: Expr }
  | { k: "not" | "neg"; a: Expr }
  | { k: "cmp"; op: "<" | "<=" | ">" | ">=" | "==" | "!="; a: Expr; b: Expr }
  | { k: "str"; v: string }
  | { k: "num"; v: number }
  | { k: "bool"; v: boolean }
  | { k: "nil" }
  | { k: "list"; items: Expr[] }
  | { k: "regexes"; list: JsPattern[] }
  | { k: "call"; fn: FilterFunction; args: Expr[] }
  | { k: "field"; name: string }
  | { k: "attr"; name: string }
  | { k: "attrs" }
  | { k: "var"; name: string }
  | { k: "let"; name: string; value: Expr; body: Expr }
  | { k: "slice"; of: Expr; from: Expr | null; to: Expr | null };

export const FILTER_FUNCTIONS = ["entropy", "matchesAny", "containsAny", "findMatch", "len", "max", "min", "get"] as const;
export type FilterFunction = (typeof FILTER_FUNCTIONS)[number];

/** A parse: the tree (null when the whole filter had to be dropped) and what was not read. */
export interface ParsedFilter {
  expr: Expr | null;
  unsupported: string[];
}

type Tok = { t: "num"; v: number } | { t: "str"; v: string } | { t: "id"; v: string } | { t: "op"; v: string };

const OPS = ["||", "&&", "??", "<=", ">=", "==", "!=", "<", ">", "!", "+", "-", "(", ")", "[", "]", ",", ":", ";", "=", "."];

function tokens(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith("//", i)) {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(?:\.[0-9]+)?/.exec(src.slice(i))!;
      out.push({ t: "num", v: Number(m[0]) });
      i += m[0].length;
    } else if (c === "`") {
      const end = src.indexOf("`", i + 1);
      if (end < 0) throw new Error("unclosed ` string");
      out.push({ t: "str", v: src.slice(i + 1, end) });
      i = end + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let v = "";
      while (j < src.length && src[j] !== c) {
        if (src[j] === "\\") {
          const e = src[j + 1];
          const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'", "`": "`" };
          if (e !== undefined && simple[e] !== undefined) {
            v += simple[e];
            j += 2;
          } else if (e === "x" || e === "u") {
            const n = e === "x" ? 2 : 4;
            v += String.fromCharCode(parseInt(src.slice(j + 2, j + 2 + n), 16));
            j += 2 + n;
          } else throw new Error(`unknown escape \\${e ?? ""}`);
        } else v += src[j++];
      }
      if (j >= src.length) throw new Error(`unclosed ${c} string`);
      out.push({ t: "str", v });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ t: "id", v: m[0] });
      i += m[0].length;
    } else {
      const op = OPS.find((o) => src.startsWith(o, i));
      if (op === undefined) throw new Error(`unexpected character ${c}`);
      out.push({ t: "op", v: op });
      i += op.length;
    }
  }
  return out;
}

/** An expression the redactor cannot evaluate, kept in the tree until settled (settle below). */
type Raw = Expr | { k: "unsupported"; what: string };
type RawTree = Raw & { a?: RawTree; b?: RawTree };

class Parser {
  private i = 0;
  readonly unsupported: string[] = [];
  private readonly vars: string[] = [];
  constructor(private readonly toks: Tok[]) {}

  private peek(v: string): boolean {
    const t = this.toks[this.i];
    return t !== undefined && t.t === "op" && t.v === v;
  }
  private eat(v: string): void {
    if (!this.peek(v)) throw new Error(`expected ${v}, found ${this.describe()}`);
    this.i++;
  }
  private describe(): string {
    const t = this.toks[this.i];
    return t === undefined ? "the end" : String(t.v);
  }

  program(): Raw {
    if (this.toks[this.i]?.t === "id" && this.toks[this.i]!.v === "let") {
      this.i++;
      const name = this.toks[this.i++];
      if (name?.t !== "id") throw new Error("expected a name after let");
      this.eat("=");
      const value = this.or();
      this.eat(";");
      this.vars.push(name.v);
      const body = this.program();
      return { k: "let", name: name.v, value, body } as Raw;
    }
    const e = this.or();
    if (this.i < this.toks.length) throw new Error(`unexpected ${this.describe()}`);
    return e;
  }
  private binary(next: () => Raw, ops: string[], kind: (op: string) => Raw["k"]): Raw {
    let a = next();
    for (;;) {
      const op = ops.find((o) => this.peek(o));
      if (op === undefined) return a;
      this.i++;
      const b = next();
      const k = kind(op);
      a = (k === "cmp" ? { k, op, a, b } : { k, a, b }) as Raw;
    }
  }
  private or = (): Raw => this.binary(this.and, ["||"], () => "or");
  private and = (): Raw => this.binary(this.coalesce, ["&&"], () => "and");
  private coalesce = (): Raw => this.binary(this.cmp, ["??"], () => "coalesce");
  private cmp = (): Raw => this.binary(this.sum, ["<=", ">=", "==", "!=", "<", ">"], () => "cmp");
  private sum = (): Raw => this.binary(this.unary, ["+", "-"], (op) => (op === "+" ? "add" : "sub"));
  private unary = (): Raw => {
    if (this.peek("!")) {
      this.i++;
      return { k: "not", a: this.unary() } as Raw;
    }
    if (this.peek("-")) {
      this.i++;
      return { k: "neg", a: this.unary() } as Raw;
    }
    return this.postfix();
  };
  private postfix(): Raw {
    let e = this.primary();
    while (this.peek("[")) {
      this.i++;
      let from: Raw | null = null;
      if (!this.peek(":")) from = this.or();
      if (this.peek("]")) {
        this.i++;
        // An index: finding["secret"], attributes["path"].
        const isName = from !== null && from.k === "str";
        if (e.k === "var" && e.name === "finding" && isName) e = { k: "field", name: (from as { v: string }).v };
        else if (e.k === "attrs" && isName) e = { k: "attr", name: (from as { v: string }).v };
        else e = { k: "unsupported", what: "an index other than finding[…] or attributes[…]" };
        continue;
      }
      this.eat(":");
      const to = this.peek("]") ? null : this.or();
      this.eat("]");
      e = { k: "slice", of: e, from, to } as Raw;
    }
    return e;
  }
  private primary(): Raw {
    const t = this.toks[this.i++];
    if (t === undefined) throw new Error("unexpected end");
    if (t.t === "num") return { k: "num", v: t.v };
    if (t.t === "str") return { k: "str", v: t.v };
    if (t.t === "op" && t.v === "(") {
      const e = this.or();
      this.eat(")");
      return e;
    }
    if (t.t === "op" && t.v === "[") {
      const items: Raw[] = [];
      while (!this.peek("]")) {
        items.push(this.or());
        if (!this.peek("]")) this.eat(",");
      }
      this.eat("]");
      return { k: "list", items } as Raw;
    }
    if (t.t !== "id") throw new Error(`unexpected ${t.v}`);
    let name = t.v;
    if (name === "filter" && this.peek(".")) {
      this.i++;
      const m = this.toks[this.i++];
      if (m?.t !== "id") throw new Error("expected a name after filter.");
      name = m.v;
    }
    if (this.peek("(")) {
      this.i++;
      const args: Raw[] = [];
      while (!this.peek(")")) {
        args.push(this.or());
        if (!this.peek(")")) this.eat(",");
      }
      this.eat(")");
      return this.call(name, args);
    }
    if (name === "true" || name === "false") return { k: "bool", v: name === "true" };
    if (name === "nil") return { k: "nil" };
    if (name === "finding") return { k: "var", name };
    if (name === "attributes") return { k: "attrs" };
    if (this.vars.includes(name)) return { k: "var", name };
    return { k: "unsupported", what: `the name ${name}` };
  }
  private call(fn: string, args: Raw[]): Raw {
    if (!(FILTER_FUNCTIONS as readonly string[]).includes(fn)) return { k: "unsupported", what: `${fn}()` };
    // A regex list (matchesAny's second argument, findMatch's pattern) is rewritten now.
    const at = fn === "matchesAny" ? 1 : fn === "findMatch" ? 1 : -1;
    if (at >= 0) {
      const arg = args[at];
      const pats = arg?.k === "list" && arg.items.every((x) => x.k === "str") ? arg.items.map((x) => (x as { v: string }).v) : arg?.k === "str" ? [arg.v] : null;
      if (pats === null) return { k: "unsupported", what: `${fn}() with patterns that are not literals` };
      try {
        args[at] = { k: "regexes", list: pats.map((p) => re2ToJs(p)) };
      } catch (err) {
        return { k: "unsupported", what: `${fn}() with a pattern JavaScript cannot run (${(err as Error).message})` };
      }
    }
    return { k: "call", fn: fn as FilterFunction, args } as Raw;
  }
}

/**
 * The tree with each unsupported part replaced by the constant that discards fewer findings:
 * `polarity` 1 where the part's truth makes the filter discard, -1 under a `!`, 0 where no
 * constant is safe (a value, an argument): there it throws, and the filter is dropped.
 */
function settle(e: RawTree, polarity: 1 | -1 | 0, said: string[]): Expr {
  switch (e.k) {
    case "unsupported":
      said.push(e.what);
      if (polarity === 0) throw new Error(`${e.what} where no constant is safe`);
      return { k: "bool", v: polarity < 0 };
    case "or":
    case "and":
      return { k: e.k, a: settle(e.a, polarity, said), b: settle(e.b, polarity, said) };
    case "not":
      return { k: "not", a: settle(e.a, polarity === 0 ? 0 : polarity === 1 ? -1 : 1, said) };
    case "let":
      return { k: "let", name: e.name, value: settle(e.value as RawTree, 0, said), body: settle(e.body as RawTree, polarity, said) };
    case "coalesce":
    case "add":
    case "sub":
    case "cmp":
      return { ...e, a: settle(e.a, 0, said), b: settle(e.b, 0, said) } as Expr;
    case "neg":
      return { k: "neg", a: settle(e.a, 0, said) };
    case "list":
      return { k: "list", items: e.items.map((x) => settle(x as RawTree, 0, said)) };
    case "call":
      return { k: "call", fn: e.fn, args: e.args.map((x) => settle(x as RawTree, 0, said)) };
    case "slice":
      return { k: "slice", of: settle(e.of as RawTree, 0, said), from: e.from === null ? null : settle(e.from as RawTree, 0, said), to: e.to === null ? null : settle(e.to as RawTree, 0, said) };
    default:
      return e;
  }
}

/**
 * Reads one filter. Throws on text that is not an expression of this language at all (the
 * import then stops: a rule file that is not betterleaks' is bad input); an expression it
 * reads but cannot wholly evaluate comes back settled, with what it left out.
 */
export function parseFilter(src: string): ParsedFilter {
  const p = new Parser(tokens(src));
  const raw = p.program() as RawTree;
  const said: string[] = [];
  try {
    return { expr: settle(raw, 1, said), unsupported: said };
  } catch {
    return { expr: null, unsupported: said };
  }
}
