import type { AnswerTable } from "./answer-table.js";
import { cutFor, type Cuts, isYes } from "./cuts.js";

/**
 * Three-valued answers: yes, no, or unknown (null: the answer is missing or unscored).
 * Composers combine them with Kleene's strong logic, so a verdict is given only when every
 * value the unknown answers could take leads to the same verdict; otherwise it is null.
 * That is what "never a guess" means here: a missing answer makes a composition null
 * exactly when the composition needs it.
 *
 * Example: `or([true, null])` → true; `or([false, null])` → null; `and([false, null])` → false.
 */
export type Tri = boolean | null;

export function tri(table: AnswerTable, id: string, cuts: Cuts): Tri {
  const p = table.get(id);
  if (p === undefined || p === null || !Number.isFinite(p)) return null;
  return isYes(p, cutFor(id, cuts));
}

export function or(xs: readonly Tri[]): Tri {
  if (xs.some((x) => x === true)) return true;
  return xs.some((x) => x === null) ? null : false;
}

export function and(xs: readonly Tri[]): Tri {
  if (xs.some((x) => x === false)) return false;
  return xs.some((x) => x === null) ? null : true;
}

export function not(x: Tri): Tri {
  return x === null ? null : !x;
}
