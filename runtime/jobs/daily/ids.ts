import { createHash } from "node:crypto";

/**
 * Ids and hashes for the daily loop's records, derived from their inputs (no randomness):
 * the same run at the same millisecond gets the same id, and a process-local counter keeps
 * two receipts written in one millisecond apart.
 *
 * Example: `runId(Date.parse("2026-11-30T12:00:00Z"), "daily")` -> "run-20261130-1200-<6 hex>".
 */
let counter = 0;

function stamp(nowMs: number): { day: string; hm: string } {
  const iso = new Date(nowMs).toISOString();
  return { day: iso.slice(0, 10).replaceAll("-", ""), hm: iso.slice(11, 16).replace(":", "") };
}

export function sha256Hex(text: string, length = 64): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

export function runId(nowMs: number, loop: string): string {
  const { day, hm } = stamp(nowMs);
  counter++;
  return `run-${day}-${hm}-${sha256Hex(`${nowMs}|${loop}|${process.pid}|${counter}`, 6)}`;
}

/** The claim hash that deduplicates upgrade records: sha256 of the claim, 16 hex. */
export function claimHash(claim: string): string {
  return sha256Hex(claim.trim().toLowerCase().replace(/\s+/g, " "), 16);
}

/** An upgrade id: the filing day plus 6 hex of the claim hash, so the same claim keeps its id. */
export function upgradeId(nowMs: number, hash: string): string {
  return `up-${stamp(nowMs).day}-${hash.slice(0, 6)}`;
}

/** "YYYY-MM-DD" (UTC) of a time in milliseconds. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export const DAY_MS = 86_400_000;
