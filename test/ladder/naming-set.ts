// The labelled naming set, as the ladder's naming fit reads it (runtime/ladder/naming-set.ts).
export { DATA, fresh2Items, itemTurn, ledgerRules, namingItems, projectOf, targetRule, type NamingItem } from "../../runtime/ladder/naming-set.js";
