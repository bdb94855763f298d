/**
 * Where the known-value scrubber's values come from (known-values.ts): the store of salted
 * hashes in the state folder (`known-secrets.json`, mode 0600), learned from the environment
 * and the `.env` files of the projects the ledger knows; and, in memory, this process's own
 * secret-looking environment variables. The front (redact.ts) asks `knownSecrets()` once per
 * process.
 *
 * Example: `learnKnownValues(stateDir, process.env, ["/home/me/app"])`
 * -> `{ file: ".../known-secrets.json", values: 7, projects: 1 }`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadNodeCrypto } from "../../core/node-crypto-load.js";
import { writeFileAtomic } from "../files/atomic.js";
import { resolvePaths } from "../paths.js";
import { buildStore, dotEnvValues, parseStore, secretEnvValues, type KnownStore } from "./known-values.js";

export const KNOWN_SECRETS_FILE = "known-secrets.json";
/** The `.env` files read in each project folder. */
export const DOT_ENV_FILES = [".env", ".env.local", ".env.development", ".env.development.local", ".env.production", ".env.production.local", ".env.test", ".env.test.local"];

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

/**
 * Learns the values to scrub: `env`'s secret-looking variables and the `.env` files of
 * `projects` (folders; a missing one is skipped), stored as salted hashes under a fresh salt.
 */
export function learnKnownValues(stateDir: string, env: Record<string, string | undefined>, projects: readonly string[]): { file: string; values: number; projects: number } {
  const values = [...secretEnvValues(env)];
  let read = 0;
  for (const dir of new Set(projects)) {
    let any = false;
    for (const name of DOT_ENV_FILES) {
      const path = join(dir, name);
      if (!existsSync(path)) continue;
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue; // unreadable (a folder, no permission): skipped, as a missing file is
      }
      any = true;
      for (const v of dotEnvValues(text)) if (!values.includes(v)) values.push(v);
    }
    if (any) read++;
  }
  const store = buildStore(values, loadNodeCrypto().randomBytes(16).toString("hex"));
  const file = join(stateDir, KNOWN_SECRETS_FILE);
  writeFileAtomic(file, `${JSON.stringify(store)}\n`, { mode: 0o600 });
  setKnownSecrets(null);
  return { file, values: store.entries.length, projects: read };
}
