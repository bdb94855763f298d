import { sha256Hex } from "./sha256.js";

/**
 * The hash a weights file records for one item it was trained on (`trainedOn[].itemHashes`):
 * the first 16 hex digits of SHA-256 over `corpus NUL exchange_id`, where corpus is the
 * exchange record's own `corpus` field (for most sets also the set name). Scorers hash their holdout
 * items the same way to find items a detector has already seen.
 *
 * Example: `trainingItemHash("ab-redial", "F1#1:3")` -> 16 hex digits, always the same.
 */
export function trainingItemHash(corpus: string, exchangeId: string): string {
  return sha256Hex(`${corpus}\u0000${exchangeId}`).slice(0, 16);
}

/** The same hash check, for validating stored lists. */
export const TRAINING_ITEM_HASH = /^[0-9a-f]{16}$/;
