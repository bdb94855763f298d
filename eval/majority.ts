import { valueKey, type LabelValue } from "./categories.js";

/**
 * The 2-of-3 majority of one item's labels: the value held by at least `minVotes` labels
 * (default 2) and by more labels than any other value.
 * - `majority`: that value, with its votes out of the labels given;
 * - `tie`: no such value (1-1 with a label missing, 1-1-1, 2-2): the tied values are
 *   reported and the item has no gold label, it is never counted as either side;
 * - `insufficient`: fewer labels than `minVotes`, or a single leader below `minVotes`.
 *
 * Example: `majorityVote([true, true, false])` → `{status: "majority", value: true, votes: 2, of: 3}`;
 * `majorityVote([1, 2, 3])` → `{status: "tie", values: [1, 2, 3], votes: 1, of: 3}`.
 */
export type MajorityResult =
  | { status: "majority"; value: LabelValue; votes: number; of: number }
  | { status: "tie"; values: LabelValue[]; votes: number; of: number }
  | { status: "insufficient"; of: number };

export function majorityVote(labels: readonly LabelValue[], minVotes = 2): MajorityResult {
  if (labels.length < minVotes) return { status: "insufficient", of: labels.length };
  const counts = new Map<string, { value: LabelValue; n: number }>();
  for (const v of labels) {
    const k = valueKey(v);
    const e = counts.get(k);
    if (e) e.n++;
    else counts.set(k, { value: v, n: 1 });
  }
  let best = 0;
  for (const e of counts.values()) best = Math.max(best, e.n);
  const top = [...counts.values()].filter((e) => e.n === best);
  if (top.length > 1) return { status: "tie", values: top.map((e) => e.value), votes: best, of: labels.length };
  if (best < minVotes) return { status: "insufficient", of: labels.length };
  return { status: "majority", value: (top[0] as { value: LabelValue }).value, votes: best, of: labels.length };
}
