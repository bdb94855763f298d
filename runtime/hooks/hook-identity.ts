/**
 * Who captures, for the hook, without loading node:crypto at every capture: the reporter
 * pseudonym (HMAC-SHA256 of the user under the state folder's `reporter-key`) and the
 * instance id (SHA-256 of the host name) are computed on the first capture and kept in
 * `<stateDir>/hook/identity.json` (mode 0600, beside the key they derive from), valid while
 * the user, the host and the key file (inode, size, modification time) are the same. The
 * file keeps no user or host name in clear (a user name can be an e-mail): it keeps a
 * check, FNV-1a of the key's text, the user and the host, which without the key tells
 * nothing and with it no more than the pseudonym does. A missing, unreadable or stale file is
 * recomputed and rewritten (temp file + rename; a failed write leaves no temp file).
 *
 * Example: `hookIdentity("/…/state/errata", "ana", "laptop")` ->
 * `{ reporter: "rp-7c2f0e9b41d3a6f8", instance: "i-3b5d1c0a9e77" }`.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
// The module itself, not runtime/files' index (which loads zod and the lock): the hook path.
import { writeFileAtomic } from "../files/atomic.js";
import { FNV1A32_OFFSET, fnv1a32Utf16Feed } from "../../core/fnv1a.js";
import { loadOrCreateReporterKey, pseudonymize, REPORTER_KEY_FILE } from "../privacy/pseudonym.js";
import { instanceId } from "../store/new-erratum.js";
import { hookStateDir } from "./hook-state.js";

export const IDENTITY_SCHEMA = "hook-identity/2";

export interface HookIdentity {
  reporter: string;
  instance: string;
}

interface IdentityFile extends HookIdentity {
  schema: typeof IDENTITY_SCHEMA;
  /** `check(keyText, user, host)`: which user and host the cached values are for. */
  check: string;
  key: string;
}

/**
 * 16 hex over the key's text, the user and the host (two FNV-1a lanes from two offsets; a
 * cache check, not a secret: it needs no crypto, which the hook loads only on first use).
 */
function check(keyText: string, user: string, host: string): string {
  const text = `${keyText.trim()}\u0000${user}\u0000${host}`;
  const a = fnv1a32Utf16Feed(FNV1A32_OFFSET, text) >>> 0;
  const b = fnv1a32Utf16Feed(0x050c5d1f, `${text}\u0000${a}`) >>> 0;
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

function keyText(stateDir: string): string | null {
  try {
    return readFileSync(join(stateDir, REPORTER_KEY_FILE), "utf8");
  } catch {
    return null;
  }
}

/** The key file's identity, or null when there is none yet. */
function keySignature(stateDir: string): string | null {
  const st = statSync(join(stateDir, REPORTER_KEY_FILE), { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${Math.trunc(st.mtimeMs)}` : null;
}

export function identityFile(stateDir: string): string {
  return join(hookStateDir(stateDir), "identity.json");
}

export function hookIdentity(stateDir: string, user: string, host: string): HookIdentity {
  const file = identityFile(stateDir);
  const sig = keySignature(stateDir);
  const kt = sig === null ? null : keyText(stateDir);
  if (sig !== null && kt !== null) {
    try {
      const v = JSON.parse(readFileSync(file, "utf8")) as Partial<IdentityFile>;
      if (v.schema === IDENTITY_SCHEMA && v.check === check(kt, user, host) && v.key === sig && typeof v.reporter === "string" && typeof v.instance === "string") {
        return { reporter: v.reporter, instance: v.instance };
      }
    } catch {
      // absent or unreadable: recompute below
    }
  }
  const key = loadOrCreateReporterKey(stateDir);
  const identity: HookIdentity = { reporter: pseudonymize(user, key), instance: instanceId(host) };
  const keyNow = keySignature(stateDir);
  const keyTextNow = keyText(stateDir);
  if (keyNow !== null && keyTextNow !== null) {
    try {
      const entry: IdentityFile = { schema: IDENTITY_SCHEMA, check: check(keyTextNow, user, host), key: keyNow, ...identity };
      writeFileAtomic(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // a cache only (a failed write leaves no temp file): the next capture computes it again
    }
  }
  return identity;
}
