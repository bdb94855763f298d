/**
 * Reading the model judge's per-class P(yes) for one exchange:
 * - `named`: the class with the largest P(yes) when it reaches the cut (ties to the earlier
 *   class in the list);
 * - `none`: every class below the cut (the judge names no failure);
 * - `unscored`: any class unanswered or unscored (never read as "no").
 *
 * Example: {classtier.fabrication: 0.8, classtier.off_topic: 0.6, others 0.1}, cut 0.5 →
 * {status: "named", class: "fabrication", p: 0.8}.
 */
export type ClassTierVerdict =
  | { status: "named"; class: string; p: number }
  | { status: "none"; pMax: number }
  | { status: "unscored"; reason: string };

export function classTierVerdict(
  pByClass: ReadonlyMap<string, number | null>,
  classIds: readonly string[],
  cut = 0.5,
): ClassTierVerdict {
  let best: { cls: string; p: number } | null = null;
  for (const c of classIds) {
    const p = pByClass.get(c);
    if (p === undefined) return { status: "unscored", reason: `no answer for class ${c}` };
    if (p === null) return { status: "unscored", reason: `the judge could not answer for class ${c}` };
    if (best === null || p > best.p) best = { cls: c, p };
  }
  if (best === null) return { status: "unscored", reason: "no classes" };
  return best.p >= cut ? { status: "named", class: best.cls, p: best.p } : { status: "none", pMax: best.p };
}
