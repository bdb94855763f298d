/**
 * Provider formats of the redactor's own rules, written from each provider's public docs (issue
 * 34's sixth pass; own-rules.ts runs them among its SPECIFIC_RULES): LaunchDarkly's keys, Ably's
 * API keys, Salesforce session ids, a kubeconfig's client key and certificate data; since the
 * seventh pass (the fifth held-out set's misses, by form) Mercado Pago's access tokens, Atlassian's
 * API tokens of any length, Telegram's bot tokens, Midtrans' server keys, a PuTTY key file's
 * private lines and base64 of a JSON object that holds a random value (Cloudflare's tunnel tokens);
 * since the eighth pass (the sixth held-out set's misses, by form) BIP32 extended private keys;
 * and an AWS key pair written on one line (the walk as a user found the secret kept).
 */
import { shannonEntropy } from "./gitleaks.js";
import { encodedText, strongRandom } from "./own-shapes.js";
import type { OwnRule } from "./own-rules.js";
import { OAUTH_TOKEN_RULES } from "./own-oauth-tokens.js";

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
  // --- the seventh pass (docs/privacy.md "A fifth held-out set") ---
  // Mercado Pago's access tokens, as its credentials page gives them: "APP_USR-" (production) or
  // "TEST-", the application's number, a six-digit part, 32 hex digits and the user's number.
  { kind: "mercadopago-access-token", need: (t) => t.includes("APP_USR-") || t.includes("TEST-"), re: /(?<![A-Za-z0-9_-])(?:APP_USR|TEST)-\d{6,20}-\d{6}-[0-9a-f]{32}-\d{6,12}(?![A-Za-z0-9_-])/g },
  // Atlassian's API tokens ("ATATT3" and a long base64url body with an "=" and a checksum):
  // gitleaks' rule takes one exact length; a token of another is still Atlassian's.
  { kind: "atlassian-api-token", need: (t) => t.includes("ATATT3"), re: /(?<![A-Za-z0-9_-])ATATT3[A-Za-z0-9_=-]{50,}/g },
  {
    kind: "telegram-bot-token",
    // A Telegram bot token, as the Bot API gives it: the bot's number, ":" and 35 base64url
    // characters (they start "AA"); in the API's URLs after "bot" ("/bot<token>/sendMessage").
    need: (t) => t.includes(":AA"),
    re: /(?<![A-Za-z0-9:])(bot)?(\d{6,12}:AA[A-Za-z0-9_-]{30,40})(?![A-Za-z0-9_-])/g,
    replace: (m, bot) => `${bot ?? ""}${m}`,
  },
  // Midtrans' server keys, as its docs give them: "Mid-server-" (or "SB-Mid-server-" in its
  // sandbox) and a random body. Its client keys ("Mid-client-") are public by design.
  { kind: "midtrans-server-key", need: (t) => t.includes("Mid-server-"), re: /(?<![A-Za-z0-9_-])(?:SB-)?Mid-server-[A-Za-z0-9_-]{16,}/g },
  {
    kind: "putty-private-key",
    // A PuTTY key file's private part (its format, PuTTY's manual appendix C): the base64 lines
    // after "Private-Lines: N", encrypted or not (the file's "Private-MAC:" is a MAC, kept).
    need: (t) => t.includes("Private-Lines"),
    re: /(Private-Lines:[ \t]*\d+[ \t]*\r?\n)((?:[A-Za-z0-9+/=]+\r?\n)*[A-Za-z0-9+/=]+)/g,
    replace: (m, pre) => `${pre}${m}`,
  },
  {
    kind: "encoded-json-token",
    // Base64 of a JSON object ("eyJ": `{"`) with no "." after it (a JWT is the jwt rule's), 60
    // characters or more, that decodes to something other than plain text without a random run
    // (encodedText): Cloudflare's tunnel tokens ({"a": account, "t": tunnel, "s": secret}), a
    // registry's encoded auth config. Not a data URI's body ("base64,eyJ…": a source map).
    need: (t) => t.includes("eyJ"),
    re: /(?<![A-Za-z0-9+/=_.-]|base64,)(eyJ[A-Za-z0-9+/_-]{60,}={0,2})(?![A-Za-z0-9+/=_.-])/g,
    replace: (m, token) => (encodedText(token ?? "") ? token ?? "" : m),
  },
  // --- the eighth pass (docs/privacy.md "A sixth held-out set") ---
  // A BIP32 extended private key (BIP 32; its version bytes make "xprv" on main net, "tprv" on
  // test net, SLIP-132's "yprv", "zprv", "Yprv", "Zprv", "uprv", "vprv", "Uprv", "Vprv"): 111
  // base58 characters in all. Any letter or digit is taken after the prefix, so a key copied with
  // a letter base58 leaves out is still one; the extended public key ("xpub…") is public.
  {
    kind: "aws-secret-key",
    // An AWS key pair as people paste it on one line ("AKIA… / <secret>", "AKIA…:<secret>", "key
    // AKIA… secret …"): a secret access key is 40 characters of base64's alphabet (AWS's IAM
    // docs), here standing alone after the pair's key id on the same line, at most 40 characters
    // on. The named forms (aws_secret_access_key=, "SecretAccessKey") are the INI rule's; a lone
    // 40-character run holding "+" or "/" was read by no rule (scripts/walk-privacy.mjs found it
    // in clear in every file and in 28 requests to the model). The key id may already be a
    // marker (the EARLY rule ran first). Random over the whole (strongRandom), so a path or a
    // hash of 40 hex digits beside a key id is kept.
    need: (t) => t.includes("[REDACTED:aws-access-") || /(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|A3T)/.test(t),
    re: /((?:\[REDACTED:aws-access-key\]|(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9]))[^\n]{1,40}?)(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    replace: (m, pre, value) => (strongRandom(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  { kind: "bip32-private-key", need: (t) => t.includes("prv"), re: /(?<![A-Za-z0-9])[xtyzuvYZUV]prv[A-Za-z0-9]{100,110}(?![A-Za-z0-9])/g },
  // X's (Twitter's) app-only bearer token, as its docs print one: a run of "A"s (zero bytes in its
  // base64), then URL-encoded base64 ("%2B", "%2F", "%3D"); the ninth pass, so that a summary's clip
  // mark that cut it short leaves no part in clear (the run alone reads as a placeholder).
  {
    kind: "x-bearer-token", need: (t) => t.includes("AAAAAAAAAAAAAAAAAAAA"),
    re: /(?<![A-Za-z0-9%])(A{20,}[A-Za-z0-9%]{16,})(?![A-Za-z0-9%])/g,
    replace: (m, v) => (/[a-z]/.test(v ?? "") && /\d/.test(v ?? "") ? m : v ?? ""),
  },
  // The tenth pass (docs/privacy.md "Upstream samples"): OAuth servers' documented token formats (Gumroad's).
  ...OAUTH_TOKEN_RULES,
];
