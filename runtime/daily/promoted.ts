import { existsSync, readFileSync } from "node:fs";

/**
 * The promoted configuration (helper F's `<ledgerDir>/promoted.json`), the only
 * configuration the daily run uses. Absent: nothing is promoted and the v4 pass runs in
 * shadow. Present but unreadable: treated as absent, and said so (`problem`).
 *
 * Example: `readPromoted(".../promoted.json")` -> `{describe: "bank 3f2a9c1b, class level head", raw: {...}}` or null.
 */
export interface PromotedInfo {
  describe: string;
  raw: Record<string, unknown>;
}

export function readPromoted(path: string): PromotedInfo | null {
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const bank = typeof r["bank_hash"] === "string" ? (r["bank_hash"] as string).slice(0, 8) : "?";
  return { describe: `bank ${bank}`, raw: r };
}
