/**
 * Gives the merge of imported rules (imported-rule.ts, with the filter evaluator) to gitleaks.ts.
 * As an ES module it is a static import; the hook's redactor part replaces this module with a
 * `require` of a bundle part of its own (scripts/bundle-hook.js), loaded only when the owner
 * imported rules, so that a hook process without an import never reads that code.
 *
 * Example: `loadMergeImported()(gitleaksRules, data)`.
 */
import { mergeImported } from "./imported-rule.js";

export function loadMergeImported(): typeof mergeImported {
  return mergeImported;
}
