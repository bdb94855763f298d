import { join } from "node:path";
import { readCutsFile, type CutsRequest } from "../../runtime/judgments/index.js";
import { resolvePaths } from "../../runtime/paths.js";

/**
 * Where a command's cuts come from, for the one chooser (`chooseCuts` in runtime/judgments):
 * `--cuts FILE` when given (read here first, so a bad file is bad input before anything else
 * is read or asked), else the ledger's promoted configuration, else the judge's calibrated
 * cuts (`errata calibrate use`), else those recorded with its weights, else 0.5.
 *
 * Example: `cutsRequest(undefined, io)` -> `{cwd, promoted: {file: "<ledger>/promoted.json"}}`.
 */
export function cutsRequest(file: string | undefined, io: { cwd: string; env: Record<string, string | undefined> }): Omit<CutsRequest, "v4Dir"> {
  if (file !== undefined) readCutsFile(file, io.cwd);
  return { ...(file !== undefined ? { file } : {}), cwd: io.cwd, promoted: { file: join(resolvePaths(io.env, io.cwd).ledgerDir, "promoted.json") } };
}
