/**
 * Where the known-value scrubber's values come from (known-values.ts): the store of salted
 * hashes in the state folder (`known-secrets.json`, mode 0600, written by known-learn.ts);
 * and, in memory, this process's own
 * secret-looking environment variables. The front (redact.ts) asks `knownSecrets()` once per
 * process.
 *
 * Example: `knownSecrets()` -> `{ values: [<this process's API_KEY>], store: {version: 1, salt, entries} }`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolvePaths } from "../paths.js";
import { parseStore, secretEnvValues, type KnownStore } from "./known-values.js";

export const KNOWN_SECRETS_FILE = "known-secrets.json";

export interface KnownSecrets {
  /** This process's secret-looking environment values, in memory only. */
  values: readonly string[];
  store: KnownStore | null;
}

let known: KnownSecrets | null = null;

/** The known secrets of this process: its environment, and the store in its state folder (read once). */
export function knownSecrets(): KnownSecrets {
  if (known !== null) return known;
  const env = process.env;
  if (env["ERRATA_KNOWN_SECRETS"] === "off") return (known = { values: [], store: null });
  let store: KnownStore | null = null;
  try {
    store = parseStore(readFileSync(join(resolvePaths(env, process.cwd()).stateDir, KNOWN_SECRETS_FILE), "utf8"));
  } catch {
    // No store yet (the owner never ran `errata secrets learn`): the environment alone.
  }
  return (known = { values: secretEnvValues(env), store });
}

/** Sets (or, with null, forgets) the known secrets of this process: for tests, and after a learn. */
export function setKnownSecrets(k: KnownSecrets | null): void {
  known = k;
}
