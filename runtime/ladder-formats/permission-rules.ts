/**
 * A check in Claude Code's permission-rule syntax (`Bash(npm *)`), for the tool path's cheaper
 * primitives where the mod is not installed (docs/mod.md, "Without the mod"):
 *
 * - `ifRules(check)`: rules that match every call the check can fire on (a superset), for the
 *   `if` field of a PreToolUse handler, so the client starts no process for a call the check
 *   cannot match; null when the check's conditions have no such form (then its handler runs on
 *   every call of its tools). Only prefix forms are produced (`Bash(npm*)`, `Bash(git push*)`):
 *   a rule the client read more narrowly than meant would switch the check off without a word,
 *   so nothing less established is risked.
 * - `nativeDenyRules(check)`: for an active deny check that is a pure command pattern (Bash,
 *   one condition, a command word at the start of a command), the `permissions.deny` rules that
 *   block the same word natively (a deny rule does not fail open the way a hook does). They
 *   block `npm` and `npm ...`; the check still runs for the spellings they miss (`x; npm i`).
 *
 * Pure, zod-free (the hook path's formats). Example: the drafted check on
 * `(^|[;&|]\s*)npm\b` -> ifRules ["Bash(npm*)"], nativeDenyRules ["Bash(npm)", "Bash(npm *)"].
 */
import type { Check, CheckCondition } from "./checks.js";

/** A command word the ladder drafts a check on: `(^|[;&|]\s*)WORD\b`, or `^WORD\b`. */
const WORD_AT_START = /^(?:\(\^\|\[;&\|\]\\s\*\)|\^)([A-Za-z0-9][A-Za-z0-9._+-]*)\\b$/;
/** Characters a rule's pattern cannot hold literally (the syntax's own, and a glob). */
const UNSAFE = /[()*\\\n\r]/;

function wordAtStart(c: CheckCondition): string | null {
  if (c.field !== "command" || c.not === true || c.operator !== "regex_match") return null;
  return WORD_AT_START.exec(c.pattern)?.[1] ?? null;
}

/** One condition's rules, or null when it has no prefix form. */
function conditionRules(c: CheckCondition): string[] | null {
  const word = wordAtStart(c);
  // `\b` also ends the word before "-" or "." (`npm-x`): the prefix without a space covers those.
  if (word !== null) return [`Bash(${word}*)`];
  if (c.field === "command" && c.not !== true && c.operator === "starts_with" && c.pattern.trim() !== "" && !UNSAFE.test(c.pattern)) return [`Bash(${c.pattern}*)`];
  return null;
}

export function ifRules(check: Check): string[] | null {
  if (check.tools === "*" || check.tools.length !== 1 || check.tools[0] !== "Bash") return null;
  // Conditions all hold when a check fires: any one condition's rules cover every firing call.
  for (const c of check.conditions) {
    const rules = conditionRules(c);
    if (rules !== null) return rules;
  }
  return null;
}

export function nativeDenyRules(check: Check): string[] | null {
  if (check.action !== "deny" || check.mode !== "active" || check.tools === "*" || check.tools.length !== 1 || check.tools[0] !== "Bash") return null;
  if (check.conditions.length !== 1) return null;
  const word = wordAtStart(check.conditions[0]!);
  return word === null ? null : [`Bash(${word})`, `Bash(${word} *)`];
}
