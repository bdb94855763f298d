import type { Erratum } from "../../../schemas/erratum.js";

/**
 * Which entries count as complaints in a rate: a complaint-like kind (complaint, bug,
 * correction, directive, incident) from any source except `detected` (a standing directive
 * was written as a correction before it had a kind of its own, and counts as it did). Detected rows are misses a
 * machine inferred from how the next prompt reacted; they never count in any rate.
 *
 * Example: `{kind: "correction", source: "hook"}` -> true; `{kind: "complaint", source:
 * "detected"}` -> false; `{kind: "praise", source: "owner"}` -> false.
 */
export const COMPLAINT_KINDS: ReadonlySet<string> = new Set(["complaint", "bug", "correction", "directive", "incident"]);

export function isRateComplaint(e: Pick<Erratum, "kind" | "source">): boolean {
  return e.source !== "detected" && COMPLAINT_KINDS.has(e.kind);
}

/** True when `ts` (ISO) falls in [sinceMs, untilMs). */
export function inWindow(ts: string, sinceMs: number, untilMs: number): boolean {
  const ms = Date.parse(ts);
  return Number.isFinite(ms) && ms >= sinceMs && ms < untilMs;
}
