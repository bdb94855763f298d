/**
 * Where the known-value scrubber's values come from (known-values.ts): the store of salted
 * hashes in the state folder (`known-secrets.json`, mode 0600, written by known-learn.ts);
 * and, in memory, this process's own
 * secret-looking environment variables, and the `.env` values of the project folders a door
 * writes from (`knowProjectValues`: the capture hook, `errata add`, the transcripts' sweeps),
 * so a project the owner never ran `errata secrets learn` on is scrubbed too. The front
 * (redact.ts) asks `knownSecrets()` for every text; it reads the store once per process.
 *
 * Example: `knownSecrets()` -> `{ values: [<this process's API_KEY>], store: {version: 1, salt, entries} }`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolvePaths } from "../paths.js";
import { DOT_ENV_FILES, dotEnvValues, parseStore, secretEnvValues, type KnownStore } from "./known-values.js";

export const KNOWN_SECRETS_FILE = "known-secrets.json";

export interface KnownSecrets {
  /** This process's secret-looking environment values, in memory only. */
  values: readonly string[];
  store: KnownStore | null;
}

let known: KnownSecrets | null = null;
/** The `.env` values of each project folder read so far (folder -> its values), in memory only. */
const projects = new Map<string, readonly string[]>();
/** `known` with the projects' values joined in, made again when a folder adds a value. */
let joined: KnownSecrets | null = null;

/** The known secrets of this process: its environment, the store in its state folder (read once), the projects' values. */
export function knownSecrets(): KnownSecrets {
  if (joined !== null) return joined;
  const base = ownSecrets();
  const extra: string[] = [];
  for (const vs of projects.values()) for (const v of vs) if (!base.values.includes(v) && !extra.includes(v)) extra.push(v);
  return (joined = extra.length === 0 ? base : { values: [...base.values, ...extra], store: base.store });
}

/**
 * Holds the values of the `.env` files in `dir` (known-values.ts `dotEnvValues`) in this
 * process's memory for the scrubber, read once per folder: called by a door with the project
 * folder it writes from, the owner's own (the hook's working folder, `errata add`'s, a
 * transcript's `cwd`), never with a path a request names (the intake server). One listing of
 * the folder; a file is read only when it is there. A missing or unreadable folder adds nothing.
 *
 * Why: the store holds the projects the ledger knew when the owner last ran `errata secrets
 * learn`; a capture in a project it did not know wrote the project's bare values in clear
 * (issue 34's walk as a user, docs/privacy.md).
 */
export function knowProjectValues(dir: string | null | undefined): void {
  if (typeof dir !== "string" || dir === "" || projects.has(dir)) return;
  if (process.env["ERRATA_KNOWN_SECRETS"] === "off") return;
  const values: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => DOT_ENV_FILES.includes(n));
  } catch {
    // No such folder, or not one we may list: nothing to add.
  }
  for (const name of names) {
    try {
      for (const v of dotEnvValues(readFileSync(join(dir, name), "utf8"))) if (!values.includes(v)) values.push(v);
    } catch {
      // A folder named .env, or no permission: skipped, as `errata secrets learn` skips it.
    }
  }
  projects.set(dir, values);
  if (values.length > 0) joined = null;
}

function ownSecrets(): KnownSecrets {
  if (known !== null) return known;
  const env = process.env;
  if (env["ERRATA_KNOWN_SECRETS"] === "off") return (known = { values: [], store: null });
  let store: KnownStore | null = null;
  const file = join(resolvePaths(env, process.cwd()).stateDir, KNOWN_SECRETS_FILE);
  // No store yet (the owner never ran `errata secrets learn`): the environment alone. Asked with
  // existsSync first: a read of a missing file throws, and making that error (its stack and
  // message) cost every capture's front more than the check does (docs/privacy.md "Cost").
  if (existsSync(file)) {
    try {
      store = parseStore(readFileSync(file, "utf8"));
    } catch {
      // Unreadable or damaged: the environment alone, as without a store.
    }
  }
  return (known = { values: secretEnvValues(env), store });
}

/** Sets (or, with null, forgets) the known secrets of this process: for tests, and after a learn. The projects' values are forgotten too (a door reads them again). */
export function setKnownSecrets(k: KnownSecrets | null): void {
  known = k;
  projects.clear();
  joined = null;
}
