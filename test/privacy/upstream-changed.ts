/**
 * The dev split's false samples the redactor changes, one by one, each with why it stays changed
 * (docs/privacy.md, "The thirteenth pass: over-redaction"; issue 34's goal is 5% of the false
 * samples no other rule reports). upstream-fixtures.test.ts checks that exactly these change, so
 * a rule that keeps one more or redacts one more must say so here. The held-out splits (betterleaks
 * odd, secretlint) keep ceilings only: their texts are not read to write rules.
 *
 * A sample is named `source:rule:` and the first 8 hex digits of the SHA-256 of its text (the
 * same text under gitleaks' and betterleaks' copy of a rule is two samples).
 *
 * Example: `gitleaks:mailchimp-api-key:94d36be7` is `MailchimpSDK.initialize(token: <32 hex>-us18)`,
 * a key in Mailchimp's exact format that gitleaks' rule misses for the ")" after it.
 */

import { createHash } from "node:crypto";

/** A sample's name in DEV_CHANGED: `source:rule:` and 8 hex digits of its text's SHA-256. */
export function sampleKey(s: { source: string; rule: string; text: string }): string {
  return `${s.source}:${s.rule}:${createHash("sha256").update(s.text).digest("hex").slice(0, 8)}`;
}

/** Why a dev false sample stays changed. */
export type ChangedWhy =
  /** Its text is a true sample of another upstream rule (the other Anthropic kind; Devin's personal key). */
  | "another rule's true sample"
  /** gitleaks' generic rule reports it: a random value under a secret's name, another provider's key. */
  | "random value under a secret's name"
  /**
   * gitleaks' generic rule reports it and the value is a typed placeholder (`a1B2c3D4…`,
   * `Aa1Bb2Cc3…`, `SBX-1a2b3c4d-…`, `ABC123DEF456…`); upstream's true samples hold the same
   * placeholders (ConfigCat's is the very value), so a rule keeping them loses true samples.
   */
  | "placeholder upstream also calls a secret"
  /** gitleaks' JWT rule reports it: a signed JWT, in a header or a variable. */
  | "JWT"
  /** Another provider's exact format (Stripe's `sk_live_`, Sourcegraph's `sgp_` and 40 hex digits) under a third provider's name. */
  | "another provider's format"
  /** Mailchimp's exact format; gitleaks' rule misses it only for the character after it. */
  | "provider format, upstream's boundary"
  /** E-mail addresses: personal data the redactor removes on purpose, no secret. */
  | "e-mail address"
  /** A random blob of 112 letters and digits standing alone (own random-token rule). */
  | "bare random token"
  /** A URL's password that is the word ("user:pass@", "app:password@"): a weak password that works is a credential. */
  | "URL password word"
  /** A key whose prefix says "sandbox": Stripe's and Clerk's `sk_test_` keys are upstream true samples, Midtrans' sandbox keys an own rule's. */
  | "sandbox key"
  /**
   * A random body behind a provider's prefix, cut short or with a letter or version changed
   * (`nvapi-` and 32, `xbi-`, `tgp_v2_`), where the built-in rules hold no length for the
   * provider (only betterleaks' rules know it, or an own rule takes any length of 40 and more on
   * purpose: xAI's `xai-`, OpenRouter's `sk-or-v1-`): no form tells it from a key, and a letter
   * changed is how a provider's other token kinds look (GitHub's `ghp_`/`gho_`, Vercel's `vcp_`/`vci_`).
   */
  | "provider prefix, no length known";

export const DEV_CHANGED: Readonly<Record<string, ChangedWhy>> = {
  "gitleaks:anthropic-api-key:379cb9fd": "another rule's true sample",
  "gitleaks:anthropic-admin-api-key:4346ba48": "another rule's true sample",
  "betterleaks:anthropic-api-key:379cb9fd": "another rule's true sample",
  "betterleaks:anthropic-admin-api-key:4346ba48": "another rule's true sample",
  "betterleaks:devin-service-api-key:d44d86f4": "another rule's true sample",
  "gitleaks:clickhouse-cloud-api-secret-key:7f11efb5": "random value under a secret's name",
  "betterleaks:clickhouse-cloud-api-secret-key:7f11efb5": "random value under a secret's name",
  "gitleaks:cisco-meraki-api-key:a9f1472b": "random value under a secret's name",
  "betterleaks:cisco-meraki-api-key:a9f1472b": "random value under a secret's name",
  "betterleaks:authress-service-client-access-key:93282fa4": "random value under a secret's name",
  "betterleaks:bitly-access-token:df21cd4c": "random value under a secret's name",
  "betterleaks:bitly-access-token:f31d1032": "random value under a secret's name",
  "betterleaks:clickup-personal-api-token:8302d9d6": "random value under a secret's name",
  "betterleaks:clickup-personal-api-token:11f611f4": "random value under a secret's name",
  "betterleaks:deepseek-api-key:5924467b": "random value under a secret's name",
  "betterleaks:infomaniak-api-token:b97cc7d2": "random value under a secret's name",
  "betterleaks:kimi-api-key:497fd864": "random value under a secret's name",
  "betterleaks:kimi-api-key:bbb5a899": "random value under a secret's name",
  "betterleaks:mistral-api-key:33bf23c3": "random value under a secret's name",
  "betterleaks:plivo-auth-token:7de26048": "random value under a secret's name",
  "betterleaks:telnyx-api-v2-key.1:e489f4d6": "random value under a secret's name",
  "betterleaks:aikido-client-secret:5583fbae": "placeholder upstream also calls a secret",
  "betterleaks:configcat-sdk-key:540cc19f": "placeholder upstream also calls a secret",
  "betterleaks:couchbase-capella-api-key:1b890386": "placeholder upstream also calls a secret",
  "betterleaks:ebay-client-secret:fbe4e495": "placeholder upstream also calls a secret",
  "betterleaks:redirect-pizza-api-token.1:e36f74fe": "placeholder upstream also calls a secret",
  "gitleaks:curl-auth-header:b9837ff3": "JWT",
  "betterleaks:curl-auth-header:b9837ff3": "JWT",
  "betterleaks:scalr-api-access-token.1:b1c321b4": "JWT",
  "betterleaks:workato-developer-api-token.1:8972fa5a": "JWT",
  "betterleaks:highnote-secret-live-key:f9adab9a": "another provider's format",
  "betterleaks:stripe-access-token:169d6360": "another provider's format",
  "betterleaks:segment-public-api-token.1:38560e08": "another provider's format",
  "gitleaks:mailchimp-api-key:94d36be7": "provider format, upstream's boundary",
  "betterleaks:mailchimp-api-key:94d36be7": "provider format, upstream's boundary",
  "gitleaks:curl-auth-user:acf9f16a": "e-mail address",
  "betterleaks:curl-auth-user:acf9f16a": "e-mail address",
  "gitleaks:gcp-api-key:5de80d60": "bare random token",
  "betterleaks:gcp-api-key:5de80d60": "bare random token",
  "betterleaks:mongodb-connection-string:393fd7bb": "URL password word",
  "betterleaks:neon-connection-uri:d6e5677f": "URL password word",
  "betterleaks:mercury-production-api-token:b3e5dee0": "sandbox key",
  "betterleaks:persona-production-api-key:364fbb2a": "sandbox key",
  "betterleaks:cerebras-api-key:7792d5b7": "provider prefix, no length known",
  "betterleaks:nvidia-api-key:5a454278": "provider prefix, no length known",
  "betterleaks:nvidia-api-key:9ec2f28c": "provider prefix, no length known",
  "betterleaks:openrouter-api-key:41cfe3a8": "provider prefix, no length known",
  "betterleaks:openrouter-api-key:0d1270be": "provider prefix, no length known",
  "betterleaks:render-api-key:1ba1e135": "provider prefix, no length known",
  "betterleaks:render-api-key:e1ccdb23": "provider prefix, no length known",
  "betterleaks:togetherai-api-key:e44420bd": "provider prefix, no length known",
  "betterleaks:togetherai-api-key:edcb4b7f": "provider prefix, no length known",
  "betterleaks:vercel-personal-access-token:d0797808": "provider prefix, no length known",
  "betterleaks:vercel-personal-access-token:ca1774b5": "provider prefix, no length known",
  "betterleaks:weights-and-biases-api-key-v1:347f8a8f": "provider prefix, no length known",
  "betterleaks:weights-and-biases-api-key-v1:085f8bdd": "provider prefix, no length known",
  "betterleaks:xai-api-key:ff12abc5": "provider prefix, no length known",
  "betterleaks:xai-api-key:4fbab4ac": "provider prefix, no length known",
};
