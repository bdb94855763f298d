/**
 * Regenerates `lang/index.json` and the rule files `lang/<code>.rules.tsv` from the
 * language files (not on the hook path: it loads every language file and the index builder).
 *
 *   npx tsc -p tsconfig.json && node -e "import('./dist/runtime/classifier/index-write.js').then((m) => m.writeIndexFile())"
 *
 * Example: `writeIndexFile()` -> "/…/runtime/classifier/lang/index.json".
 */
import { writeFileSync } from "node:fs";
import { buildIndex, buildRuleFiles, type CaptureIndex } from "./index-build.js";
import { indexFileText } from "./index-file.js";
import { LANGUAGE_CODES, language, readLangFile } from "./lang-data.js";

/** The index the language files give now. */
export function freshIndex(): CaptureIndex {
  return buildIndex(
    LANGUAGE_CODES.map((c) => language(c)),
    LANGUAGE_CODES.map((c) => readLangFile(c)),
  );
}

/** The rule files' texts the language files give now, by language code. */
export function freshRuleFiles(index: CaptureIndex = freshIndex()): Record<string, string> {
  return buildRuleFiles(
    LANGUAGE_CODES.map((c) => language(c)),
    index.source_sha256,
  );
}

/**
 * Writes the index and the rule files next to the language files of the source tree (from
 * `dist/runtime/classifier` that is `runtime/classifier/lang/`; from the sources, the same folder).
 */
export function writeIndexFile(): string {
  const fromDist = new URL(".", import.meta.url).pathname.includes("/dist/");
  const dir = fromDist ? new URL("../../../runtime/classifier/lang/", import.meta.url) : new URL("./lang/", import.meta.url);
  const index = freshIndex();
  for (const [code, text] of Object.entries(freshRuleFiles(index))) writeFileSync(new URL(`${code}.rules.tsv`, dir), text);
  const target = new URL("index.json", dir);
  writeFileSync(target, indexFileText(index));
  return target.pathname;
}
