import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The bundled real instruction files (datasets/claude-md): one folder per repository. */
export const claudeMdDir = join(repoRoot, "datasets", "claude-md");
export const claudeMdRepos = readdirSync(claudeMdDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
