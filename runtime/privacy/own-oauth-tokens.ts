/**
 * OAuth access tokens whose format is that of the server the provider documents it runs (issue
 * 34's tenth pass: a true sample no rule knew, docs/privacy.md "Upstream samples"). Run among
 * own-formats.ts's rules; their pre-filter witnesses are in witness-places.ts (importing them from
 * here put gitleaks.js, and its rule data, into the capture hook's bundle part).
 *
 * Gumroad: its API help ("Create an application for the API") says an access token is made with
 * "Generate access token" and kept "secret, like a password", and its API is OAuth 2.0 served by
 * the Doorkeeper gem, whose token generator (its `default_generator_method`) writes
 * `SecureRandom.urlsafe_base64(32)` (43 characters of base64url) or, set to `:hex`,
 * `SecureRandom.hex(32)` (64 hex digits). Gumroad's name says whose token it is: the value is
 * taken when it stands within a name that starts with "gumroad" (`GUMROAD_ACCESS_TOKEN=`,
 * `gumroadPRIVATE=`, `gumroad.token: `), not when that name says it holds a digest or an id
 * (`gumroad_file_sha256`).
 *
 * Example: `gumroad_access_token=<64 hex digits>` -> `gumroad_access_token=[REDACTED:gumroad-access-token]`.
 */
import type { OwnRule } from "./own-rules.js";
import { shannonEntropy } from "./gitleaks.js";

/** A name that says the value is a digest or an id, not a token. */
const NOT_A_TOKEN_NAME = /sha|hash|digest|checksum|_id$|id$|url|uri|name|product|email/i;

export const OAUTH_TOKEN_RULES: readonly OwnRule[] = [
  {
    kind: "gumroad-access-token",
    need: (_t, lower) => lower().includes("gumroad"),
    re: /(?<![A-Za-z0-9])(gumroad[\w.-]{0,30}?["']?[ \t]*(?::|=|=>|:=)[ \t]*["']?)([0-9a-f]{64}|[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/gi,
    // base64url of 32 random bytes: both cases and a digit, over 4 bits a character (a word or a
    // path of 43 is not); 64 hex digits of one case.
    replace: (m, pre, value) => {
      const v = value ?? "";
      const name = (pre ?? "").replace(/["'\s:=>]+$/, "");
      const token = /^(?:[0-9a-f]{64}|[0-9A-F]{64})$/.test(v) || (/[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && shannonEntropy(v) > 4);
      return token && !NOT_A_TOKEN_NAME.test(name) ? `${pre}${m}` : `${pre}${v}`;
    },
  },
];

