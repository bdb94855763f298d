/**
 * The randomised holdout's assignment: a check the owner opted in (`holdout: {one_in, seed}`)
 * is held out, in a seeded 1-in-N of sessions, from acting: in such a session it runs in
 * shadow (the hook records what it would have done and does nothing), so its sessions can be
 * compared with the ones it acted in (runtime/ladder/holdout.ts, docs/causal.md). The draw is
 * FNV-1a of the seed, the check's id and the session id, so every call of one session gets
 * the same answer, in the hook and in the ladder's report, with no state kept. Zod-free: the
 * hook path imports it. A call with no session id is never held out (no unit to randomise).
 *
 * Example: heldOut({id: "ladder-pnpm", holdout: {one_in: 5, seed: 1}, ...}, "s-1") -> a fixed
 * true or false; over many session ids about one in five is true.
 */
import { fnv1a32Utf16 } from "../../core/fnv1a.js";

export interface Holdout {
  /** One session in `one_in` is held out (2..1000). */
  one_in: number;
  /** The assignment's seed: another seed draws other sessions. */
  seed: number;
}

/** Whether this session is held out from the check's action. */
export function heldOut(check: { id: string; holdout?: Holdout | undefined }, sessionId: string | null): boolean {
  const h = check.holdout;
  if (h === undefined || sessionId === null || sessionId === "") return false;
  return fnv1a32Utf16(`${h.seed}\u0000${check.id}\u0000${sessionId}`) % h.one_in === 0;
}

/** The shape problem of a holdout field, or null when it is one. */
export function holdoutProblem(v: unknown): string | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "holdout, an object {one_in, seed}";
  const o = v as Record<string, unknown>;
  if (typeof o["one_in"] !== "number" || !Number.isInteger(o["one_in"]) || o["one_in"] < 2 || o["one_in"] > 1000) return "holdout.one_in, a whole number in 2..1000";
  if (typeof o["seed"] !== "number" || !Number.isInteger(o["seed"])) return "holdout.seed, a whole number";
  return null;
}
