import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Cuts, parseCuts } from "../../composers/index.js";
import { bank, rulesQuestions, v3ClassQuestions } from "../../questions/index.js";
import { badInput, describeFound } from "../../core/errors.js";
import type { CutsWithOrigin } from "../../runtime/engine/index.js";
import { readPromoted, resolveCuts } from "../../runtime/jobs/index.js";
import { resolvePaths } from "../../runtime/paths.js";

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

/**
 * The cuts a command composes under and where they came from: `--cuts FILE`, else the promoted
 * configuration's cuts (the ledger's promoted.json), else the cuts recorded with the judge's
 * weights, else the default 0.5 (`resolveCuts`). `judge` null: only the first two apply.
 *
 * Example: no `--cuts`, nothing promoted, answers by the shipped embedded model ->
 * `{cuts: {"detect.unhappy": 0.27, …}, origin: "calibrated with the weights hashed-logreg/…"}`.
 */
export function chooseCuts(file: string | undefined, io: { cwd: string; env: Record<string, string | undefined> }, judge: { lane: string; model: string } | null): CutsWithOrigin {
  const fromFile = file !== undefined ? { cuts: readCutsFile(file, io.cwd), origin: `cuts file ${file}` } : null;
  const promoted = fromFile ? null : readPromoted(join(resolvePaths(io.env, io.cwd).ledgerDir, "promoted.json")).promoted?.cuts ?? null;
  return resolveCuts({ file: fromFile, promoted, judge });
}
