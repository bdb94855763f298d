/**
 * Tenant tokens: `et_` + 32 random bytes (base64url), shown once; stored as SHA-256 hex.
 * A plain hash (no salt, no slow KDF) is enough because the token is 256 random bits, not a
 * password a person chose: nothing smaller than the space itself can be guessed, and a fast
 * hash keeps the per-request check cheap. The comparison is by hash lookup, so no timing of a
 * string compare on the secret is exposed.
 *
 * Example: `newToken()` -> `{ token: "et_Q2h…", token_id: "tk-1f0c9a2b", hash: "9b71…" }`.
 */
import { createHash, randomBytes } from "node:crypto";

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newToken(): { token: string; token_id: string; hash: string } {
  const token = `et_${randomBytes(32).toString("base64url")}`;
  return { token, token_id: `tk-${randomBytes(4).toString("hex")}`, hash: hashToken(token) };
}
