/**
 * Ledger configuration read from the ledger folder. Today: the systems an erratum may name,
 * `assistant` and `other` plus the names in `errata-systems.json`:
 *
 * ```json
 * { "schema": "errata-systems/1", "systems": ["billing-bot", "docs-site"] }
 * ```
 *
 * A bare array (`["billing-bot"]`) is accepted too. No file: the built-ins only.
 *
 * Example: `loadSystems("/tmp/ledger")` -> `Set {"assistant", "other", "billing-bot"}`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ErrataError } from "../core/errors.js";
import { BUILTIN_SYSTEMS, SystemsConfigSchema } from "../schemas/erratum.js";

export const SYSTEMS_FILE = "errata-systems.json";

export function loadSystems(ledgerDir: string): Set<string> {
  const file = join(ledgerDir, SYSTEMS_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return new Set(BUILTIN_SYSTEMS);
    throw new ErrataError("IO", `cannot read ${SYSTEMS_FILE}`, { found: (err as Error).message });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ErrataError("BAD_CONFIG", `${file} is not JSON`, { expected: '{"systems": ["name", ...]}', found: (err as Error).message });
  }
  const parsed = SystemsConfigSchema.safeParse(Array.isArray(json) ? { systems: json } : json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ErrataError("BAD_CONFIG", `${file} is not a systems config`, {
      expected: '{"systems": ["name", ...]} with names of lowercase letters, digits, ".", "_" or "-"',
      found: `${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}`,
    });
  }
  return new Set<string>([...BUILTIN_SYSTEMS, ...parsed.data.systems]);
}
