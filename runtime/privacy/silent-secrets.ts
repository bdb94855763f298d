/**
 * The silent-secret rules (docs/privacy.md "A twelfth held-out set"): secrets that no word beside
 * them names, told by their position: a call's, a row's or a command's fields (silent-fields.ts),
 * a URL's path (silent-paths.ts), the line before or a table's column (silent-lines.ts), or
 * characters read out one by one (silent-spoken.ts). Each rule is a scan (`find`); the
 * pre-filter's witness (`silentScans`, called beside the tenth-set pass's scans) runs the same
 * scans behind a gate that an ordinary text fails at once: a run of ten token characters holding
 * a digit and a letter, which every value these rules take has (a read-out value's characters
 * are gated by a digit beside a separator).
 *
 * Example: `silentScans("ok")` -> []; `silentScans("$ openssl rand -base64 48\n<a random key>")` ->
 * ["own:silent-line"].
 */
import type { OwnRule } from "./own-rules.js";
import { findSilentFields } from "./silent-fields.js";
import { findSilentLines } from "./silent-lines.js";
import { findSilentPaths } from "./silent-paths.js";
import { findSpoken } from "./silent-spoken.js";

const RUN = /[A-Za-z0-9_+/=.~-]{10,}/g;

/** Whether `text` holds a run of ten token characters with a digit and a letter (the gate). */
function valueRun(text: string): boolean {
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) if (/\d/.test(m[0]) && /[A-Za-z]/.test(m[0])) return true;
  return false;
}

/** A digit beside a separator and a letter or digit (`9 u`, `3, q`, `1-7`, `6.\u0020u`): the read-out gate. */
const SPOKEN_GATE = /[A-Za-z0-9][ ,.\n-]{1,2}\d[ ,.\n-]{1,2}[A-Za-z0-9]|\d{1,3} (?:slash|dash|dot)|\b[0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2}\b|(?<![\w-])(?=[A-Za-z]{0,4}\d)[A-Za-z0-9]{3,5} (?=[A-Za-z]{0,4}\d)[A-Za-z0-9]{3,5} /;

/** A path's segment of sixteen token characters or more (every key silent-paths.ts takes is one). */
const PATH_GATE = /\/[A-Za-z0-9_~-]{16}/;

const rule = (kind: string, find: (text: string) => Array<[number, number]>): OwnRule => ({ kind, re: /[^\s]{8,300}/g, find });

export const SILENT_RULES: readonly OwnRule[] = [
  rule("silent-argument", findSilentFields), // its own gate: the runs of a value's shape, found first
  rule("silent-path", (t) => (PATH_GATE.test(t) ? findSilentPaths(t) : [])),
  rule("silent-line", (t) => (t.includes("\n") && valueRun(t) ? findSilentLines(t) : [])),
  rule("spoken-secret", (t) => (SPOKEN_GATE.test(t) ? findSpoken(t) : [])),
];

/** The silent rules that may take something in `text` ("own:<kind>"), by running their gated scans. */
export function silentScans(text: string): string[] {
  return SILENT_RULES.filter((r) => r.find!(text).length > 0).map((r) => `own:${r.kind}`);
}

export const SILENT_KINDS = SILENT_RULES.map((r) => `own:${r.kind}`).join(" ");
