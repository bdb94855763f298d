/**
 * Where the PreToolUse hook's checks come from, found with as few system calls as the
 * answer needs: one read of `<ERRATA_DIR>/ladder/checks.json` (no stat first: a missing file
 * is one failed open) and one `readdir` per `.claude` folder (the project's, then `~/.claude/`).
 *
 * tool-hook.ts asks `hasCheckSources` before any check file is parsed. bin/errata-tool-hook.cjs
 * (built from tool-hook-bin.ts with this file's helpers and paths.ts) makes the same lookup
 * with a stat instead of a read for the usual call (no check file: nothing to load);
 * test/ladder/tool-hook-fast.test.ts keeps the two equal. It imports nothing but node:fs,
 * node:path, ../ladder-formats/files.js and ladder-dir.js (and through it ../paths.js, whose
 * node:os the build loads only if HOME is unset: scripts/bundle-hook.js).
 *
 * Example: `findCheckSources({ERRATA_DIR: "/l", HOME: "/h"}, "/p", "/p")` with only
 * /p/.claude/hookify.no-rm.local.md present -> `{ownFile: "/l/ladder/checks.json", ownText: null,
 * hookifyFiles: ["/p/.claude/hookify.no-rm.local.md"]}`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHECKS_FILE } from "../ladder-formats/files.js";
import { ladderDir } from "../ladder-formats/ladder-dir.js";

/** The stderr line for a PreToolUse payload without a tool call (tool-hook.ts and pre-tool-use.ts). */
export const NO_CALL = "no tool_name or tool_input object in the PreToolUse JSON; allowed, no check run";

/** A field that is a non-empty string, else null. */
export const nonEmpty = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The project whose `.claude/` holds hookify rules: CLAUDE_PROJECT_DIR, else the payload's cwd, else the process's. */
export function projectDirOf(f: Record<string, unknown>, env: Record<string, string | undefined>, cwd: string): string {
  return nonEmpty(env["CLAUDE_PROJECT_DIR"]) ?? nonEmpty(f["cwd"]) ?? cwd;
}

/** The file's text, or null when it (or a folder on its path) does not exist; any other error is thrown. */
export function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw err;
  }
}

/** The hookify rule files in one folder, sorted; none when the folder cannot be read. */
export function hookifyNames(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter(isHookifyName).sort();
}

/** A hookify rule file's name: `hookify.<name>.local.md`. */
export const isHookifyName = (n: string): boolean => n.startsWith("hookify.") && n.endsWith(".local.md");

export interface CheckSources {
  /** `<ladder>/checks.json`, and its text when it exists. */
  ownFile: string;
  ownText: string | null;
  /** The hookify files in force: the project's, then the global ones a project file of the same name does not hide. */
  hookifyFiles: string[];
}

export function findCheckSources(env: Record<string, string | undefined>, cwd: string, projectDir: string | null): CheckSources {
  const ownFile = join(ladderDir(env, cwd), CHECKS_FILE);
  const ownText = readIfThere(ownFile);
  const projectClaude = projectDir !== null ? join(projectDir, ".claude") : null;
  const home = env["HOME"];
  const globalClaude = home ? join(home, ".claude") : null;
  const projectNames = projectClaude !== null ? hookifyNames(projectClaude) : [];
  const hookifyFiles = projectNames.map((n) => join(projectClaude!, n));
  if (globalClaude !== null && globalClaude !== projectClaude) {
    const seen = new Set(projectNames);
    for (const n of hookifyNames(globalClaude)) if (!seen.has(n)) hookifyFiles.push(join(globalClaude, n));
  }
  return { ownFile, ownText, hookifyFiles };
}

/** Whether any check file exists: when none does, the hook answers nothing without loading the check runner. */
export function hasCheckSources(s: CheckSources): boolean {
  return s.ownText !== null || s.hookifyFiles.length > 0;
}
