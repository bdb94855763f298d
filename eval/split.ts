import { requireInRange } from "./errors.js";
import { fmix32 } from "../core/fmix32.js";
import { fnv1a32Utf16 } from "../core/fnv1a.js";

/**
 * The fit/holdout split, by session: a session's side is a pure function of its id (a
 * salted FNV-1a hash, finished with murmur3's fmix32 so ids that differ in one character
 * land far apart), so every item of a session is on the same side, no session is in both,
 * and re-drawing the gold set never moves a session across. Fit is for cuts, Combiner heads
 * and the ClassTier level; `eval score --check` reads the holdout.
 *
 * Example: `splitOfSession("F1#2")` → "holdout" or "fit", the same on every run and
 * platform; about `holdoutShare` of many sessions land in the holdout.
 */
export type SplitSide = "fit" | "holdout";

export const DEFAULT_SPLIT_SALT = "errata-split/1";

/** A uniform number in [0, 1) from a text. */
export function hashUnit(text: string): number {
  return fmix32(fnv1a32Utf16(text)) / 4294967296;
}

export function splitOfSession(sessionId: string, opts: { holdoutShare?: number; salt?: string } = {}): SplitSide {
  const share = opts.holdoutShare ?? 0.5;
  requireInRange(share, 0, 1, "holdout share");
  return hashUnit(`${opts.salt ?? DEFAULT_SPLIT_SALT}\u0000${sessionId}`) < share ? "holdout" : "fit";
}
