/**
 * Erratum ids and month file names. zod-free (the hook uses it).
 *
 * Example: `newErratumId(Date.parse("2026-11-30T12:00:00Z"), () => Buffer.from([0x3f,0xa9,0xc1]))`
 * -> "er-20261130-3fa9c1"; `monthFileName("2026-11")` -> "errata-2026-11.jsonl".
 */
import { ErrataError } from "../../core/errors.js";
import { randomBytesCheap } from "../../core/node-crypto.js";

/** `er-YYYYMMDD-` (UTC day of `nowMs`) + 6 hex from `random` (default: the kernel's generator). */
export function newErratumId(nowMs: number, random: (n: number) => Uint8Array = randomBytesCheap): string {
  const day = isoTime(nowMs).slice(0, 10).replaceAll("-", "");
  return `er-${day}-${Buffer.from(random(3)).toString("hex").slice(0, 6)}`;
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/**
 * `new Date(ms).toISOString()`, from the UTC getters: the first `toISOString` in a process sets
 * up the local time zone (reads /etc/localtime through ICU), which a UTC time
 * does not need; the hook makes one or two per capture. Years outside 0000-9999 (and invalid
 * times) go to `toISOString` itself.
 *
 * Example: `isoTime(Date.UTC(2026, 10, 30, 12, 0, 0, 5))` -> "2026-11-30T12:00:00.005Z".
 */
export function isoTime(ms: number): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (!(y >= 0 && y <= 9999)) return d.toISOString();
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}

/** "YYYY-MM" of an ISO timestamp (UTC). */
export function monthOf(ts: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(ts);
  if (!m) throw new ErrataError("BAD_INPUT", "not an ISO timestamp", { expected: "YYYY-MM-...", found: JSON.stringify(ts.slice(0, 30)) });
  return `${m[1]}-${m[2]}`;
}

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const LIVE_FILE_PATTERN = /^errata-(\d{4}-\d{2})\.jsonl$/;
export const ARCHIVE_FILE_PATTERN = /^errata-(\d{4}-\d{2})\.jsonl\.gz$/;

export function monthFileName(month: string): string {
  return `errata-${month}.jsonl`;
}

export function archiveFileName(month: string): string {
  return `errata-${month}.jsonl.gz`;
}
