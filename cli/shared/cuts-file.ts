import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Cuts, parseCuts } from "../../composers/index.js";
import { bank, rulesQuestions, v3ClassQuestions } from "../../questions/index.js";
import { badInput, describeFound } from "../../core/errors.js";

/**
 * Reads a cuts file (`{question id: cut}` or `{cuts: {...}}`); every id must be a bank, v3 or rules
 * question. No file given is no cuts (each question composes at 0.5).
 *
 * Example: `readCutsFile("cuts.json", cwd)` with `{"detect.unhappy": 0.62}` -> `{"detect.unhappy": 0.62}`.
 */
export function readCutsFile(file: string | undefined, cwd: string): Cuts {
  if (file === undefined) return {};
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw badInput("no cuts file", "a JSON file of question id -> cut", describeFound(file));
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw badInput("cuts file is not JSON", "a JSON object", describeFound(file));
  }
  const parsed = parseCuts(value, [...bank, ...v3ClassQuestions, ...rulesQuestions].map((q) => q.id));
  if (!parsed.ok) throw badInput(`bad cuts file ${file}`, parsed.expected, parsed.found);
  return parsed.cuts;
}
