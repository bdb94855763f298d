/**
 * The language files (and the generated `lang/index.json`) as JSON modules. Nothing on the hook path imports this: it exists so
 * that tsc (with `resolveJsonModule`) copies `lang/*.json` into `dist/`, where
 * `lang-data.ts` reads them with `readFileSync`; a test checks both views agree.
 *
 * Example: `LANG_FILES.fi.code` -> "fi".
 */
import de from "./lang/de.json" with { type: "json" };
import en from "./lang/en.json" with { type: "json" };
import es from "./lang/es.json" with { type: "json" };
import fi from "./lang/fi.json" with { type: "json" };
import fr from "./lang/fr.json" with { type: "json" };
import pt from "./lang/pt.json" with { type: "json" };
import index from "./lang/index.json" with { type: "json" };
import ja from "./lang/ja.json" with { type: "json" };
import ru from "./lang/ru.json" with { type: "json" };
import zh from "./lang/zh.json" with { type: "json" };

export const LANG_FILES: Readonly<Record<string, unknown>> = { en, fi, de, es, fr, pt, ru, ja, zh };

/** The generated index (`index-file.ts`), also copied into dist/ this way. */
export const INDEX_FILE: unknown = index;
