import { existsSync, readFileSync } from "node:fs";
import { bankHash } from "../../questions/index.js";
import { PromotedSchema, type Promoted } from "../../schemas/promoted.js";

/**
 * The promoted configuration (helper F's `<ledgerDir>/promoted.json`, `promoted/1`), the
 * only configuration the daily run uses. Absent: nothing is promoted and the v4 pass runs in
 * shadow. Present but not a valid `promoted/1`, or promoted under another bank: treated as
 * absent, and `problem` says why (the run prints it).
 *
 * Example: `readPromoted(".../promoted.json")` -> `{promoted: {...}, describe: "bank 3f2a9c1b, class level class_head", problem: null}`.
 */
export interface PromotedInfo {
  promoted: Promoted | null;
  describe: string | null;
  problem: string | null;
}

export function readPromoted(path: string): PromotedInfo {
  if (!existsSync(path)) return { promoted: null, describe: null, problem: null };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return { promoted: null, describe: null, problem: "promoted.json is not JSON: running in shadow" };
  }
  const parsed = PromotedSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { promoted: null, describe: null, problem: `promoted.json is not a promoted/1 configuration (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "?"}): running in shadow` };
  }
  const p = parsed.data;
  if (p.bank_hash !== bankHash) {
    return { promoted: null, describe: null, problem: `promoted.json was promoted under another question bank (${p.bank_hash.slice(0, 12)}, now ${bankHash.slice(0, 12)}): running in shadow` };
  }
  return { promoted: p, describe: `bank ${p.bank_hash.replace(/^sha256:/, "").slice(0, 8)}, class level ${p.class_level}`, problem: null };
}
