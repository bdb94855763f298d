/**
 * Issue 34's tenth pass (docs/privacy.md "Upstream samples", "The tenth pass"): the forms of
 * values no secret has (runtime/privacy/kept-forms.ts), each with look-alikes that stay redacted;
 * Gumroad's access tokens (runtime/privacy/own-oauth-tokens.ts); and the generic rule's stopwords
 * read past a value's prefix. Values are written for the purpose from a seeded PRNG, not taken from
 * any upstream sample, so the repository holds no credential-shaped literal.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 as prng } from "../../eval/prng.js";
import { redactSecrets, redactSecretsUnfiltered } from "../../runtime/privacy/redact.js";

const rand = prng(10);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B64URL = `${ALNUM}-_`;
/** `n` random characters from `alphabet`; of the 62 (and 8 or more), with both cases and digits. */
function r(n: number, alphabet = ALNUM): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  if (alphabet.includes("a") && alphabet.includes("A") && n >= 8) s = `aZ${s.slice(2, -2)}47`;
  return s;
}

describe("redactSecrets: over-redaction, issue 34's tenth pass (forms, with their look-alikes redacted)", () => {
  // Values written for the purpose (seeded random bodies), not upstream samples.
  const body = r(24);
  it.each([
    // A public client key, by its own prefix: the provider names the client half in it.
    `MIDTRANS_CLIENT_KEY=SB-Mid-client-${r(16)}`,
    `AIK_CLIENT_ID=AIK_CLIENT_${body}`,
    `const key = "pub_client_${body}";`,
    // A hand-typed test value under a machine key's name, after a provider's tag or a prefix.
    'exoscale_api_key = "EXOabc123"',
    "STRIPE_ACCESS_KEY=sk_test123",
    // A prefix and a body of 8 or fewer under a machine key's name: no generated key is that short.
    "upcloud_token = ucat_01DQE3",
    'SERVICE_API_KEY="key_Xk3m9Q"',
    // A value that says what it is not.
    'scaleway_secret = "not-a-uuid"',
    "DB_PASSWORD=not_a_real_password",
  ])("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
  it.each([
    // The server half, or a client key under a secret's name, or a prefix naming a secret too.
    [`MIDTRANS_SERVER_KEY=SB-Mid-server-${body}`, body],
    [`AIK_CLIENT_SECRET=AIK_SECRET_${body}`, body],
    [`CLIENT_SECRET=client_${body}`, body],
    [`api_key = "client_sk_${body}"`, body],
    [`export MY_PASSWORD=pub_client_${body}`, body],
    [`API_TOKEN=client_${body}`, body],
    [`"session": "pub_${body}"`, body],
    // A hand-typed value under a password's or a secret's name is still a password.
    ['db_password = "EXOabc123"', "EXOabc123"],
    ["client_secret=test123abc", "test123abc"],
    // A short value under a password's or a secret's name, or a body of 9 or more.
    ["db_password = pw_Xk3m9Q", "pw_Xk3m9Q"],
    ["CLIENT_SECRET=cs_Xk3m9Qa", "cs_Xk3m9Qa"],
    [`upcloud_token = ucat_${body}`, body],
    // A random token that merely starts with a tag in capitals.
    [`api_key = "EXO${body}"`, body],
  ])("still redacts %s", (text, secret) => {
    const out = redactSecrets(text).text;
    expect(out).not.toContain(secret.length > 12 ? secret.slice(0, 12) : secret);
  });
});

describe("redactSecrets: Gumroad's access tokens, its OAuth server's documented formats (issue 34, tenth pass)", () => {
  const hex = r(64, HEX).toLowerCase();
  const b64 = r(43, B64URL);
  it.each([
    [`gumroad_access_token=${hex}`, hex],
    [`gumroadPRIVATE=${hex}`, hex],
    [`GUMROAD_TOKEN: "${b64}"`, b64],
    [`config.gumroad.key => '${hex}'`, hex],
  ])("redacts %s", (text, secret) => {
    const out = redactSecrets(text).text;
    expect(out).toContain("[REDACTED:");
    expect(out).not.toContain(secret.slice(0, 12));
    expect(redactSecretsUnfiltered(text).text).toBe(out);
  });
  it.each([
    `gumroad_file_sha256 = ${r(64, HEX).toLowerCase()}`,
    "gumroad_product_permalink: abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq",
    "gumroad = https://gumroad.com/l/my-product-page-with-a-long-slug",
  ])("keeps %s (a digest, a word run, a URL)", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});

describe("redactSecrets: a stopword inside a provider's prefix is no word of the value (issue 34, tenth pass)", () => {
  it("takes a short random body behind a prefix that holds a generic stopword's letters (ucat_: 'cat_') or is a short one (php_)", () => {
    for (const pre of ["ucat_", "php_", "rpc_"])
      for (const body of [r(12), r(14), r(15)]) {
        const out = redactSecrets(`token = ${pre}${body}`).text;
        expect(out).not.toContain(body);
      }
  });
  // Sampled (seed 11): a random prefix of 2-5 letters and "_", a random body of 12-19 (two digits),
  // under token names. 22 of 5,000 were in clear before this pass (the prefix's letters held a
  // stopword, or were a short one, "php_", whose removal left the body under 16), 3 after (a
  // stopword inside the body, "iPv4"): a ceiling.
  it("random prefixed values of 12-19 under token names: at most 3 of 5,000 in clear", () => {
    const g = prng(11);
    const LO = "abcdefghijklmnopqrstuvwxyz";
    const run = (n: number, a = ALNUM): string => Array.from({ length: n }, () => a[Math.floor(g() * a.length)]).join("");
    let kept = 0;
    for (let i = 0; i < 5000; i++) {
      const len = 12 + Math.floor(g() * 8);
      let v = run(len);
      v = `${v.slice(0, 3)}${Math.floor(g() * 10)}${v.slice(4, 6)}${Math.floor(g() * 10)}${v.slice(7)}`;
      const pre = `${run(2 + Math.floor(g() * 4), LO)}_`;
      const name = ["token", "api_token", "SERVICE_TOKEN", "auth_token", "key"][i % 5];
      if (redactSecrets(`${name} = ${pre}${v}`).text.includes(v)) kept++;
    }
    expect(kept).toBeLessThanOrEqual(3);
  });
});

describe("redactSecrets: a name that says its value names an object kept elsewhere (issue 34, twelfth pass)", () => {
  it.each(["existingSecret: ledger-db", "  existing_secret: \"billing-api.credentials\"", "EXISTING_SECRET=app-db-2", "existingSecretName: tls-cert"])("keeps %s (a Kubernetes Secret's name)", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
  it.each([
    // A random value is no object's name; a name that says more than "existing secret" names what it holds.
    `existingSecret: ${r(20, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
    `existingSecret: ${r(20)}`,
    "existingSecretPassword: hunter2hunter",
    "secret: ledger-db",
  ])("redacts %s", (text) => {
    expect(redactSecrets(text).text).not.toBe(text);
  });
});

describe("redactSecrets: an e-mail address that says it is none (issue 34, twelfth pass)", () => {
  it.each(["author = \"jane.fake@mailbox.org\",", "send to dummy@corp.io", "ana.Placeholder+1@corp.io", "reply-to: team.example@corp.io"])("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
  it.each(["contact jane.doe@mailbox.org", "fakename@corp.io", "jane.fakes@corp.io", "x@example.com", "mongodb://fake:Zq8vR2mK9pLw@db.host/app"])("redacts %s (a word inside a part, a reserved domain, a URL's password)", (text) => {
    expect(redactSecrets(text).text).not.toBe(text);
  });
});
