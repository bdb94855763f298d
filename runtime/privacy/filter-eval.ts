/**
 * Evaluates a betterleaks filter tree (filter-expr.ts) on one finding: true means the rule's
 * upstream discards it (its secret is a placeholder, too regular, a documented example, …).
 * The functions do what betterleaks' own do (its `internal/exprruntime`): `entropy` is Shannon
 * entropy over the secret's bytes, `containsAny` searches the lower-cased text for any term,
 * `matchesAny` is true when any pattern matches, `findMatch` gives the first match or "".
 * Patterns are compiled on first use and kept with their tree.
 *
 * Example: with `finding = { secret: "aaaaaaaaaaaa", … }`, the tree of
 * `entropy(finding["secret"]) <= 3.5` -> true (discarded).
 */
import type { Expr } from "./filter-expr.js";
import type { JsPattern } from "./rules-toml.js";

/** What a filter reads of a finding (betterleaks' names; offsets into `fragment_raw`). */
export interface Finding {
  secret: string;
  match: string;
  line: string;
  fragment_raw: string;
  match_start_idx: number;
  match_end_idx: number;
  match_line_start_idx: number;
  match_line_end_idx: number;
}

type Value = string | number | boolean | null | Value[] | RegExp[];

const compiled = new WeakMap<JsPattern[], RegExp[]>();
function regexes(list: JsPattern[]): RegExp[] {
  let r = compiled.get(list);
  if (r === undefined) compiled.set(list, (r = list.map((p) => new RegExp(p.src, p.flags))));
  return r;
}

const str = (v: Value): string => (typeof v === "string" ? v : v === null ? "" : String(v));
const num = (v: Value): number => (typeof v === "number" ? v : Number(v));

/** Whether the filter discards the finding. */
export function filterDiscards(e: Expr, f: Finding): boolean {
  return evalExpr(e, f, new Map()) === true;
}

function evalExpr(e: Expr, f: Finding, env: Map<string, Value>): Value {
  switch (e.k) {
    case "or":
      return evalExpr(e.a, f, env) === true || evalExpr(e.b, f, env) === true;
    case "and":
      return evalExpr(e.a, f, env) === true && evalExpr(e.b, f, env) === true;
    case "not":
      return evalExpr(e.a, f, env) !== true;
    case "coalesce": {
      const a = evalExpr(e.a, f, env);
      return a === null ? evalExpr(e.b, f, env) : a;
    }
    case "add": {
      const a = evalExpr(e.a, f, env);
      const b = evalExpr(e.b, f, env);
      return typeof a === "number" && typeof b === "number" ? a + b : str(a) + str(b);
    }
    case "sub":
      return num(evalExpr(e.a, f, env)) - num(evalExpr(e.b, f, env));
    case "neg":
      return -num(evalExpr(e.a, f, env));
    case "cmp": {
      const a = evalExpr(e.a, f, env);
      const b = evalExpr(e.b, f, env);
      switch (e.op) {
        case "==":
          return a === b;
        case "!=":
          return a !== b;
        case "<":
          return num(a) < num(b);
        case "<=":
          return num(a) <= num(b);
        case ">":
          return num(a) > num(b);
        case ">=":
          return num(a) >= num(b);
      }
      return false;
    }
    case "str":
    case "num":
    case "bool":
      return e.v;
    case "nil":
    case "attrs":
    case "attr":
      // The redactor sees text, not files: no attribute (a path) is known.
      return null;
    case "list":
      return e.items.map((x) => evalExpr(x, f, env));
    case "regexes":
      return regexes(e.list);
    case "field": {
      const v = (f as unknown as Record<string, string | number | undefined>)[e.name];
      return v === undefined ? null : v;
    }
    case "var":
      return env.get(e.name) ?? null;
    case "let": {
      const inner = new Map(env);
      inner.set(e.name, evalExpr(e.value, f, env));
      return evalExpr(e.body, f, inner);
    }
    case "slice": {
      const s = str(evalExpr(e.of, f, env));
      const from = e.from === null ? 0 : Math.max(0, num(evalExpr(e.from, f, env)));
      const to = e.to === null ? s.length : Math.min(s.length, num(evalExpr(e.to, f, env)));
      return s.slice(from, Math.max(from, to));
    }
    case "call":
      return call(e.fn, e.args.map((x) => evalExpr(x, f, env)));
  }
}

function call(fn: string, args: Value[]): Value {
  const [a, b, c] = args;
  switch (fn) {
    case "entropy":
      return byteEntropy(str(a ?? null));
    case "len":
      return str(a ?? null).length;
    case "max":
      return Math.max(num(a ?? null), num(b ?? null));
    case "min":
      return Math.min(num(a ?? null), num(b ?? null));
    case "get":
      // get(attributes, "path", default): no attribute is known.
      return c ?? null;
    case "matchesAny": {
      const s = str(a ?? null);
      return Array.isArray(b) && (b as RegExp[]).some((re) => re instanceof RegExp && re.test(s));
    }
    case "findMatch": {
      const s = str(a ?? null);
      const re = Array.isArray(b) ? (b as RegExp[])[0] : undefined;
      return re instanceof RegExp ? (re.exec(s)?.[0] ?? "") : "";
    }
    case "containsAny": {
      const lower = str(a ?? null).toLowerCase();
      return Array.isArray(b) && b.some((t) => typeof t === "string" && t !== "" && lower.includes(t));
    }
  }
  return null;
}

/**
 * Shannon entropy in bits per byte of the UTF-8 text, as betterleaks computes it (per character
 * for ASCII, as gitleaks.ts's shannonEntropy; written again here so this file needs nothing of it).
 */
function byteEntropy(s: string): number {
  const bytes = Buffer.from(s, "utf8");
  if (bytes.length === 0) return 0;
  const counts = new Map<number, number>();
  for (const b of bytes) counts.set(b, (counts.get(b) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / bytes.length;
    h -= p * Math.log2(p);
  }
  return h;
}
