import { EvalInputError } from "./errors.js";

/** A label value: yes/no, a rating, or a category name (as in `schemas/label.ts`). */
export type LabelValue = boolean | number | string;

/**
 * A stable key for a label value, so `4` and `4.0` are one category and `"4"` (a string)
 * another. Example: `valueKey(true)` → "b:true"; `valueKey(4.0)` → "n:4".
 */
export function valueKey(v: LabelValue): string {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new EvalInputError("BAD_VALUE", "a label value", "a finite number", String(v));
    return `n:${v}`;
  }
  return typeof v === "boolean" ? `b:${v}` : `s:${v}`;
}

/**
 * The categories present in some units, in a stable order (numbers ascending, then false
 * before true, then strings in code-unit order), with an index per key.
 *
 * Example: `categoriesOf([[3, 1], [1, 2]]).values` → [1, 2, 3].
 */
export function categoriesOf(units: readonly (readonly LabelValue[])[]): { values: LabelValue[]; index: Map<string, number> } {
  const seen = new Map<string, LabelValue>();
  for (const u of units) for (const v of u) {
    const k = valueKey(v);
    if (!seen.has(k)) seen.set(k, v);
  }
  const rank = (v: LabelValue): number => (typeof v === "number" ? 0 : typeof v === "boolean" ? 1 : 2);
  const values = [...seen.values()].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== rb) return ra - rb;
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  });
  return { values, index: new Map(values.map((v, i) => [valueKey(v), i])) };
}

/** Per unit, the count of each category (length = number of categories). */
export function countsPerUnit(units: readonly (readonly LabelValue[])[], index: Map<string, number>): Float64Array[] {
  return units.map((u) => {
    const c = new Float64Array(index.size);
    for (const v of u) {
      const j = index.get(valueKey(v));
      if (j === undefined) throw new EvalInputError("BAD_VALUE", "a value among the categories", [...index.keys()].join(", "), valueKey(v));
      c[j] = (c[j]!) + 1;
    }
    return c;
  });
}
