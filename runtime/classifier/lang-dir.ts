/**
 * Where the classifier's language files are: `lang/` beside this module. The hook's CommonJS
 * bundles replace this module with one that uses `__dirname` (scripts/bundle-hook.js; the
 * bundles sit in this module's folder), which spares loading `node:url` and making a URL at
 * every prompt.
 *
 * Example: `langFile("index.json")` -> ".../runtime/classifier/lang/index.json".
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const LANG_DIR = fileURLToPath(new URL("./lang/", import.meta.url));

/** The path of one file in the language folder. */
export function langFile(name: string): string {
  return join(LANG_DIR, name);
}
