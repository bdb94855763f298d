import { EvalInputError } from "./errors.js";

/**
 * What a labelling sheet's answer column accepts. Bank questions are yes/no; corpus keys
 * are ratings ("satisfaction": 1-5) or categories ("breakdown": O|T|X, "class": a v3 class
 * id or "none").
 *
 * Example: `parseAnswerSpec("satisfaction:1-5")` → `{id: "satisfaction", kind: "rating", min: 1, max: 5}`;
 * `parseAnswer({id: "q", kind: "yesno"}, " Yes ")` → `{ok: true, value: true}`.
 */
export type AnswerSpec =
  | { id: string; kind: "yesno" }
  | { id: string; kind: "rating"; min: number; max: number }
  | { id: string; kind: "category"; values: string[] };

const ID = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)?$/;

/** `id` (yes/no), `id:1-5` (integer rating), or `id:A|B|C` (category). */
export function parseAnswerSpec(text: string): AnswerSpec {
  const [id = "", rest] = text.trim().split(/:(.*)/s, 2);
  if (!ID.test(id)) throw new EvalInputError("BAD_OPTION", "a question id", "lower-case id such as detect.unhappy", JSON.stringify(id));
  if (rest === undefined || rest === "") return { id, kind: "yesno" };
  const range = /^(-?\d+)-(-?\d+)$/.exec(rest);
  if (range) {
    const min = Number(range[1]);
    const max = Number(range[2]);
    if (min >= max) throw new EvalInputError("BAD_OPTION", `rating range of ${id}`, "min < max", rest);
    return { id, kind: "rating", min, max };
  }
  const values = rest.split("|").map((v) => v.trim()).filter((v) => v !== "");
  if (values.length < 2) throw new EvalInputError("BAD_OPTION", `categories of ${id}`, "two or more, separated by |", rest);
  return { id, kind: "category", values };
}

/** The text `parseAnswerSpec` reads back: `id`, `id:1-5` or `id:A|B|C`. */
export function specText(spec: AnswerSpec): string {
  if (spec.kind === "yesno") return spec.id;
  if (spec.kind === "rating") return `${spec.id}:${spec.min}-${spec.max}`;
  return `${spec.id}:${spec.values.join("|")}`;
}

export function describeSpec(spec: AnswerSpec): string {
  if (spec.kind === "yesno") return "yes or no";
  if (spec.kind === "rating") return `a whole number from ${spec.min} to ${spec.max}`;
  return `one of ${spec.values.join(", ")}`;
}

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);

/** Parses one answer cell (not blank) under its spec. */
export function parseAnswer(spec: AnswerSpec, cell: string): { ok: true; value: boolean | number | string } | { ok: false } {
  const t = cell.trim();
  if (spec.kind === "yesno") {
    const l = t.toLowerCase();
    return YES.has(l) ? { ok: true, value: true } : NO.has(l) ? { ok: true, value: false } : { ok: false };
  }
  if (spec.kind === "rating") {
    const n = Number(t);
    return t !== "" && Number.isInteger(n) && n >= spec.min && n <= spec.max ? { ok: true, value: n } : { ok: false };
  }
  const hit = spec.values.find((v) => v.toLowerCase() === t.toLowerCase());
  return hit !== undefined ? { ok: true, value: hit } : { ok: false };
}
