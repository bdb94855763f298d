/**
 * Gives the full redactor (engine.ts) to its front (redact.ts). As an ES module it is a
 * static import; the hook's capture bundle replaces this module with a `require` of the
 * redactor's own bundle part (scripts/bundle-hook.js), loaded only when the pre-filter cannot
 * clear a text, so that most hook runs never read gitleaks' rule data.
 *
 * Example: `loadEngine().redactAll("token ghp_…")`.
 */
import * as engine from "./engine.js";

export function loadEngine(): typeof engine {
  return engine;
}
