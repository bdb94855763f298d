/**
 * The ladder folder of the ledger the environment names (runtime/paths.ts): where the tool
 * path's hooks find the installed checks and write their records, and where the ladder's
 * commands read them.
 *
 * Example: `ladderDir({ERRATA_DIR: "/l"}, "/p")` -> "/l/ladder".
 */
import { join } from "node:path";
import { resolvePaths } from "../paths.js";
import { LADDER_DIR } from "./files.js";

export function ladderDir(env: Record<string, string | undefined>, cwd: string): string {
  return join(resolvePaths(env, cwd).ledgerDir, LADDER_DIR);
}
