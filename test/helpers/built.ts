import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Whether this checkout is built. Tests that run compiled code (bin/errata.cjs, dist/: the
 * hook bundles, the compiled and the bundled CLI, scripts) import `built` and skip without it, and
 * skips.ts prints one line saying so. They share one build: `npm test` runs `npm run build`
 * once before vitest, and no test builds (a build inside a test would race the others
 * reading dist/). The files checked are the last each build step writes.
 */
const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export const BUILD_OUTPUTS: readonly string[] = [
  join(repoRoot, "dist", "cli", "main.js"),
  join(repoRoot, "dist", "scripts", "research.js"),
  join(repoRoot, "dist", "runtime", "classifier", "lang", "en.rules.tsv"),
  join(repoRoot, "dist", "cli-bundle", "main.js"),
  join(repoRoot, "dist", "runtime", "hooks", "hook.bundle.cjs.v8cache"),
];

export const built: boolean = BUILD_OUTPUTS.every((p) => existsSync(p));
