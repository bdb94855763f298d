/**
 * Provider formats of the redactor's own rules, written from each provider's public docs (issue
 * 34's sixth pass; own-rules.ts runs them among its SPECIFIC_RULES): LaunchDarkly's keys, Ably's
 * API keys, Salesforce session ids, a kubeconfig's client key and certificate data.
 */
import { shannonEntropy } from "./gitleaks.js";
import type { OwnRule } from "./own-rules.js";

const B = "(?<![A-Za-z0-9_-])"; // token start: not inside a longer word
const E = "(?![A-Za-z0-9_-])"; // token end

export const FORMAT_RULES: readonly OwnRule[] = [
  // LaunchDarkly's keys, as its docs give them: "sdk-", "api-" or "mob-" and a UUID.
  { kind: "launchdarkly-key", need: (t) => t.includes("sdk-") || t.includes("api-") || t.includes("mob-"), re: new RegExp(`${B}(?:sdk|api|mob)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`, "g") },
  {
    kind: "ably-key",
    // Ably's API key, as its docs give it: "<appId>.<keyId>:<secret>", the secret a random run of
    // 30 or more (both cases and a digit). The ids are taken with it: alone they name the key.
    need: (t) => t.includes(".") && t.includes(":"),
    re: /(?<![A-Za-z0-9_.:-])([A-Za-z0-9_-]{4,12}\.[A-Za-z0-9_-]{4,12}:)([A-Za-z0-9_-]{30,})(?![A-Za-z0-9_+/=-])/g,
    replace: (m, ids, secret) => (/[A-Z]/.test(secret ?? "") && /[a-z]/.test(secret ?? "") && /\d/.test(secret ?? "") && shannonEntropy(secret ?? "") > 3.5 ? m : `${ids}${secret}`),
  },
  // A Salesforce session id (access token), as Salesforce prints it: the org id ("00D" and 12 or 15
  // characters), "!", and the session's random part.
  { kind: "salesforce-session-id", need: (t) => t.includes("00D"), re: /(?<![A-Za-z0-9])00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{40,}/g },
  {
    kind: "kubeconfig-data",
    // A kubeconfig's client key and certificate, base64 after their field names.
    need: (t) => t.includes("-data"),
    re: /(\b(?:client-key|client-certificate)-data:[ \t]*["']?)([A-Za-z0-9+/=]{16,})/g,
    replace: (m, pre) => `${pre}${m}`,
  },
];
