/**
 * The project's TypeScript sources as the privacy tests read them: writers.test.ts (every file
 * writer redacts) and senders.test.ts (every model sender redacts) scan the same files the same
 * way, so the walk and the read live here once.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "../rules/helpers.js";

/** Every .ts file under `dir` (relative to the repository), as paths relative to the repository. */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (e.name.endsWith(".ts")) out.push(relative(repoRoot, join(repoRoot, rel)));
  }
  return out;
}

/** A source file's code with its block comments and whole-line comments taken out. */
export const code = (f: string): string =>
  readFileSync(join(repoRoot, f), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
