import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";

/**
 * DBDC3's breakdown labels and ConTurE's like/dislike labels as `detect.unhappy` labels, read
 * for what they mean: both rate the SYSTEM turn, and the importers put that turn in
 * `reply_end` with the user's next utterance, their reaction, in `prompt` (the bank maps
 * "DBDC3 breakdown, ConTurE dislike" onto `detect.unhappy`, questions/detect.ts). So an item
 * is "the reply the person reacts to was a breakdown / was disliked", each rater's label one
 * vote:
 *
 * | corpus | native label | yes | no |
 * |---|---|---|---|
 * | DBDC3 (`breakdown`, 30 raters) | O / T / X | X (breakdown) | O, T (T is "possibly a breakdown": the raters did not call it one) |
 * | ConTurE (`impression`, one aggregated label) | 0 / 1 / 2 | 0 (dislike) | 1, 2 |
 *
 * Turns with no reaction (the dialogue ends on the system, `prompt` = "") get no label: a
 * detector of the person's reaction has nothing to read there.
 *
 * Example: `replyBankLabels(exchanges, [{…, question: "breakdown", value: "X"}])` → one row
 * `{question: "detect.unhappy", value: true, origin: "map:reply-labels/1"}` per native row.
 */
export const REPLY_MAP_ID = "reply-labels/1";

const YES: Readonly<Record<string, (v: Label["value"]) => boolean | null>> = {
  breakdown: (v) => (v === "X" ? true : v === "O" || v === "T" ? false : null),
  impression: (v) => (v === 0 ? true : v === 1 || v === 2 ? false : null),
};

/** The `detect.unhappy` labels the native reply labels imply (native rows are not repeated). */
export function replyBankLabels(exchanges: readonly Exchange[], labels: readonly Label[]): Label[] {
  const reacted = new Set(exchanges.filter((e) => e.prompt.trim() !== "").map((e) => e.id));
  const out: Label[] = [];
  for (const l of labels) {
    const read = YES[l.question];
    if (read === undefined || !reacted.has(l.exchange_id)) continue;
    const value = read(l.value);
    if (value === null) continue;
    out.push({ schema: "label/1", exchange_id: l.exchange_id, labeler: l.labeler, question: "detect.unhappy", value, origin: `map:${REPLY_MAP_ID}` });
  }
  return out;
}

/** Whether a label set carries DBDC3's or ConTurE's native reply labels (and so gets the mapping). */
export function hasReplyLabels(labels: readonly Label[]): boolean {
  return labels.some((l) => l.question === "breakdown" || l.question === "impression");
}
