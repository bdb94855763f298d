// The compiled modules the loop reads beside the CLI (all from dist/, built by `npx tsc`).
// The regex, v3 and v4 detectors are not among them: the loop writes their predictions with
// `errata eval predictions` (runtime/jobs/v4/predictions.ts).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export async function loadDist(repoRoot) {
  const dist = join(repoRoot, "dist");
  if (!existsSync(join(dist, "cli", "main.js"))) throw new Error("dist/ is not built: run `npx tsc -p tsconfig.json` first");
  const load = (p) => import(pathToFileURL(join(dist, p)).href);
  return {
    questions: await load("questions/index.js"),
    classtier: await load("classtier/index.js"),
    v4: await load("runtime/jobs/v4/index.js"),
    split: await load("eval/split.js"),
    train: await load("engine/embedded/train.js"),
    weights: await load("engine/embedded/weights.js"),
    signals: await load("engine/embedded/signals.js"),
    shipped: await load("engine/embedded/shipped.js"),
    engineSplit: await load("engine/embedded/split.js"),
  };
}
