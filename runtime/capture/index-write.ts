/**
 * Regenerates `lang/index.json` from the language files (not on the hook path: it loads
 * every language file and the index builder).
 *
 *   npx tsc -p tsconfig.json && node -e "import('./dist/runtime/capture/index-write.js').then((m) => m.writeIndexFile())"
 *
 * Example: `writeIndexFile()` -> "/…/runtime/capture/lang/index.json".
 */
import { writeFileSync } from "node:fs";
import { buildIndex, type CaptureIndex } from "./index-build.js";
import { LANGUAGE_CODES, language, readLangFile } from "./lang-data.js";

/** The index the language files give now. */
export function freshIndex(): CaptureIndex {
  return buildIndex(
    LANGUAGE_CODES.map((c) => language(c)),
    LANGUAGE_CODES.map((c) => readLangFile(c)),
  );
}

/**
 * Writes the index next to the language files of the source tree (from `dist/runtime/capture`
 * that is `runtime/capture/lang/index.json`; from the sources, the same file).
 */
export function writeIndexFile(): string {
  const fromDist = new URL(".", import.meta.url).pathname.includes("/dist/");
  const target = fromDist ? new URL("../../../runtime/capture/lang/index.json", import.meta.url) : new URL("./lang/index.json", import.meta.url);
  writeFileSync(target, `${JSON.stringify(freshIndex())}\n`);
  return target.pathname;
}
