import { existsSync, readFileSync } from "node:fs";
import { parseCuts, type Cuts } from "../../composers/index.js";
import { bank, v3ClassQuestions } from "../../questions/index.js";

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

/** The cuts of the promoted configuration (`cuts: {question id: cut}`); none promoted: the composers' defaults. */
export function promotedCuts(p: PromotedInfo | null): Cuts {
  const raw = p?.raw["cuts"];
  if (raw === undefined || raw === null) return {};
  const parsed = parseCuts(raw, [...bank, ...v3ClassQuestions].map((q) => q.id));
  return parsed.ok ? parsed.cuts : {};
}
