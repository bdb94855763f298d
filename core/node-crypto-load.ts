/**
 * Loads `node:crypto` synchronously from an ES module. The hook's CommonJS bundles replace
 * this module with a plain `require("node:crypto")` (scripts/bundle-hook.js), which spares
 * them loading `node:module`.
 *
 * Example: `loadNodeCrypto().randomBytes(4)`.
 */
import { createRequire } from "node:module";

export function loadNodeCrypto(): typeof import("node:crypto") {
  // process.getBuiltinModule is Node >= 20.16; createRequire works on every Node 20.
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (get ? get("node:crypto") : createRequire(import.meta.url)("node:crypto")) as typeof import("node:crypto");
}
