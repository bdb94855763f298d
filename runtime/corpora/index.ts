import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { badInput } from "../../core/errors.js";
import { importAbRedial } from "./importers/ab-redial.js";
import { importConture } from "./importers/conture.js";
import { importDbdc3 } from "./importers/dbdc3.js";
import { importUkp } from "./importers/ukp.js";
import { importUss, ussCorpusName } from "./importers/uss.js";
import type { ImportResult } from "./rows/rows.js";

/**
 * The importers' registry: a format name and a path → exchanges + labels.
 *
 * Example: `await runImport("ab-redial", "../shared/datasets/ab-redial", {})` →
 * `{corpus: "ab-redial", exchanges: [600 rows], labels: [...], stats: {excerpts: 200, ...}}`.
 */
export const IMPORT_FORMATS = ["ab-redial", "dbdc3", "conture", "ukp", "uss", "synthetic"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportRunOptions {
  /** dbdc3: keep the first N dialogues of each part (the bundled sample uses 5). */
  perPart?: number;
  /** synthetic: seed and number of sessions. */
  seed?: number;
  sessions?: number;
  /** synthetic: where to write the generated Claude Code sessions (null: not written). */
  transcriptsDir?: string | null;
}

/** A file given directly, or the named file inside a given folder. */
function fileIn(path: string, names: string[], what: string): string {
  if (!existsSync(path)) throw badInput(`${what}: path not found`, "an existing file or folder", path);
  if (statSync(path).isFile()) return path;
  for (const n of names) if (existsSync(join(path, n))) return join(path, n);
  throw badInput(`${what}: nothing to read in the folder`, names.join(" or "), path);
}

export async function runImport(format: ImportFormat, path: string | null, opts: ImportRunOptions = {}): Promise<ImportResult> {
  if (format === "synthetic") {
    const { importSynthetic } = await import("./synthetic/index.js");
    return importSynthetic({ seed: opts.seed ?? 1, sessions: opts.sessions ?? 60, transcriptsDir: opts.transcriptsDir ?? null });
  }
  if (path === null) throw badInput(`import ${format} needs a path`, "a corpus file or folder", "nothing");
  switch (format) {
    case "ab-redial": {
      const f = fileIn(path, ["annotated_turns.csv", "Data/annotated_turns.csv"], "ab-redial");
      return importAbRedial(readFileSync(f, "utf8"), basename(f));
    }
    case "dbdc3": {
      const f = fileIn(path, ["DBDC3.zip", "raw/DBDC3.zip", "docs/data/DBDC3.zip"], "dbdc3");
      return importDbdc3(new Uint8Array(readFileSync(f)), opts.perPart === undefined ? {} : { perPart: opts.perPart });
    }
    case "conture": {
      const f = fileIn(path, ["data/data.json", "data.json"], "conture");
      return importConture(readFileSync(f, "utf8"), "data/data.json");
    }
    case "ukp":
      if (!existsSync(path)) throw badInput("ukp: path not found", "the UKP repository or its data/analysis folder", path);
      return importUkp(path);
    case "uss": {
      const f = fileIn(path, ["SGD.txt"], "uss");
      return importUss(readFileSync(f, "utf8"), ussCorpusName(f), basename(f));
    }
  }
}

export type { ImportResult } from "./rows/rows.js";
export { writeImport, validateImport } from "./importers/write.js";
export { importAbRedial } from "./importers/ab-redial.js";
export { importDbdc3 } from "./importers/dbdc3.js";
export { importConture } from "./importers/conture.js";
export { importUkp } from "./importers/ukp.js";
export { importUss, ussCorpusName, countFirstThreeUnhappy } from "./importers/uss.js";
export { SYNTHETIC_LABELER, importSynthetic } from "./synthetic/index.js";
export { generateRuleScenarios, type RuleScenarioProject, type ScenarioFailure } from "./synthetic/rules.js";
