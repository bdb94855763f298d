import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { WeightsFile } from "../base/schemas.js";
import { parseWeights } from "./weights.js";

/**
 * The weights shipped in the repository (`datasets/weights/embedded.json`), found by walking
 * up from this module, so it works from the sources (vitest) and from `dist/` alike.
 *
 * Example: `shippedWeightsPath()` -> "<repo>/datasets/weights/embedded.json", or null in a
 * build without it.
 */
export const SHIPPED_WEIGHTS = join("datasets", "weights", "embedded.json");

export function shippedWeightsPath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, SHIPPED_WEIGHTS);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

let cached: WeightsFile | null | undefined;

/** The shipped weights, parsed once; null when the build has none. */
export function loadShippedWeights(): WeightsFile | null {
  if (cached !== undefined) return cached;
  const path = shippedWeightsPath();
  cached = path === null ? null : parseWeights(readFileSync(path, "utf8"));
  return cached;
}

/** The repository's `datasets/` folder (beside package.json), found from this module; null outside a checkout. */
export function repoDatasetsDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "datasets"))) return join(dir, "datasets");
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}
