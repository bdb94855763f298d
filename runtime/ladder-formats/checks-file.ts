/**
 * The installed checks' file (`<ladder>/checks.json`): `{"version": 1, "checks": [...]}`,
 * every check valid (checks.ts `validateCheck`) and ids unique, or the whole file refused.
 * Read by the PreToolUse hook before it runs the checks, and by the ladder (approvals, the
 * auditor's shadow gate) before it edits or judges them. zod-free: the hook loads it.
 *
 * Example: `parseChecksFile('{"version":1,"checks":[]}', "/l/ladder/checks.json")` -> `[]`;
 * `parseChecksFile('{"checks":[]}', f)` throws CheckFileError ("expected {"version": 1, ...}").
 */
import { CheckFileError, validateCheck, type Check } from "./checks.js";

/** The checks of one checks.json text, each with `source: file`; throws CheckFileError for any problem. */
export function parseChecksFile(text: string, file: string): Check[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new CheckFileError(file, "JSON", err instanceof Error ? err.message : String(err));
  }
  const o = v as { version?: unknown; checks?: unknown };
  if (typeof v !== "object" || v === null || o.version !== 1 || !Array.isArray(o.checks)) {
    throw new CheckFileError(file, '{"version": 1, "checks": [...]}', JSON.stringify(v).slice(0, 80));
  }
  const ids = new Set<string>();
  return o.checks.map((c, i) => {
    const check = { ...validateCheck(c, file, `checks[${i}]`), source: file };
    if (ids.has(check.id)) throw new CheckFileError(file, `unique check ids (checks[${i}])`, check.id);
    ids.add(check.id);
    return check;
  });
}
