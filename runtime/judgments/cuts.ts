import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Cuts, parseCuts } from "../../composers/index.js";
import { badInput, describeFound } from "../../core/errors.js";
import { bank, rulesQuestions, v3ClassQuestions } from "../../questions/index.js";
import { JudgeCutsSchema, type JudgeCuts } from "../../schemas/calibration.js";
import type { Promoted } from "../../schemas/promoted.js";
import { calibratedCutsFor, DEFAULT_CUTS_ORIGIN, type CutsWithOrigin } from "../engine/index.js";
import { writeFileAtomic } from "../files/index.js";
import type { JudgeId } from "./judge.js";
import { readPromoted } from "./promoted.js";

/** Where the judge's calibrated cuts live in the v4 folder (`errata calibrate use` writes them). */
export const JUDGE_CUTS_FILE = "cuts.json";

/** Which source a report's cuts came from; `origin` says it in words. */
export type CutsSource = "file" | "promoted" | "calibrated" | "weights" | "default";

export interface ChosenCuts extends CutsWithOrigin {
  source: CutsSource;
}

/**
 * What the one cuts chooser needs: a cuts file the caller names (`--cuts`, relative to `cwd`),
 * the promoted configuration (its file, or as the caller already read it), and the v4 folder
 * (where the judge's calibrated cuts are).
 */
export interface CutsRequest {
  file?: string | undefined;
  cwd?: string | undefined;
  promoted: { file: string } | { read: Promoted | null };
  v4Dir: string;
}

/** Every question a cut may name: the bank's, the v3 classes', the rules wing's. */
const CUT_IDS = (): string[] => [...bank, ...v3ClassQuestions, ...rulesQuestions].map((q) => q.id);

/**
 * Reads a cuts file (`{question id: cut}`, `{cuts: {...}}`, a calibration candidate or a
 * judge-cuts/1 file); every id must be a bank, v3 or rules question. A missing or bad file is
 * bad input, said before anything else is read.
 *
 * Example: `readCutsFile("cuts.json", cwd)` with `{"detect.unhappy": 0.62}` -> `{"detect.unhappy": 0.62}`.
 */
export function readCutsFile(file: string, cwd: string): Cuts {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw badInput("no cuts file", "a JSON file of question id -> cut", describeFound(file));
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw badInput("cuts file is not JSON", "a JSON object", describeFound(file));
  }
  const parsed = parseCuts(value, CUT_IDS());
  if (!parsed.ok) throw badInput(`bad cuts file ${file}`, parsed.expected, parsed.found);
  return parsed.cuts;
}

/** The judge's calibrated cuts in the v4 folder, or null (none written); a damaged file is bad input naming it. */
export function readJudgeCuts(v4Dir: string): JudgeCuts | null {
  const path = join(v4Dir, JUDGE_CUTS_FILE);
  if (!existsSync(path)) return null;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw badInput(`${path} is not JSON`, "a judge-cuts/1 file written by `errata calibrate use`", describeFound(path));
  }
  const parsed = JudgeCutsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badInput(`${path} is not a judge-cuts/1 file`, "a judge-cuts/1 file written by `errata calibrate use`", `${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}`);
  }
  const known = new Set(CUT_IDS());
  const unknown = Object.keys(parsed.data.cuts).filter((id) => !known.has(id));
  if (unknown.length > 0) throw badInput(`${path} names questions the bank does not have`, "bank, v3 or rules question ids", unknown.slice(0, 3).join(", "));
  return parsed.data;
}

/** Writes the judge's calibrated cuts (whole, atomically). */
export function writeJudgeCuts(v4Dir: string, cuts: JudgeCuts): string {
  const path = join(v4Dir, JUDGE_CUTS_FILE);
  writeFileAtomic(path, `${JSON.stringify(JudgeCutsSchema.parse(cuts), null, 2)}\n`);
  return path;
}

const sameJudge = (a: JudgeId | null, b: JudgeId | null): boolean => a !== null && b !== null && a.lane === b.lane && a.model === b.model;

/**
 * The one cuts chooser: which cuts compose a judge's answers, and where they came from. In
 * order: the cuts file the caller names (`--cuts`); else the promoted configuration's cuts
 * (promoted.json; the daily run's only configuration); else the judge's calibrated cuts: those
 * of the v4 folder's `cuts.json` that `errata calibrate use` wrote for this judge (or for any
 * judge), and for the questions it does not name the cuts recorded with the judge's weights
 * (the embedded lane's training-side kappa cuts, only for answers of that very model); else
 * the composers' default 0.5. Every report prints `origin`.
 *
 * Example: no `--cuts`, nothing promoted, no cuts.json, answers by the shipped embedded model
 * -> `{source: "weights", cuts: {"detect.unhappy": 0.27, …}, origin: "calibrated with the weights hashed-logreg/… (training-side kappa cut per question)"}`.
 */
export function chooseCuts(req: CutsRequest, judge: JudgeId | null): ChosenCuts {
  if (req.file !== undefined) return { source: "file", cuts: readCutsFile(req.file, req.cwd ?? process.cwd()), origin: `cuts file ${req.file}` };
  const promoted = "read" in req.promoted ? req.promoted.read : readPromoted(req.promoted.file).promoted;
  if (promoted && Object.keys(promoted.cuts).length > 0) return { source: "promoted", cuts: promoted.cuts, origin: "the promoted configuration's cuts (promoted.json)" };
  const weights = calibratedCutsFor(judge);
  const calibrated = readJudgeCuts(req.v4Dir);
  if (calibrated !== null && Object.keys(calibrated.cuts).length > 0 && (calibrated.judge === null || sameJudge(calibrated.judge, judge))) {
    // Both are this judge's calibrated cuts: the owner's (from labels) where they exist, the weights' for the rest.
    const from = [...new Set(Object.values(calibrated.origins))];
    const rest = weights === null ? "" : `; the rest ${weights.origin}`;
    return {
      source: "calibrated",
      cuts: { ...(weights?.cuts ?? {}), ...calibrated.cuts },
      origin: `the judge's calibrated cuts (${JUDGE_CUTS_FILE} in the v4 folder, errata calibrate use: ${Object.keys(calibrated.cuts).sort().join(", ")} from ${from.join("; ")})${rest}`,
    };
  }
  if (weights !== null) return { source: "weights", ...weights };
  return { source: "default", cuts: {}, origin: DEFAULT_CUTS_ORIGIN };
}
