/**
 * The gitleaks rules the pre-filter (prefilter.ts) covers by a witness of its own rather than
 * by their keywords; its own module so that the full redactor (engine.ts), which skips those
 * the pre-filter ruled out, does not bundle the pre-filter again.
 *
 * Example: `WITNESSED_GITLEAKS_RULES.includes("jwt")` -> true.
 */
/** Rules whose keywords are common in ordinary text ("key", "api", "s.", "ey", "sk", "test_"...). */
export const WITNESSED_GITLEAKS_RULES = [
  "generic-api-key",
  "vault-service-token",
  "jwt",
  "twilio-api-key",
  "cloudflare-api-key",
  "cloudflare-global-api-key",
  "cloudflare-origin-ca-key",
  "authress-service-client-access-key",
  "lob-api-key",
  "lob-pub-api-key",
  "gocardless-api-token",
  "octopus-deploy-api-key",
  "sendgrid-api-token",
  "aws-access-token",
  "curl-auth-header",
  "curl-auth-user",
] as const;
