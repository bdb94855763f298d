// The labelled naming set, as the ladder's naming fit reads it (runtime/ladder/naming-set.ts).
import { existsSync, readFileSync } from "node:fs";
import { DATA, type NamingItem } from "../../runtime/ladder/naming-set.js";

export { DATA, fresh2Items, itemTurn, ledgerRules, namingItems, projectOf, targetRule, type NamingItem } from "../../runtime/ladder/naming-set.js";

/**
 * The fresh3 batch (`ladder-naming/fresh3.jsonl`, written by a helper that never read the naming
 * model, its lexicon, weights or the ladder's runtime code; report-only). Its loader lives here,
 * under test/, on purpose: nothing under runtime/ (the fit included) can import it. Each item is
 * marked split `fresh3`; empty in a checkout without the file.
 */
export function fresh3Items(): NamingItem[] {
  const file = `${DATA}ladder-naming/fresh3.jsonl`;
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter((l) => l.trim() !== "").map((l) => ({ ...(JSON.parse(l) as NamingItem), split: "fresh3" as const }));
}
