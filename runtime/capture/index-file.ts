/**
 * `lang/index.json`: the classifier's index (see `index-build.ts`, written by
 * `index-write.ts`), generated from the
 * language files and committed beside them. Loaded once per process with one
 * `readFileSync` and one `JSON.parse` (its last field, `needs`, on first use). After editing
 * a language file, regenerate it:
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

/** JSON's white space. */
const isBlank = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

export function loadIndex(): CaptureIndex {
  if (cached) return cached;
  const text = readFileSync(langFile("index.json"), "utf8");
  // `needs`, the last field (a third of the file, read only for long texts), is parsed when
  // first read: a hook process classifying a short prompt never parses it. (The copy tsc
  // writes to dist/ is indented: spaces may stand around the key.)
  const key = text.lastIndexOf('"needs"');
  let comma = key - 1;
  while (comma > 0 && isBlank(text.charCodeAt(comma))) comma--;
  let colon = key + '"needs"'.length;
  while (colon < text.length && isBlank(text.charCodeAt(colon))) colon++;
  const end = text.lastIndexOf("}");
  let v: CaptureIndex;
  if (key < 0 || text[comma] !== "," || text[colon] !== ":" || end < colon) v = JSON.parse(text) as CaptureIndex;
  else {
    v = JSON.parse(`${text.slice(0, comma)}}`) as CaptureIndex;
    let needs: string[] | null = null;
    Object.defineProperty(v, "needs", {
      enumerable: true,
      configurable: true,
      get: (): string[] => (needs ??= JSON.parse(text.slice(colon + 1, end)) as string[]),
    });
  }
  if (v.schema !== INDEX_SCHEMA) throw new Error(`lang/index.json: expected schema ${INDEX_SCHEMA}; found ${JSON.stringify(v.schema)}`);
  cached = v;
  return v;
}
