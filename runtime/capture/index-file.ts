/**
 * `lang/index.json`: the classifier's index (see `index-build.ts`, written by
 * `index-write.ts`), generated from the
 * language files and committed beside them. Loaded once per process with one
 * `readFileSync` and one `JSON.parse`. After editing a language file, regenerate it:
 *
 *   npx tsc -p tsconfig.json && node -e "import('./dist/runtime/capture/index-write.js').then((m) => m.writeIndexFile())"
 *
 * (the test `test/capture/classify.test.ts` fails while it is stale).
 *
 * Example: `loadIndex().rules.length` -> 200.
 */
import { readFileSync } from "node:fs";
import type { CaptureIndex } from "./index-build.js";
import { langFile } from "./lang-dir.js";

export const INDEX_SCHEMA = "capture-index/1";

let cached: CaptureIndex | null = null;

export function loadIndex(): CaptureIndex {
  if (cached) return cached;
  const v = JSON.parse(readFileSync(langFile("index.json"), "utf8")) as CaptureIndex;
  if (v.schema !== INDEX_SCHEMA) throw new Error(`lang/index.json: expected schema ${INDEX_SCHEMA}; found ${JSON.stringify(v.schema)}`);
  cached = v;
  return v;
}
