import { sha256Hex } from "../base/hash.js";

/**
 * The session-disjoint holdout: a session is in the holdout when a hash of its corpus and
 * session id falls in the first `percent` of 100 buckets. Every exchange of a session lands
 * on the same side, on every machine, for ever.
 *
 * Example: `isHoldout("ab-redial", "F1#1")` -> true or false, always the same.
 */
export const SPLIT_METHOD = "holdout/1: sha256(corpus NUL session_id), first 8 hex as uint32 mod 100 < 20";

export function splitBucket(corpus: string, sessionId: string): number {
  return Number.parseInt(sha256Hex(`holdout/1:${corpus}\u0000${sessionId}`, 8), 16) % 100;
}

export function isHoldout(corpus: string, sessionId: string, percent = 20): boolean {
  return splitBucket(corpus, sessionId) < percent;
}
