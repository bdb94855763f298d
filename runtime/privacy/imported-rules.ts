/**
 * betterleaks' rules, when the owner imported a rule file (`errata secrets rules import`,
 * betterleaks-convert.ts): read from the state folder, never from the repository (what is
 * fetched from a public repository is not committed here). Two files, written together:
 * `betterleaks-rules.json` (the rules, read by the full redactor when a text wakes one) and
 * `betterleaks-keywords.json` (their keywords only, read by the pre-filter, so that a hook
 * run pays for a small file, and for one existence check when nothing was imported).
 *
 * `ERRATA_IMPORTED_RULES=off` ignores them (to compare with and without).
 *
 * Example: `importedKeywords()` -> `["0q~", "1password", …]`, or null when none was imported.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolvePaths } from "../paths.js";
import type { ImportedRulesData } from "./betterleaks-convert.js";

/** The imported data's format (a file of another format is ignored: import again). Here, not in the converter, so the hook loads no converter. */
export const IMPORTED_RULES_FORMAT = "errata-imported-rules/1";
export const IMPORTED_RULES_FILE = "betterleaks-rules.json";
export const IMPORTED_KEYWORDS_FILE = "betterleaks-keywords.json";

let rules: ImportedRulesData | null | undefined;
let keywords: readonly string[] | null | undefined;

/**
 * Whether an import exists, asked once a process: the hook's capture part and its redactor
 * part each hold a copy of this module (scripts/bundle-hook.js), so the answer is kept on the
 * process (a symbol of the global object), and the part that asks second does no I/O. The
 * keywords file is the mark: the import writes it last.
 */
const NONE = Symbol.for("errata.imported-rules.none");
type Marked = { [NONE]?: boolean };

function read<T>(file: string): T | null {
  const env = process.env;
  if (env["ERRATA_IMPORTED_RULES"] === "off") return null;
  const g = globalThis as Marked;
  if (g[NONE] === true) return null;
  const dir = resolvePaths(env, process.cwd()).stateDir;
  // One existence check, which throws nothing when the file is not there (the hook's case
  // without an import): a failed read would make an Error and its stack in every hook process.
  if (g[NONE] === undefined && (g[NONE] = !existsSync(join(dir, IMPORTED_KEYWORDS_FILE)))) return null;
  const path = join(dir, file);
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    // Nothing imported (or unreadable: the import writes both files whole, then renames them).
    return null;
  }
}

/** The imported rule data, read once a process; null when none. */
export function importedRules(): ImportedRulesData | null {
  if (rules === undefined) {
    const d = read<ImportedRulesData>(IMPORTED_RULES_FILE);
    rules = d !== null && d.format === IMPORTED_RULES_FORMAT && Array.isArray(d.rules) ? d : null;
  }
  return rules;
}

/** The imported rules' keywords (lower-case), read once a process; null when none. */
export function importedKeywords(): readonly string[] | null {
  if (keywords === undefined) {
    const k = read<{ keywords: string[] }>(IMPORTED_KEYWORDS_FILE);
    keywords = k !== null && Array.isArray(k.keywords) && k.keywords.length > 0 ? k.keywords : null;
  }
  return keywords;
}

/** Sets (or, with undefined, forgets) this process's imported rules: for tests, and after an import. */
export function setImportedRules(d: ImportedRulesData | null | undefined): void {
  delete (globalThis as Marked)[NONE];
  rules = d;
  keywords = d === undefined ? undefined : d === null ? null : d.keywords;
}
