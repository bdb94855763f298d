// The labelled naming set, as the ladder's naming fit reads it (runtime/ladder/naming-set.ts).
import { readFileSync } from "node:fs";
import { DATA, type NamingItem } from "../../runtime/ladder/naming-set.js";

export { DATA, itemTurn, ledgerRules, namingItems, projectOf, targetRule, type NamingItem } from "../../runtime/ladder/naming-set.js";

/**
 * A row of the report-only batch datasets/ladder-naming/fresh2.jsonl (split "fresh2", the same
 * fields as items.jsonl). Read here, in the tests, and nowhere in runtime/: namingItems() and
 * the naming fit never see it.
 */
export type ReportOnlyItem = Omit<NamingItem, "split"> & { split: "fresh2" };

export function fresh2Items(): ReportOnlyItem[] {
  return readFileSync(`${DATA}ladder-naming/fresh2.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l) as ReportOnlyItem);
}
