/**
 * Learns the owner's own secrets for the known-value scrubber (known-values.ts): the
 * secret-looking environment variables and the values of the `.env` files in the given project
 * folders, written as salted hashes only (`<state>/known-secrets.json`, 0600, a fresh salt
 * each time). Run by `errata secrets learn`; the hook never writes it.
 *
 * Example: `learnKnownValues(stateDir, process.env, ["/home/me/app"])`
 * -> `{ file: ".../known-secrets.json", values: 7, projects: 1 }`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadNodeCrypto } from "../../core/node-crypto-load.js";
import { writeFileAtomic } from "../files/index.js";
import { KNOWN_SECRETS_FILE, setKnownSecrets } from "./known-store.js";
import type { NamedValue } from "./known-push.js";
import { buildStore, DOT_ENV_FILES, dotEnvNamed, secretEnvNamed } from "./known-values.js";

export { DOT_ENV_FILES };

/**
 * Learns the values to scrub: `env`'s secret-looking variables and the `.env` files of
 * `projects` (folders; a missing one is skipped), stored as salted hashes under a fresh salt.
 */
export function learnKnownValues(stateDir: string, env: Record<string, string | undefined>, projects: readonly string[], opts: { dryRun?: boolean } = {}): { file: string; values: number; projects: number; wrote: boolean } {
  const { values, projects: read } = collectKnownValues(env, projects);
  const store = buildStore(values.map((v) => v.value), loadNodeCrypto().randomBytes(16).toString("hex"));
  const file = join(stateDir, KNOWN_SECRETS_FILE);
  if (opts.dryRun) return { file, values: store.entries.length, projects: read, wrote: false };
  writeFileAtomic(file, `${JSON.stringify(store)}\n`, { mode: 0o600 });
  setKnownSecrets(null);
  return { file, values: store.entries.length, projects: read, wrote: true };
}

/**
 * The values `learnKnownValues` remembers, each once, with where it was found (for
 * `errata secrets push`'s report, which names and never shows): `env`'s secret-looking
 * variables, then the `.env` files of `projects`; `projects` counts the folders that had one.
 */
export function collectKnownValues(env: Record<string, string | undefined>, projects: readonly string[]): { values: NamedValue[]; projects: number } {
  const values: NamedValue[] = secretEnvNamed(env).map(({ name, value }) => ({ from: `environment ${name}`, value }));
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
      for (const v of dotEnvNamed(text)) if (!values.some((x) => x.value === v.value)) values.push({ from: `${path} ${v.name}`, value: v.value });
    }
    if (any) read++;
  }
  return { values, projects: read };
}
