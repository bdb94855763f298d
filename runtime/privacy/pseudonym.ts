/**
 * Reporter pseudonyms: `rp-` + 16 hex of HMAC-SHA256(key, normalised id). The key is 32
 * random bytes kept in the ledger's state folder (`reporter-key`, mode 0600), created on
 * first use; the same id under the same key always gives the same pseudonym, and without the
 * key the id cannot be recovered or tested by guessing. An e-mail is lower-cased and trimmed
 * before hashing, so "Ana@Example.com " and "ana@example.com" are one reporter. zod-free.
 *
 * Example: `pseudonymize("ana@example.com", key)` -> "rp-7c2f0e9b41d3a6f8" (for that key).
 */
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ErrataError } from "../../core/errors.js";
import { nodeCrypto } from "../../core/node-crypto.js";

export const REPORTER_KEY_FILE = "reporter-key";

export function pseudonymize(rawId: string, key: Buffer): string {
  const normalised = rawId.trim().toLowerCase();
  return `rp-${nodeCrypto().createHmac("sha256", key).update(normalised, "utf8").digest("hex").slice(0, 16)}`;
}

/** The key in `stateDir`, or null when none has been created yet (reads only). */
export function readReporterKey(stateDir: string): Buffer | null {
  const file = join(stateDir, REPORTER_KEY_FILE);
  try {
    return parseKey(readFileSync(file, "utf8"), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Reads the key from `stateDir`, creating it (exclusively, so two processes agree) on first use. */
export function loadOrCreateReporterKey(stateDir: string): Buffer {
  const file = join(stateDir, REPORTER_KEY_FILE);
  try {
    return parseKey(readFileSync(file, "utf8"), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(stateDir, { recursive: true });
  // Write a whole key aside, then link it into place: link never replaces an existing
  // file, so concurrent first uses agree on one key and no reader sees a half-written one.
  const tmp = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, `${nodeCrypto().randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return parseKey(readFileSync(file, "utf8"), file);
}

function parseKey(text: string, file: string): Buffer {
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new ErrataError("IO", `reporter key unreadable at ${file}`, { expected: "64 hex characters", found: `${hex.length} characters` });
  }
  return Buffer.from(hex, "hex");
}

/** True when a string is already a pseudonym (so it is not hashed twice). */
export function isPseudonym(id: string): boolean {
  return /^rp-[0-9a-f]{16}$/.test(id);
}
