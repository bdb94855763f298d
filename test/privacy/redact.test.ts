/**
 * Redaction corpus: secret shapes (every one redacted, with its typed marker, no part of the
 * secret left) and look-alikes (none touched). Secrets are generated from a seeded PRNG at
 * run time so no credential-shaped literal sits in the repository.
 */
import { mulberry32 } from "../../eval/prng.js";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { allCleared, redactSecrets, redactSecretsUnfiltered } from "../../runtime/privacy/redact.js";
import { gzipSync } from "node:zlib";
import { candidates, KEY_WORDS, mayHoldSecret, PROSE_WORDS } from "../../runtime/privacy/prefilter.js";
import { appPassword, PROSE_KEY_WORDS } from "../../runtime/privacy/own-places.js";
import { loadCorpus } from "./corpus.js";
import { generatedSecrets, inClear } from "./generated-secrets.js";
import { caseless, EARLY_RULES, LATE_RULES, PROSE_PASSWORD_WORDS, SECRET_NAME, SPECIFIC_RULES } from "../../runtime/privacy/own-rules.js";
import { kindOf } from "../../runtime/privacy/engine.js";
import { notASecret, onlyReferences, SEQUENCES, WORDS } from "../../runtime/privacy/placeholders.js";
import { encodedText, NOT_SECRET_NAMES, notSecretName, passwordLike, strongRandom, testCaseless } from "../../runtime/privacy/own-shapes.js";
import { gitleaksRule, gitleaksRules } from "../../runtime/privacy/gitleaks.js";

const prng = mulberry32;
const rand = prng(42);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPERNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const HEX = "0123456789abcdef";
const B64URL = `${ALNUM}-_`;
const B64 = `${ALNUM}+/`;
/** `n` random characters from `alphabet`, guaranteed to contain digits and both cases when the alphabet has them. */
function r(n: number, alphabet = ALNUM): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  if (alphabet.includes("a") && alphabet.includes("A") && n >= 8) s = `aZ${s.slice(2, -2)}47`;
  return s;
}
const join = (...parts: string[]) => parts.join("");
const b64url = (s: string) => Buffer.from(s).toString("base64url");
const jwt = join(b64url('{"alg":"HS256","typ":"JWT"}'), ".", b64url(`{"sub":"${r(8)}","iat":1732960000}`), ".", r(43, B64URL));
const pem = (label: string, body: string) => join("-----BEGIN ", label, "-----\n", body, "\n-----END ", label, "-----");

interface Case {
  kind: string;
  text: string;
  secret: string;
}
const c = (kind: string, secret: string, template = "key: {S} here"): Case => ({ kind, secret, text: template.replace("{S}", secret) });

const SECRETS: Case[] = [
  c("openai-api-key", join("sk-proj-", r(48, B64URL), "T3BlbkFJ", r(48, B64URL)), "export OPENAI_API_KEY={S}"),
  c("openai-api-key", join("sk-", r(20), "T3BlbkFJ", r(20)), "use {S} for now"),
  c("openai-api-key", join("sk-svcacct-", r(60, B64URL)), "the service account key {S} leaked"),
  c("openai-api-key", join("sk-or-v1-", r(64, HEX)), "openrouter {S}"),
  c("openai-api-key", join("sk-", r(32, HEX)), "deepseek key: {S}"),
  c("anthropic-api-key", join("sk-ant-api03-", r(93, B64URL), "AA"), "ANTHROPIC_API_KEY={S}"),
  c("anthropic-api-key", join("sk-ant-admin01-", r(80, B64URL)), "admin {S}"),
  c("google-api-key", join("AIza", r(35, B64URL)), "maps key {S}"),
  c("groq-api-key", join("gsk_", r(52)), "groq: {S}"),
  c("xai-api-key", join("xai-", r(80)), "grok {S}"),
  c("huggingface-token", join("hf_", r(34)), "HF token {S}"),
  c("replicate-token", join("r8_", r(37)), "replicate {S}"),
  c("perplexity-api-key", join("pplx-", r(48)), "pplx {S}"),
  c("stripe-key", join("sk_", "live_", r(24)), "stripe {S}"),
  c("stripe-key", join("rk_", "test_", r(24)), "restricted {S}"),
  c("slack-token", join("xox", "b-", r(11, "0123456789"), "-", r(13, "0123456789"), "-", r(24)), "slack bot {S}"),
  c("slack-token", join("xox", "p-", r(11, "0123456789"), "-", r(11, "0123456789"), "-", r(32, HEX)), "{S}"),
  c("github-token", join("ghp_", r(36)), "git push https with {S}"),
  c("github-token", join("gho_", r(36)), "oauth {S}"),
  c("github-token", join("ghs_", r(36)), "GITHUB_TOKEN={S}"),
  c("github-token", join("ghu_", r(36)), "user-to-server {S}"),
  c("github-token", join("ghr_", r(36)), "refresh {S}"),
  c("github-token", join("github_pat_", r(22), "_", r(59)), "fine-grained {S}"),
  c("gitlab-token", join("glpat-", r(20, B64URL)), "gitlab {S}"),
  c("gitlab-token", join("gldt-", r(20, B64URL)), "deploy token {S}"),
  c("gitlab-token", join("glrt-", r(24, B64URL)), "runner {S}"),
  c("npm-token", join("npm_", r(36)), "//registry.npmjs.org/:_authToken={S}"),
  c("aws-access-key", join("AKIA", r(16, UPPERNUM)), "aws_access_key_id = {S}"),
  c("aws-access-key", join("ASIA", r(16, UPPERNUM)), "temporary {S} creds"),
  c("aws-secret-key", r(40, B64), "aws_secret_access_key = {S}"),
  c("aws-secret-key", r(40, B64), "AWS_SECRET_ACCESS_KEY: {S}"),
  c("jwt", jwt, "cookie session={S}; Path=/"),
  c("jwt", jwt, "https://app.example.org/cb?id_token={S}&state=1"),
  c("private-key", pem("RSA PRIVATE KEY", r(64, B64)), "here is the key:\n{S}\nthanks"),
  c("private-key", pem("OPENSSH PRIVATE KEY", r(70, B64)), "{S}"),
  c("private-key", pem("EC PRIVATE KEY", r(64, B64)), "ec: {S}"),
  c("private-key", pem("ENCRYPTED PRIVATE KEY", r(64, B64)), "{S}"),
  c("private-key", join("-----BEGIN PRIVATE KEY-----\n", r(64, B64), "\n", r(64, B64)), "pasted half a key: {S}"),
  c("private-key", pem("PGP PRIVATE KEY BLOCK", r(64, B64)), "gpg {S}"),
  c("url-password", "hunter2pass", "DATABASE_URL=postgres://app:{S}@db.internal:5432/prod"),
  c("url-password", "s3cr3t-Pw", "git clone https://octo:{S}@github.com/o/r.git"),
  c("url-password", "r3disPass", "redis://:{S}@cache:6379/0"),
  c("url-password", "MongoPw77", "mongodb+srv://admin:{S}@cluster0.abcde.mongodb.net/db"),
  c("bearer-token", r(40, B64URL), "Authorization: Bearer {S}"),
  c("bearer-token", `${r(30, B64)}==`, "curl -H 'Authorization: Bearer {S}' https://api.example.org"),
  c("basic-auth", Buffer.from("admin:correct horse").toString("base64"), "Authorization: Basic {S}"),
  c("env-assignment", "hunter22x", "DB_PASSWORD={S}"),
  c("env-assignment", r(32), "export STRIPE_WEBHOOK_SECRET={S}"),
  c("env-assignment", "a quoted-value".replace(" ", "_"), 'API_KEY="{S}"'),
  c("env-assignment", "yamlSecret99", "  secret_key: '{S}'"),
  c("env-assignment", "j50nPassw0rd!", '{"user": "ana", "password": "{S}"}'),
  c("env-assignment", "cl1ent-s3cret-v4lue", "https://login.example.org/token?client_id=abc&client_secret={S}"),
  c("env-assignment", r(24), "MY_APP_TOKEN = {S}"),
  c("env-assignment", "pa55phrase-x", "passphrase={S}"),
  c("email", "ana.silva+work@example.com", "ping {S} about it"),
  c("email", "j.doe@mail.example.co.uk", "<{S}>"),
];

const LOOK_ALIKES: string[] = [
  "MAX_TOKENS=4096",
  "the token limit is 4096 and the key insight is caching",
  "KEY_PATH=/etc/ssl/server.pem",
  "install sk-learn? no, scikit-learn",
  "sk-this-is-a-task-description-for-the-release",
  "commit 3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a fixed it",
  "request id 123e4567-e89b-12d3-a456-426614174000",
  "the AKIAFAKE placeholder is not a key",
  "header starts eyJhbGciOiJIUzI1NiJ9 but that is not a whole token",
  "Bearer of bad news: the build failed",
  "see https://example.com/packages/foo@2.1.0 and http://localhost:8080/api/v1",
  "clone git@github.com:org/repo.git",
  "npm i @types/node@20",
  "the password reset flow is broken again",
  "token=${GITHUB_TOKEN} in the workflow",
  "OPENAI_API_KEY=<your-key-here>",
  "api_key: process.env.OPENAI_API_KEY",
  "ghp_ tokens are GitHub's classic personal tokens",
  "glpat- tokens expire after a year",
  "ssh user@localhost failed",
  "digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
  "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----",
  "REQUIRE_AUTH=true",
  "timeout=30 retries=3 key=value pairs are parsed",
  "version 2.0.31-beta, model claude-sonnet-4-5",
  "the AWS region is us-east-1 and the bucket is my-bucket",
  "price is 5 USD @ 2x speed",
  // Shapes of upstream false samples (issue 34), written here: a name with "aPi" inside a word
  // (gitleaks' `(?-i:[Aa]pi|API)` was imported caseless), empty assignments on two lines, a
  // shell default, identifiers of words and numbers, Slack's doc examples, a hand-typed key.
  'this.ultraPictureBox2.Name = "ultraPictureBox2";',
  "OPENAI_API_KEY=\nANTHROPIC_API_KEY=",
  "DB_PASSWORD=${DB_PASSWORD:=$1}",
  "viewKey = 'Report_Table_3_14'",
  '"bucket_key": "QuarterlyTotals-2.1"',
  "callback token: ORDER_CALLBACK_TOKEN",
  "xoxb-4321-demotoken",
  "sk-ant-api03-hijklmnopqrstu-Zq81-vwxyz456abcd",
];

describe("redactSecrets: secret corpus", () => {
  it(`has at least 40 secret shapes (${SECRETS.length})`, () => expect(SECRETS.length).toBeGreaterThanOrEqual(40));
  for (const [i, s] of SECRETS.entries()) {
    it(`#${i + 1} ${s.kind}: ${s.text.slice(0, 36).replace(/\n/g, " ")}…`, () => {
      const out = redactSecrets(s.text);
      expect(out.text).toContain(`[REDACTED:${s.kind}]`);
      expect(out.kinds).toContain(s.kind);
      expect(out.text).not.toContain(s.secret);
      // No long piece of the secret survives either.
      for (let k = 0; k + 12 <= s.secret.length; k += 6) expect(out.text).not.toContain(s.secret.slice(k, k + 12));
    });
  }
});

describe("redactSecrets: look-alikes", () => {
  it(`has at least 20 look-alikes (${LOOK_ALIKES.length})`, () => expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(20));
  for (const text of LOOK_ALIKES) {
    it(`leaves alone: ${text.slice(0, 50).replace(/\n/g, " ")}`, () => {
      expect(redactSecrets(text)).toEqual({ text, kinds: [] });
    });
  }
});

describe("redactSecrets: properties", () => {
  it("is idempotent", () => {
    for (const s of SECRETS) {
      const once = redactSecrets(s.text).text;
      expect(redactSecrets(once)).toEqual({ text: once, kinds: [] });
    }
  });
  it("never changes text without secrets (arbitrary words)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("the", "build", "failed", "again", "why", "did", "you", "push", "to", "main", "4096", "tokens", "key", "v2.1"), { maxLength: 20 }), (words) => {
        const text = words.join(" ");
        expect(redactSecrets(text).text).toBe(text);
      }),
    );
  });
  it("the literal pre-checks skip no match: same result as running every rule's regex", () => {
    // Texts spliced from pieces of the whole corpus (secrets and look-alikes), cut at random
    // points and joined by separators, so secrets land next to every kind of neighbour.
    const pieces = [...SECRETS.map((s) => s.text), ...LOOK_ALIKES];
    const piece = fc.tuple(fc.constantFrom(...pieces), fc.nat(), fc.nat()).map(([t, a, b]) => {
      const from = a % (t.length + 1);
      return t.slice(from, from + 1 + (b % (t.length + 1)));
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.constantFrom(" ", "\n", "=", ": ", "@", "://", "\"", "key", "Token", "SECRET", "Basic ")), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(redactSecrets(text)).toEqual(redactSecretsUnfiltered(text));
      }),
      { numRuns: 2000, seed: 20261130 },
    );
    for (const s of SECRETS) expect(redactSecrets(s.text)).toEqual(redactSecretsUnfiltered(s.text));
  });
  it("one pre-filter run over joined fields clears them only when each alone is cleared (and so unchanged)", () => {
    // Writers of several fields (an erratum, a deep context) check their join once: a
    // condition that holds in one part must hold in the join, wherever the part sits.
    const piece = corpusSlice();
    const field = fc.oneof(piece, fc.string({ maxLength: 30 }), fc.constantFrom("", "see runtime/privacy/redact.ts", "/home/ana/projects/shop", "no, that's wrong"));
    let flagged = 0;
    fc.assert(
      fc.property(fc.array(fc.option(field, { nil: null }), { maxLength: 6 }), (fields) => {
        const parts = fields.filter((f): f is string => f !== null);
        if (parts.some((p) => mayHoldSecret(p))) {
          flagged++;
          expect(allCleared(fields), JSON.stringify(parts).slice(0, 300)).toBe(false);
        }
        if (allCleared(fields)) for (const p of parts) expect(redactSecretsUnfiltered(p).text).toBe(p);
      }),
      { numRuns: 1500, seed: 20261202 },
    );
    expect(flagged).toBeGreaterThan(200); // the property is not vacuous: 257 of 1,500 runs held a flagged part
    expect(allCleared([null, "", "run the tests"])).toBe(true);
    expect(allCleared(["run the tests", null, SECRETS[0]!.text])).toBe(false);
  });
  it("a part of an uncleared join, scanned only for the join's conditions, gets exactly its own candidates; its redaction is the redactor's", () => {
    // allCleared keeps an uncleared join's candidates, and each part (or a join of its parts)
    // is then scanned for those conditions alone (prefilter.ts `candidates(text, within)`).
    const piece = corpusSlice();
    const part = fc.oneof(piece, fc.string({ maxLength: 30 }), fc.constantFrom("see runtime/privacy/redact.ts", "name: DB_PASS", "value: x", "no, that's wrong"));
    let narrowed = 0;
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), fc.nat(), (parts, pick) => {
        const within = candidates(parts.join("\n"));
        if (within.first === null) return;
        const sub = parts.filter((_, i) => ((pick >> i) & 1) === 1);
        for (const t of [...parts, sub.join("\n")]) {
          const full = candidates(t);
          const scoped = candidates(t, within);
          expect({ rules: [...scoped.rules].sort(), keyword: scoped.keyword, first: scoped.first }).toEqual({ rules: [...full.rules].sort(), keyword: full.keyword, first: full.first });
          if (within.rules.size < 3) narrowed++;
        }
        // Through the front: the join (when its parts are not all known cleared) is kept as the
        // scope of the parts' scans, and each part is then redacted as the redactor does alone.
        allCleared(parts);
        for (const t of parts) expect(redactSecrets(t)).toEqual(redactSecretsUnfiltered(t));
      }),
      { numRuns: 1000, seed: 20261202 },
    );
    expect(narrowed).toBeGreaterThan(300); // most joins name few rules: the scoped scans are narrow
  });
  it("caseless() patterns match exactly what the same pattern matches under the i flag", () => {
    const sources = [
      `(^|[\\s{,;(?&'"\`$-])(["']?)(${SECRET_NAME})\\2(\\s*[:=]\\s*)(["']?)((?![$<{[]|\\[REDACTED)[^\\s"',;\`]{4,})\\5`,
      `(\\bname:\\s*["']?(${SECRET_NAME})["']?[\\s,]+value:\\s*)(["']?)((?!\\[REDACTED)[^\\s"']{4,})\\3`,
    ];
    const corpus = loadCorpus();
    const pieces = [...corpus.secrets.map((s) => s.text), ...corpus.lookAlikes.map((l) => l.text), "api_key", "Client-Secret", "AUTH_TOKEN", "name: DB_PASS value: x", "[redacted:x]"];
    const flip = (t: string, seed: number): string => [...t].map((c, i) => (((seed >> (i % 24)) & 1) === 1 ? c.toUpperCase() : c.toLowerCase())).join("");
    const text = fc.tuple(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 2 ** 24 }), fc.constantFrom(" ", "\n", "=", ": ")).map(([ps, seed, sep]) => ps.map((p, i) => (i % 2 === 0 ? flip(p, seed) : p)).join(sep));
    let matched = 0;
    for (const src of sources) {
      const withI = new RegExp(src, "gim");
      const rewritten = new RegExp(caseless(src), "gm");
      expect(rewritten.flags.includes("i")).toBe(false);
      fc.assert(
        fc.property(text, (t) => {
          const a = [...t.matchAll(withI)].map((m) => [m.index, ...m]);
          const b = [...t.matchAll(rewritten)].map((m) => [m.index, ...m]);
          if (a.length > 0) matched++;
          expect(b).toEqual(a);
        }),
        { numRuns: 600, seed: 20261202 },
      );
    }
    expect(matched).toBeGreaterThan(100);
  });
  it("testCaseless answers as the pattern with the i flag, the Kelvin sign and the dotted capital I included", () => {
    const patterns = [WORDS, SEQUENCES, /^(?:abc|def|xyz|123|456|789|0|test|demo|sample|foo|bar|baz|qux|dummy|my|[_-])+$/];
    const pieces = ["example", "placeholder", "your_", "dummy", "change-me", "replaceme", "insert_", "xxxx", "<api key>", "{{", "${", "abcdefgh", "qwertyui", "12345678", "test", "foo", "my", "_", "fa\u212Ae", "\u0130NSERT_", "Xk3mQ9vT2bLpR7sW", "\u017F", "ÄÖ", "k", "K", "i"];
    const flip = (t: string, seed: number): string => [...t].map((c, i) => (((seed >> (i % 24)) & 1) === 1 ? c.toUpperCase() : c.toLowerCase())).join("");
    const text = fc.oneof(
      fc.tuple(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 2 ** 24 })).map(([ps, seed]) => flip(ps.join(""), seed)),
      fc.string({ maxLength: 20 }),
    );
    let matched = 0;
    let special = 0;
    for (const re of patterns) {
      expect(re.flags).toBe("");
      const withI = new RegExp(re.source, "i");
      fc.assert(
        fc.property(text, (t) => {
          if (withI.test(t)) matched++;
          if (t.includes("\u212A") || t.includes("\u0130")) special++;
          expect(testCaseless(re, t)).toBe(withI.test(t));
        }),
        { numRuns: 600, seed: 20261207 },
      );
    }
    expect(matched).toBeGreaterThan(200);
    expect(special).toBeGreaterThan(20);
  });
  it("notSecretName answers as NOT_SECRET_NAMES on lower-cased names (every name it takes holds key or token)", () => {
    const names = fc.oneof(fc.stringMatching(NOT_SECRET_NAMES), fc.constantFrom("id", "key_id", "primary_key", "api_key", "max_tokens", "password", "public-key", "token"), fc.string({ maxLength: 16 }));
    let taken = 0;
    fc.assert(
      fc.property(names, (n) => {
        const lower = n.toLowerCase();
        if (NOT_SECRET_NAMES.test(lower)) taken++;
        expect(notSecretName(lower)).toBe(NOT_SECRET_NAMES.test(lower));
      }),
      { numRuns: 1000, seed: 20261207 },
    );
    expect(taken).toBeGreaterThan(200);
  });
  it("redacts several secrets in one text, each with its kind", () => {
    const text = `${SECRETS[0]!.text}\n${SECRETS[17]!.text}\nmail ana@example.com`;
    const out = redactSecrets(text);
    expect(out.kinds).toEqual(expect.arrayContaining(["openai-api-key", "github-token", "email"]));
  });
});

/** A slice of a secret or look-alike (this file's and the corpus's): the pieces the join properties are made of. */
function corpusSlice(): fc.Arbitrary<string> {
  const corpus = loadCorpus();
  const pieces = [...SECRETS.map((s) => s.text), ...LOOK_ALIKES, ...corpus.secrets.map((s) => s.text), ...corpus.lookAlikes.map((l) => l.text)];
  return fc.tuple(fc.constantFrom(...pieces), fc.nat(), fc.nat()).map(([t, a, b]) => {
    const from = a % (t.length + 1);
    return t.slice(from, from + 1 + (b % (t.length + 1)));
  });
}

describe("redactSecrets: examples found on upstream samples (issue 34)", () => {
  it("a URL password holding '@' is taken to the authority's last '@'; the host is kept", () => {
    // Before: "myR3alP" was taken and "ssw0rd@…" was written in clear.
    expect(redactSecrets("mongodb+srv://appuser:myR3alP@ssw0rd@cluster0.mongodb.net/db?x=1").text).toBe(
      "mongodb+srv://appuser:[REDACTED:url-password]@cluster0.mongodb.net/db?x=1",
    );
  });
  it("a URL's variables and user name are no secret and no mailbox", () => {
    for (const t of ["mongodb://$DB_USER:$DB_PASSWORD@cluster.example.net/app", "postgresql://app@db-7.example.net/main"]) expect(redactSecrets(t).text).toBe(t);
  });
  it("a value found as a secret is redacted wherever else it stands, and its first 24 characters with it", () => {
    // Before: only the named occurrence was redacted; the same value in prose stayed in clear.
    const v = "Xk3mQ9vT2bLpR7sWq8Zn4Hy";
    expect(redactSecrets(`DEPLOY_SECRET=${v}\nthe value ${v} was rotated`).text).toBe("DEPLOY_SECRET=[REDACTED:env-assignment]\nthe value [REDACTED:env-assignment] was rotated");
    const long = "Xk3mQ9vT2bLpR7sWq8Zn4HyT6cVb";
    const out = redactSecrets(`DEPLOY_SECRET=${long}\nold: ${long.slice(0, 25)}_cut here`).text;
    expect(out).toBe("DEPLOY_SECRET=[REDACTED:env-assignment]\nold: [REDACTED:env-assignment] here");
  });
  it("a secret URL's first characters are no secret: a placeholder webhook beside a real one stays", () => {
    const placeholder = "https://hooks.slack.com/services/TXXXXX/BXXXXX/XXXXXXXXXX";
    const out = redactSecrets(`${placeholder} and https://hooks.slack.com/services/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`).text;
    expect(out).toBe(`${placeholder} and [REDACTED:slack-webhook-url]`);
  });
  it("a value masked from the match's end on is a masked value", () => {
    const t = '"token": "xoxp-572370529330-573807301142-572331691188-####################"';
    expect(redactSecrets(t).text).toBe(t);
  });
});

describe("redactSecrets: upstream's verdict for the broad rules, references, document ids (issue 34, third pass)", () => {
  const mixedHex = (n: number): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdefABCDEF"[Math.floor(rand() * 22)];
    return s;
  };
  it("a named value the generic rule's stopwords or allowlists let through is kept; a random one beside it is not", () => {
    // A documented example key, among gitleaks' generic stopwords; a CSRF token (its allowlist names them).
    for (const t of [',apiKey:"6fe4476ee5a1832882e326b506d14126",', `csrf-token=${r(64, B64)}==`]) expect(redactSecrets(t).text).toBe(t);
    expect(redactSecrets(`,apiKey:"${r(32, HEX)}",`).text).toBe(',apiKey:"[REDACTED:env-assignment]",');
  });
  it("a stopword is no reason when a random token is left without it; a strong name keeps a letters-only password", () => {
    expect(redactSecrets(`API_TOKEN=Sandbox${r(32)}`).text).toBe("API_TOKEN=[REDACTED:env-assignment]");
    expect(redactSecrets("DB_PASSWORD=qwzxplmkrtvbnhgf").text).toBe("DB_PASSWORD=[REDACTED:env-assignment]");
    expect(redactSecrets('{"password":"password"}').text).toBe('{"password":"[REDACTED:env-assignment]"}');
  });
  it("a prefix a gitleaks rule knows, with a body that rule rejects, is left to it unless the body is a random token of the whole alphabet", () => {
    // sourcegraph's rule wants sgp_ + 16 or "local" + 40 hex digits; a hex body in both cases is no format of anyone's.
    const nearMiss = `sgp_${mixedHex(20)}_${mixedHex(40)}`;
    expect(redactSecrets(nearMiss).text).toBe(nearMiss);
    // A format that grew (Shopify's keys got longer) is still the provider's key.
    expect(redactSecrets(`shpat_${r(40)}`).text).toBe("[REDACTED:prefixed-token]");
  });
  it("a disowned finding that touches a kept one is kept: no part of the token stays in clear", () => {
    const t = `ghs_12345_${jwt}`;
    const out = redactSecrets(t).text;
    expect(out).toMatch(/^\[REDACTED:[a-z-]+\]$/);
  });
  it("values made only of variable references are kept, by every rule; a default written out is a value", () => {
    const refs = 'curl -u "${USER:-${DEFAULT_USER}}:${APIKEY:-${DEFAULT_APIKEY}}"';
    expect(redactSecrets(refs).text).toBe(refs);
    const token = r(32);
    expect(redactSecrets(`curl -u "admin:\${APIKEY:-${token}}"`).text).not.toContain(token.slice(0, 12));
  });
  it("document ids in URLs are kept; a token in a webhook's path is not", () => {
    for (const t of [`https://docs.google.com/document/d/${r(44, B64URL)}/edit`, `https://team.notion.site/Release-Plan-Draft-${r(32, HEX)}?pvs=4`]) expect(redactSecrets(t).text).toBe(t);
    // Only the segment: the folders and host before it are kept (they were taken with it before).
    expect(redactSecrets(`https://hooks.example.com/services/${r(32)}`).text).toBe("https://hooks.example.com/services/[REDACTED:url-token]");
  });
  it("a value that spells its key's name, and a camelCase name with acronyms, are identifiers", () => {
    for (const t of [
      'pub const SN_id_Gost28147_89_None_KeyMeshing = "id-Gost28147-89-None-KeyMeshing"',
      'div[data-cel-widget="desktop-rhf_SponsoredProductsRemoteRHFSearchEXPSubsK2ClickPagination"]',
    ])
      expect(redactSecrets(t).text).toBe(t);
  });
  it("random tokens are never taken for placeholders or references (fast-check)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 24, maxLength: 64 }), fc.constantFrom("API_KEY", "DEFAULT", "x"), (tok, name) => {
        fc.pre(/[A-Z]/.test(tok) && /[a-z]/.test(tok) && /\d/.test(tok));
        expect(notASecret(tok)).toBe(false);
        expect(onlyReferences(`\${${name}:-${tok}}`)).toBe(false);
        expect(onlyReferences(`\${${name}:-\${${name}_DEFAULT}}:$${name}`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("redactSecrets: provider formats and general forms added in issue 34's fourth pass", () => {
  const LNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
  const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const gone = (t: string, secret: string): void => {
    const out = redactSecrets(t).text;
    expect(out, t).toContain("[REDACTED:");
    expect(out, t).not.toContain(secret.slice(-12));
  };
  const kept = (t: string): void => expect(redactSecrets(t).text, t).toBe(t);

  it("Alibaba Cloud STS key ids (\"STS.\" and a random id); a word after STS. is kept", () => {
    const id = `STS.${r(24)}`;
    gone(`export ALIBABA_CLOUD_ACCESS_KEY_ID=${id}`, id);
    gone(`the temporary key id ${id} expires in an hour`, id);
    kept("the STS.AssumeRole call and STS.GetCallerIdentity both failed");
  });
  it("CircleCI personal and project tokens (CCIPAT_/CCIPRJ_, a base58 UUID, 40 hex); the prefix alone is kept", () => {
    for (const p of ["CCIPAT", "CCIPRJ"]) {
      const tok = `${p}_${r(22, B58)}_${r(40, HEX)}`;
      gone(`circleci setup --token ${tok}`, tok);
    }
    kept("CircleCI tokens now start with CCIPAT_ or CCIPRJ_");
  });
  it("Fly.io tokens after the FlyV1 scheme word, whatever the macaroon's own prefix", () => {
    const tok = `${r(60, B64)},${r(40, B64)}`;
    gone(`Authorization: FlyV1 ${tok}`, tok);
  });
  it("a prefix with a one-case random body of 32 or more (Neon, Django); a git SHA or a hex digest after a prefix is kept", () => {
    const neon = `napi_${r(64, LNUM)}`;
    gone(`NEON_API_KEY=${neon}`, neon);
    gone(`neonctl --api-key ${neon}`, neon);
    const django = `django-insecure-${r(50, LNUM)}`;
    gone(`SECRET_KEY = '${django}'`, django);
    kept(`commit-${"4e1243bd22c66e76c2ba9eddc1f91394e57f9f83"} was reverted`);
    kept("sha256-e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    kept("build-abcdefghijklmnopqrstuvwxyzabcdefgh fails");
  });
  it("an upper-case prefix and a random body of both cases (CockroachDB's CCDB1_, Heroku's HRKU-); constants are kept", () => {
    const tok = `CCDB1_${r(22)}_${r(30)}`;
    gone(`COCKROACH_API_KEY=${tok}`, tok);
    kept("MAX_RETRY_COUNT_FOR_UPLOADS_PER_USER is 5");
    kept("HTTP_X_FORWARDED_FOR_HEADER_NAME");
  });
  it("a random token standing alone in prose or a call; hashes, ids, base64 pieces, public keys and named ids are kept", () => {
    for (const tok of [r(32), r(40, B64URL), r(28)]) {
      gone(`just use ${tok} for now`, tok);
      gone(`client = Client("${tok}")`, tok);
    }
    kept("git diff 4e1243bd22c66e76c2ba9eddc1f91394e57f9f83..9fceb02d0ae598e95dc970b74767f19372d61af8");
    kept("uid: 6f1c2a7e-93d4-4b8a-a1f0-2c5e7d9b3a64");
    kept("request id 01HZX3K8Q4M7N2P5R9T1V6W0YB failed");
    kept("handleSubmitButtonClickAsyncWrapper2Final is the handler");
    kept(`<img src="data:image/png;base64,${r(40, B64)}/${r(30)}==">`);
    kept(`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA${r(40)} ana@laptop`);
    kept(`-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF${r(58)}\n-----END PGP PUBLIC KEY BLOCK-----`);
    // A name that is no secret's says what the value is; a secret's name does not spare it.
    kept(`rowChecksum = ${r(40)}`);
    const named = r(40);
    gone(`session_token = ${named}`, named);
  });
  it("a password given to LDAP tools (-w), sqlcmd (-P) and a registry login (-p, --password); other flags are kept", () => {
    const pw = r(14);
    gone(`ldapsearch -x -D cn=admin,dc=corp -w ${pw} -b dc=corp`, pw);
    gone(`sqlcmd -S db01 -U sa -P ${pw} -Q "select 1"`, pw);
    gone(`docker login -u ana -p ${pw} ghcr.io`, pw);
    gone(`helm registry login ghcr.io --username ana --password ${pw}`, pw);
    kept("docker run -p 8080:80 nginx");
    kept("mysql -P 3306 -h db");
  });
  it("a token given to a tool's login or auth subcommand (hex, UUID or random); words are kept", () => {
    const hex = r(40, HEX);
    gone(`wandb login ${hex}`, hex);
    const uuid = "3b8e0f52-7a41-4c9d-8e26-1f5a9c0d7b34";
    gone(`snyk auth ${uuid}`, uuid);
    kept("gh auth login --with-token < token.txt");
    kept("run the login flow again and then auth refresh_everything_for_all_users");
  });
  it("a config directive's secret (requirepass, psk=, *_PAT=) and a value written to a key file; sentences are kept", () => {
    const pw = r(24);
    gone(`# redis.conf\nrequirepass ${pw}\n`, pw);
    gone(`network={\n  psk="${pw}"\n}`, pw);
    const pat = r(52, "abcdefghijklmnopqrstuvwxyz234567");
    gone(`AZURE_DEVOPS_EXT_PAT=${pat}`, pat);
    const key = r(32, HEX);
    gone(`echo ${key} > config/master.key`, key);
    kept("password combination.\n\nnext paragraph");
    kept("token expired\n");
    kept("COMPAT=true");
    kept("echo hello > notes.txt");
  });
  it("a password in an HTTP client's (user, password) pair", () => {
    const pw = r(32, HEX);
    gone(`mailjet = Client(auth=(api_key, '${pw}'))`, pw);
    gone(`requests.get(url, auth=("ana", "${pw}"))`, pw);
  });
  it("a named value whose own format a provider's rule rejects, and hand-typed test values under weak names, are kept; cut tokens are not", () => {
    kept('"token3": "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"');
    kept("elastic_token = essu_abc123");
    expect(redactSecrets('{"password": "test123"}').text).toBe('{"password": "[REDACTED:env-assignment]"}');
    const cut = `xkeysib-${r(64, HEX)}-${r(14)}`;
    gone(`echo sendinblue says the v3 key ${cut}…`, cut);
  });
});

describe("redactSecrets: near-misses, encoded text and the stricter random test (issue 34, fifth pass)", () => {
  const HEX = "0123456789abcdef";
  const gone = (t: string, secret: string): void => {
    const out = redactSecrets(t).text;
    expect(out, t).toContain("[REDACTED:");
    expect(out, t).not.toContain(secret.slice(-12));
  };
  const kept = (t: string): void => expect(redactSecrets(t).text, t).toBe(t);

  it("a random token beside \"~\" or right after \"@\" is a piece of a longer value; the same token standing alone is not", () => {
    const a = r(30);
    const b = r(34);
    kept(`signature=${a}~${b}~${r(26)}`);
    kept(`key URI KSK@${a},${r(8)}`);
    gone(`paste ${a} into the field`, a);
  });
  it("base64 of text with no secret in it is an encoded id or host, not a key; base64 of random bytes or of a user:password pair is not kept", () => {
    kept(`the node id ${b64url("gid://example/Product/Shirt-Blue")} is in the cart`);
    kept(`bedrock-api-key-${Buffer.from("bedrock.example.net").toString("base64")}`);
    const random = Buffer.from(Array.from({ length: 30 }, () => Math.floor(rand() * 256))).toString("base64url");
    gone(`use ${random} for now`, random);
    const pair = `tok_${Buffer.from("ana:Pw7xQ2mL9vR4").toString("base64url")}`;
    gone(`AUTH=${pair}`, pair);
  });
  it("a known provider's prefix with a near-miss body (hex with a few letters past f, encoded text) is kept; a strong random body is redacted", () => {
    let nearHex = r(40, HEX);
    nearHex = `${nearHex.slice(0, 6)}G${nearHex.slice(7, 20)}K${nearHex.slice(21)}`;
    kept(`sgp_${r(16, HEX)}_${nearHex.slice(0, 39)}X`);
    const strong = `sgp_${r(40)}`;
    gone(`token: ${strong}`, strong);
  });
  it("a key named by a provider (whose rule exists) with a value not of its format is kept, unless a key generator made it", () => {
    let mixedHex = r(40, HEX);
    mixedHex = `${mixedHex.slice(0, 5)}F${mixedHex.slice(6)}`;
    kept(`meraki_api_key: ${mixedHex}`);
    kept("SUMO_ACCESS_KEY: Ab3dEfG7");
    // A value of the provider's format, one a generator makes, or a password under its name: redacted.
    const meraki = r(40, HEX);
    gone(`meraki_token = ${meraki}`, meraki);
    const random = r(36);
    gone(`meraki_token = ${random}`, random);
    const uuid = "5d0c9e3a-7b21-4f68-9a4e-0b1c2d3e4f5a";
    gone(`codecov_token = ${uuid}`, uuid);
    gone(`MERAKI_PASSWORD=${mixedHex}`, mixedHex);
    // No provider named: a random value under a secret's name stays a secret.
    gone(`other_token = ${mixedHex}`, mixedHex);
  });
  // Measured: 48 of 20,000 rejected (0.24%), 46 of them by the word-run test the random-token
  // rule had before; the quarter beyond hex and the entropy floor reject 2.
  it("the stricter test: random tokens of 24-64 of the 62 letters and digits pass it at least 997 times in 1,000; encoded text is never one (seeded sample)", () => {
    const g = prng(20261207);
    let rejected = 0;
    let encoded = 0;
    const N = 20_000;
    for (let i = 0; i < N; i++) {
      const n = 24 + Math.floor(g() * 41);
      let s = "";
      for (let j = 0; j < n; j++) s += ALNUM[Math.floor(g() * ALNUM.length)];
      if (!/[a-z]/.test(s) || !/[A-Z]/.test(s) || !/\d/.test(s)) continue;
      if (!strongRandom(s)) rejected++;
      if (encodedText(s)) encoded++;
    }
    expect(encoded).toBe(0);
    expect(rejected / N).toBeLessThan(0.003);
    for (const id of ["gid://shop/Product/1234", "https://api.example.com/v1/things", '{"alg":"HS256","typ":"JWT"}']) expect(encodedText(Buffer.from(id).toString("base64url")), id).toBe(true);
    expect(encodedText(Buffer.from("ana:hunter2pass").toString("base64"))).toBe(false);
  });
});

describe("redactSecrets: a password file line and a password in a sentence (issue 34, fifth pass)", () => {
  const gone = (t: string, secret: string): void => {
    const out = redactSecrets(t).text;
    expect(out, t).toContain("[REDACTED:");
    expect(out, t).not.toContain(secret);
  };
  const kept = (t: string): void => expect(redactSecrets(t).text, t).toBe(t);

  it("a .pgpass line (host:port:database:user:password; port or '*'; escaped colons); times, MAC and IPv6 addresses, port maps are kept", () => {
    const pw = r(18);
    gone(`db.internal:5432:shop:app:${pw}`, pw);
    gone(`*:*:*:replicator:${pw}\n`, pw);
    gone(`cat ~/.pgpass\n10.0.0.7:6432:billing:ana:${pw}`, pw);
    gone(`PGPASS="localhost:5432:app:app:${pw}"`, pw);
    kept("12:30:45 and 2026:12:07:04:25");
    kept("00:1a:2b:3c:4d:5e");
    kept("fe80:0:0:0:0:0:0:1");
    kept("docker run -p 127.0.0.1:8080:80 nginx");
    kept("db.internal:5432:shop:app:$PGPASSWORD");
  });
  it("a password after a log-in verb and 'with'/'using', or after the word password, in prose; words, versions, addresses and paths are kept", () => {
    for (const pw of ["aZ3kP9qLmX12", "Tr0ub4dor&3x", "k7Pq-2mZ!x9"]) {
      gone(`log in as admin with ${pw} and check the billing page`, pw);
      gone(`you can sign in using ${pw}.`, pw);
      gone(`the password is ${pw}, change it`, pw);
      gone(`Logged in with the password "${pw}" fine`, pw);
    }
    kept("sign in with Google and then log in with GitHub");
    kept("log in with OAuth2.0 or Python3 tooling");
    kept("log in with admin/admin on https://example.com/login");
    expect(redactSecrets("log in with ana@example.com").kinds).toEqual(["email"]);
    kept("log in with ~/.ssh/id_ed25519 or $DEPLOY_PASSWORD");
    kept("the password field must be at least 12 characters long");
    kept("the password is required_field_name");
    kept("password is incorrect, please try again");
  });
  it("the pre-filter's words for it are the rule's own", () => {
    expect([...PROSE_WORDS]).toEqual([...PROSE_PASSWORD_WORDS]);
    expect(PROSE_WORDS).toContain("logged in");
    expect(PROSE_WORDS).not.toContain("log");
  });
  it("a random password of 12 of the 62 letters and digits is taken in prose about 83 times in 100 (seeded sample); words with versions never", () => {
    const g = prng(20261207);
    let taken = 0;
    const N = 5_000;
    for (let i = 0; i < N; i++) {
      let s = "";
      for (let j = 0; j < 12; j++) s += ALNUM[Math.floor(g() * ALNUM.length)];
      if (passwordLike(s)) taken++;
    }
    // Measured: 4,132 of 5,000 (82.6%); the rest have no digit, or one case only, or digits only at an end.
    expect(taken / N).toBeGreaterThan(0.8);
    for (const w of ["OAuth2.0", "Python3.12", "Windows11", "iPhone15Pro", "ES2022target"]) expect(passwordLike(w), w).toBe(w === "iPhone15Pro" || w === "ES2022target");
  });
});

describe("redactSecrets: a provider's allowlist of the secret itself is honoured whatever rule found it (issue 34, fifth pass)", () => {
  it("Google's public API keys that gitleaks' rule lists are kept under a name too; a random key of the same format is not", () => {
    // Read from the rule data (gitleaks' allowlist of documented public keys), not copied here.
    const listed = (gitleaksRule("gcp-api-key")?.rule.allow() ?? []).flatMap((a) => a.regexes.map((re) => re.source)).filter((s) => /^AIza[\w-]{35}$/.test(s));
    expect(listed.length).toBeGreaterThan(3);
    for (const k of listed) for (const t of [`GOOGLE_API_KEY=${k}`, `const apiKey = "${k}";`]) expect(redactSecrets(t).text, t).toBe(t);
    const random = `AIzaSy${r(33, B64URL)}`;
    expect(redactSecrets(`GOOGLE_API_KEY=${random}`).text).toBe("GOOGLE_API_KEY=[REDACTED:google-api-key]");
  });
});

describe("redactSecrets: a near-miss never spares what a key generator makes (issue 34, fifth pass)", () => {
  // It found, when written: a random token half in word-like runs under `travis_token` kept by
  // the first near-miss version; and, before this pass, a lower-case random key with one digit
  // under `nrak_token` taken for an identifier of words, and a hex key under `rapidapi_token`
  // let through by the generic rule's allowlist ("rapid"). Each fixed generally.
  it("under every provider name gitleaks' rules know (a keyword of four letters or more), a strong random token, a one-case random run, 32 hex digits and a UUID are redacted", () => {
    const names = [...new Set(gitleaksRules().filter((g) => g.id !== "generic-api-key").flatMap((g) => g.keywords).filter((k) => /^[a-z]{4,}$/.test(k)))];
    expect(names.length).toBeGreaterThan(50);
    const leaks: string[] = [];
    for (const name of names) {
      // A one-case value gets a digit: letters only is a shape gitleaks' global allowlist lets
      // through under a name that is not a strong one, on purpose.
      const oneCase = (): string => `${r(23, "abcdefghijklmnopqrstuvwxyz0123456789")}${Math.floor(rand() * 10)}`;
      const values = [0, 1, 2].flatMap(() => [r(32), r(20 + Math.floor(rand() * 30)), oneCase(), r(32, "0123456789abcdef")]);
      values.push("9f1c2a7e-93d4-4b8a-a1f0-2c5e7d9b3a64");
      for (const v of values) for (const t of [`${name}_token = ${v}`, `${name.toUpperCase()}_API_KEY="${v}"`]) if (redactSecrets(t).text.includes(v)) leaks.push(`${t}`);
    }
    expect(leaks).toEqual([]);
  });
});

describe("redactSecrets: generated keys under generic secret names (issue 34, fifth pass)", () => {
  // Measured (seed 7, 4,950 texts): 9 in clear on this pass (3 values, each in its 3 forms), 12
  // on the build before it (a random token of 62 with one digit taken for an identifier of
  // words, a key under a bare weak name); a ceiling, so that a change that spares more fails here.
  it("a random token of 62, a one-case random key and 32 hex digits under api_token, key, … are redacted but for a measured few", () => {
    const g = prng(7);
    const pick = (n: number, a: string): string => Array.from({ length: n }, () => a[Math.floor(g() * a.length)]).join("");
    const LNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
    const names = ["api_token", "service_key", "session_token", "client_token", "ACCESS_TOKEN", "auth_token", "webhook_secret", "x_api_key", "token", "key", "deploy_key"];
    const leaks: string[] = [];
    let total = 0;
    for (let i = 0; i < 150; i++) {
      for (const n of names) {
        const v = i % 3 === 0 ? pick(32, ALNUM) : i % 3 === 1 ? `${pick(23, LNUM)}${Math.floor(g() * 10)}` : pick(32, "0123456789abcdef");
        for (const t of [`${n} = ${v}`, `${n.toUpperCase()}="${v}"`, `"${n}": "${v}"`]) {
          total++;
          if (redactSecrets(t).text.includes(v)) leaks.push(t);
        }
      }
    }
    process.stdout.write(`generated keys under generic secret names: ${leaks.length}/${total} in clear\n`);
    expect(leaks.length).toBeLessThanOrEqual(9);
  });
});

describe("redactSecrets: the sixth pass's forms (issue 34, the fourth held-out set's misses, by form)", () => {
  // Values made up here, not the held-out set's: each form with a password or key it must take,
  // and a near text it must keep.
  const taken: [string, string][] = [
    ["Das Kennwort vom Testrechner lautet Qx7mWp2kLr9z", "Qx7mWp2kLr9z"],
    ["a senha do banco é Hb4nTq8wZe2x", "Hb4nTq8wZe2x"],
    ["het wachtwoord is Rt5yUi8oPq3w", "Rt5yUi8oPq3w"],
    ["salasana on Mn3bVc7xZl2k", "Mn3bVc7xZl2k"],
    ["lösenordet är Kj8hGf4dSa2q", "Kj8hGf4dSa2q"],
    ["관리자 비밀번호는 Wq2eRt6yUi9o", "Wq2eRt6yUi9o"],
    ["ステージングのパスワードは Zx9cVb3nMq7w です", "Zx9cVb3nMq7w"],
    ["пароль: Lp4oKi8uJy2h", "Lp4oKi8uJy2h"],
    ["bitte einloggen mit dem Passwort Ty6uIo2pAs8d", "Ty6uIo2pAs8d"],
    ["connecte-toi avec Gh7jKl3zXc5v", "Gh7jKl3zXc5v"],
    ["credentials: deploy / Ws3eDr5tFg9yh", "Ws3eDr5tFg9yh"],
    ["net use \\\\files\\share /user:ACME\\bo Pw7qRs2tUv9x", "Pw7qRs2tUv9x"],
    ["net user svc_backup Bk4pLm8nQz2w /add", "Bk4pLm8nQz2w"],
    ["cmdkey /add:srv01 /user:ops /pass:Cm3dKy7pQw2e", "Cm3dKy7pQw2e"],
    ["    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM5ekNDQWQrZ0F3SUJBZ0lJ", "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM5ekNDQWQrZ0F3SUJBZ0lJ"],
    ["LD_KEY=mob-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d", "mob-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d"],
    ["new Ably.Rest('aB3dEf.Gh5iJk:Lm7nOp9qRs1tUv3wXy5zAb7cDe9fGh1iJk3')", "Lm7nOp9qRs1tUv3wXy5zAb7cDe9fGh1iJk3"],
    ["GET /v1/forecast?city=Bergen&api_key=9f8e7d6c5b4a39281716f5e4d3c2b1a0", "9f8e7d6c5b4a39281716f5e4d3c2b1a0"],
    ["summary: https://x.example.com/hook/1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9@9e8d…", "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9"],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    expect(redactSecrets(text).text).not.toContain(secret);
  });
  const kept = [
    "das Passwort ist zu kurz, bitte ein längeres wählen",
    "la contraseña es obligatoria",
    "パスワードは 8 文字以上にしてください",
    "net use Z: \\\\files\\share * /user:ACME\\bo",
    "GET /v1/items?page=2&key=created_at",
    "Stripe('pk_live_51HqLyjWDarjtT1zdp7dcXnP2')",
    "pay to 0x52908400098527886E0F7030069857D2E4169EE7",
    "gpg --list-secret-keys 9A1B2C3D4E5F6071",
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});

describe("redactSecrets: over-redaction, issue 34's seventh pass", () => {
  it("a URL's port and database after its redacted password are kept: a marker's kind is no word of the text", () => {
    // The URL password's marker ("[REDACTED:url-password]") put the word password before the
    // host's colon, and a later pass took "5432/appdb1" for a password in prose.
    for (const [text, pw, rest] of [
      ["DATABASE_URL=postgres://app:Xk9pQz3Lw@localhost:5432/appdb1", "Xk9pQz3Lw", "@localhost:5432/appdb1"],
      ["amqp://guest:Hq7pQz3Lw@rabbitmq:5672/vhost1", "Hq7pQz3Lw", "@rabbitmq:5672/vhost1"],
    ] as const) {
      const out = redactSecrets(text).text;
      expect(out).not.toContain(pw);
      expect(out).toContain(`[REDACTED:url-password]${rest}`);
    }
    // The words themselves still wake the rule.
    expect(redactSecrets("the password for localhost: Hq7pQz3Lw9").text).not.toContain("Hq7pQz3Lw9");
  });

  it("for every kind, what follows a marker is redacted as it is after a marker of no kind (the build before this pass: 47 of 7,848 differed)", () => {
    const kinds = [...new Set([...[...EARLY_RULES, ...SPECIFIC_RULES, ...LATE_RULES].map((r) => r.kind), ...gitleaksRules().map((g) => kindOf(g.id)), "known-secret"])];
    const differ: string[] = [];
    for (const k of kinds)
      for (const sep of [" ", ": ", "=", "@localhost:", " is ", " with ", "\n", '": "', " / "])
        for (const v of ["5432/appdb1", "Hq7pQz3Lw9", "aZ3kQm9xWv2pLr8tYb4nHc6d", "example_value_1"]) {
          const after = redactSecrets(`[REDACTED:${k}]${sep}${v}`).text;
          const neutral = redactSecrets(`[REDACTED:x]${sep}${v}`).text.replace("[REDACTED:x]", `[REDACTED:${k}]`);
          if (after !== neutral) differ.push(after);
        }
    expect(kinds.length).toBeGreaterThan(200);
    expect(differ).toEqual([]);
  });

  // The privacy side of the trade-off docs/privacy.md measures ("Still not met"): real-looking
  // secrets of the three kinds the remaining upstream false samples are, generated (seed 34,
  // 1,000 a kind). Measured on this pass: 272 prefixed tokens in clear (hex bodies behind an
  // unknown prefix, a known gap: a git SHA or digest after a prefix is kept), 4 named values
  // (base64 keys that start with "/", read as paths; none since the eighth pass, own-shapes.ts
  // slashKey) and no bare token. Ceilings, so that a change that spares more of them to spare
  // upstream false samples fails here.
  it("generated secrets of an unknown provider: behind a prefix, under a secret's name or standing alone, stay redacted but for a measured few", () => {
    const counts = { prefixed: 0, named: 0, bare: 0 };
    for (const s of generatedSecrets(34, 1000)) if (inClear(redactSecrets(s.text).text, s.secret)) counts[s.kind]++;
    process.stdout.write(`generated secrets in clear (seed 34, 1,000 a kind): prefixed ${counts.prefixed}, named ${counts.named}, bare ${counts.bare}\n`);
    // 205 since the eighth-set pass (a prefix that says secret key and hex: own-families.ts prefixed-key).
    expect(counts.prefixed).toBeLessThanOrEqual(205);
    expect(counts.named).toBe(0);
    expect(counts.bare).toBe(0);
  });
});

describe("redactSecrets: a named value cut by a clip mark (issue 34, the fifth held-out set's door leak)", () => {
  // A tool call's summary clips a long command ("--set config.token=glagent-vOdg…"): the named value
  // holds the clip mark, so its provider's rule, finding no whole key, is no verdict on it.
  it.each([
    // Cut before the body's first digit: the clipped-token rule's random test (two digits) does
    // not take what is left, so the named-value rule is the one that must.
    ["echo helm upgrade agent --set config.token=glagent-QmpRzLxWab…", "glagent-QmpRzLxWab"],
    ["Bash: deploy --set auth.token=glpat-HxkPqmVzab…", "glpat-HxkPqmVzab"],
    ["summary: api_token=pscale_tkn_TqwErPzLmab…", "pscale_tkn_TqwErPzLmab"],
  ])("takes all of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    for (let i = 0; i + 8 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 8));
  });
});

describe("redactSecrets: the seventh pass's forms (issue 34, the fifth held-out set's misses, by form)", () => {
  // Values, providers, languages and configs made up here, none the held-out set's: each form with
  // a secret it must take, and near texts it must keep.
  const lower = (n: number): string => Array.from({ length: n }, (_, i) => "abcdefghijklmnopqrstuvwxyz"[Math.floor(rand() * 26)] ?? "q" + String(i)).join("");
  const b64json = (o: object): string => Buffer.from(JSON.stringify(o)).toString("base64").replace(/=+$/, "");
  const gz = (o: object): string => gzipSync(Buffer.from(JSON.stringify(o))).toString("base64");
  const app = `${lower(4)}-${lower(4)}-${lower(4)}-${lower(4)}`;
  const google = `${lower(4)} ${lower(4)} ${lower(4)} ${lower(4)}`;
  const tunnel = b64json({ AccountTag: r(32, HEX), TunnelSecret: r(44, B64), TunnelID: "3f1c2a9e-7b4d-4e8a-9c61-2d5f0e7a8b93" });
  const [hex32, hex32b, hex40] = [r(32, HEX), r(32, HEX), r(40, HEX)];
  const [v12, v14, v16, v18, v20, v24, v28, v30, v32, v40] = [r(12), r(14), r(16), r(18), r(20), r(24), r(28), r(30), r(32), r(40)];
  const [long, b33, b60, d43, b64] = [r(120, B64URL), r(33, B64URL), r(60, B64URL), r(43, B64URL), r(64, B64)];
  const taken: [string, string][] = [
    // Provider formats from their docs.
    [`pago con TEST-4812093345671290-120311-${hex32}-1022334455 hoy`, hex32],
    [`use ATATT3xFfGF0${long} for the bot`, long],
    [`requests.get(f"https://api.telegram.org/bot7702194836:AAF${b33}/getUpdates")`, b33],
    [`\\Midtrans\\Config::$serverKey = 'SB-Mid-server-${v24}';`, v24],
    [`PuTTY-User-Key-File-2: ssh-rsa\nEncryption: aes256-cbc\nComment: ops\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQABAAAAgQ\nPrivate-Lines: 2\n${b64}\n${v20}\nPrivate-MAC: 00ff`, b64 + v20],
    [`cloudflared tunnel run --token ${tunnel}`, tunnel],
    // Authorization headers of any scheme; a JWK's private member.
    [`headers = {"Authorization": "SSWS 00${v40}"}`, v40],
    [`curl -H "Authorization: Token ${hex40}" https://api.example.org/v1/`, hex40],
    [`{"kty":"EC","crv":"P-256","d":"${d43}","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"}`, d43],
    // Secrets named by an XML attribute, in other frameworks' configs.
    [`<bean id="ds"><property name="password" value="${v18}"/></bean>`, v18],
    [`<entry key="db.secret">${v20}</entry>`, v20],
    [`<property name="deploy.token" value="${v30}" />`, v30],
    // Names, pairs and calls.
    [`ssh_pass_phrase: ${v16}`, v16],
    [`es = Elasticsearch("https://es.internal:9200", http_auth=("elastic", "${v20}"))`, v20],
    [`mail = imaplib.IMAP4_SSL("imap.fastmail.example"); mail.login("ops", "${v16}")`, v16],
    [`ftp.login("deploy", "${google}")`, google],
    // Command lines.
    [`jarsigner -keystore release.jks -storepass ${v16} app.apk upload`, v16],
    [`./migrate --db-password ${v14} --host db.internal`, v14],
    [`mongosh "mongodb://db.internal" -u admin -p ${v18} --authenticationDatabase admin`, v18],
    [`notarytool submit App.zip -u me@mac.example -p ${app}`, app],
    [`expdp system/${v12}@//db.internal:1521/PDB1 directory=DP dumpfile=full.dmp`, v12],
    [`rman target sys/${v12}@prod catalog rco/${v14}@rcat`, v12 + v14],
    // A password in a sentence, more languages.
    ["heslo k serveru je Hq7wLp2mXz9k", "Hq7wLp2mXz9k"],
    ["a jelszó: Jb4nVc8xZq2w", "Jb4nVc8xZq2w"],
    ["parola este Pr5tYu7iOp3a", "Pr5tYu7iOp3a"],
    ["kata sandi wifi adalah Ks6dFg8hJk2l", "Ks6dFg8hJk2l"],
    ["ο κωδικός είναι Kw3eRt5yUi8o", "Kw3eRt5yUi8o"],
    ["הסיסמה היא Hs9aSd2fGh4j", "Hs9aSd2fGh4j"],
    ["رمز عبور: Rz4xCv6bNm8q", "Rz4xCv6bNm8q"],
    ["รหัสผ่าน คือ Th7qWe2rTy5u", "Th7qWe2rTy5u"],
    ["lozinka je Lz8pOi3uYt6r", "Lz8pOi3uYt6r"],
    ["adgangskoden er Ad2sFd5gHj7k", "Ad2sFd5gHj7k"],
    // A key or token in a sentence of any language.
    [`der API-Schlüssel für Prod ist ${v32}`, v32],
    [`la clé d'API de test est ${v28}`, v28],
    [`生产环境的密钥是 ${hex32b}`, hex32b],
    [`токен бота: ${v30}`, v30],
    [`시크릿은 ${v24} 입니다`, v24],
    [`مفتاح الواجهة هو ${v32}`, v32],
    [`the API key for staging is ${v32}`, v32],
    // A URL path token with base64 padding.
    [`POST https://collector.example.net/ingest/v2/${b60}== with the batch`, b60],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    for (let i = 0; i + 12 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 12));
  });
  const kept = [
    `<input type="hidden" name="csrf_token" value="${r(40)}">`,
    '<add key="PageSize" value="25" />',
    "<property name=\"hibernate.connection.password\">${DB_PASSWORD}</property>",
    "docker run -u 1000 -p 8080:80 nginx",
    "psql --no-password -h db.internal mydb",
    "git-remote-sync --token-file ~/.config/sync/token origin",
    "sqlplus / as sysdba",
    "the token is required for staging",
    'curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://run.googleapis.example/v1/projects/12345678901/jobs/4c2e8a1b-9d3f-4e6a-b7c5-0f1e2d3c4b5a',
    '<div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div>',
    `{"kty":"RSA","kid":"k1","n":"${r(86, B64URL)}","e":"AQAB"}`,
    `{"encoding":"gzip","body":"${gz({ event: "order.paid", order: "B-2027-004411", items: 2 })}"}`,
    "smtp_password = %(SMTP_PASSWORD)s\napi_token: %API_TOKEN%",
    "şifremi unuttum, sıfırlayabilir misin?",
    "la parola chiave è sicurezza",
    "mật khẩu phải có ít nhất 8 ký tự",
    "call the .login(user, password) helper with your own values",
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
  it("gzip data in base64 is read inflated: a document with ids is encoded text, one with a random key is not", () => {
    expect(encodedText(gz({ event: "order.paid", order: "B-2027-004411", items: 2 }))).toBe(true);
    expect(encodedText(gz({ event: "rotate", api_key: r(40) }))).toBe(false);
    expect(encodedText(gz({ event: "rotate", api_key: r(40) }).slice(0, 40))).toBe(false);
  });
  it("the pre-filter's words for a key in prose are the rule's own", () => {
    expect([...KEY_WORDS]).toEqual([...PROSE_KEY_WORDS]);
  });
  it("an app password is four groups of four lower-case letters, one separator throughout", () => {
    expect([appPassword("abcd-efgh-ijkl-mnop"), appPassword("abcd efgh ijkl mnop"), appPassword("abcd-efgh ijkl-mnop"), appPassword("abcd-efgh-ijkl"), appPassword("Abcd-efgh-ijkl-mnop")]).toEqual([true, true, false, false, false]);
  });
});

describe("redactSecrets: the eighth pass's forms (issue 34, the sixth held-out set's misses, by form)", () => {
  // Values, providers, languages and configs made up here, none the held-out set's: each form with
  // a secret it must take, and near texts it must keep. Their own PRNG: the file's shared one
  // draws at collection time, and a block that drew from it would change the blocks before.
  const own = prng(20261208);
  const r = (n: number, alphabet = ALNUM): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(own() * alphabet.length)];
    return alphabet.includes("a") && alphabet.includes("A") && n >= 8 ? `aZ${s.slice(2, -2)}47` : s;
  };
  const [hex32, hex40, hex56] = [r(32, HEX), r(40, HEX), r(56, HEX)];
  const [v12, v14, v16, v20, v24, v40] = [r(12), r(14), r(16), r(20), r(24), r(40)];
  const k32 = Buffer.from(Array.from({ length: 32 }, () => Math.floor(own() * 256))).toString("base64");
  const xprv = `zprvAWgYBBk7JR8Gj${r(94)}`;
  const taken: [string, string][] = [
    // An Authorization header with no scheme word (Unleash's tokens), a BIP32 private key.
    [`UNLEASH_API_TOKEN="*:development.${hex56}"`, hex56],
    [`curl -H "Authorization: []:production.${hex56}" https://flags.example.net/api/client/features`, hex56],
    [`headers = {"authorization": "${v40}"}`, v40],
    [`importmulti '[{"desc": "tr(${xprv}/86h/1h/0h/0/*)"}]'`, xprv],
    // Names the assignment rule lacked: a cloud's SK, a pepper, a gossip encrypt key.
    [`VOLCENGINE_AK=AKLTNmE4ZjI4 VOLCENGINE_SK=${v40}`, v40],
    [`sk: "${v24}"`, v24],
    [`password_pepper: ${hex40}`, hex40],
    [`nomad agent -server -encrypt=${k32}`, k32],
    [`{"encrypt": "${k32}", "datacenter": "dc2"}`, k32],
    // A Dockerfile's legacy ENV, at a line's start, folded onto one line, or in a JSON string.
    [`FROM node:22\nENV STRIPE_SECRET ${v24}\nRUN npm ci`, v24],
    [`FROM node:22 ENV SESSION_PEPPER ${hex32} RUN npm ci`, hex32],
    [`{"dockerfile":"FROM alpine\\nENV API_TOKEN ${v20}\\nCMD run"}`, v20],
    // Keywords naming a secret: EDN, Clojure, Emacs Lisp, Ruby.
    [`(def db {:subprotocol "mysql" :db/password "${v16}"})`, v16],
    [`{:api-key "${v20}" :region "eu"}`, v20],
    [`(auth-source-search :host "imap.example.org" :secret "${v14}")`, v14],
    [`client = Api.new(:access_token => '${v24}')`, v24],
    // A password set by SQL.
    [`ALTER USER reporting IDENTIFIED BY ${v12} ACCOUNT UNLOCK;`, v12],
    [`CREATE USER 'etl'@'%' IDENTIFIED WITH caching_sha2_password BY '${v16}';`, v16],
    [`CREATE ROLE grafana WITH LOGIN ENCRYPTED PASSWORD '${v14}';`, v14],
    [`CREATE LOGIN report_svc WITH PASSWORD = '${v16}', CHECK_POLICY = ON;`, v16],
    [`SET PASSWORD FOR 'app'@'localhost' = '${v12}';`, v12],
    // A key passed to an API client's constructor.
    [`const client = algoliasearch("ZK82HQ01XA", "${hex32}");`, hex32],
    [`var client = SearchClient.Create("ZK82HQ01XA", "${hex32}");`, hex32],
    [`let c = BillingClient::new("acct_8", "${hex40}");`, hex40],
    // A password in a sentence of a script that writes its words together.
    ["ตั้งรหัสผ่านใหม่แล้วคือ Tz4kWq8mNp2x", "Tz4kWq8mNp2x"],
    ["ລະຫັດຜ່ານແມ່ນ Lq7vBn3mKz9w", "Lq7vBn3mKz9w"],
    ["ពាក្យសម្ងាត់គឺ Km5rTy8uIo2p", "Km5rTy8uIo2p"],
    ["စကားဝှက်မှာ Mb3nVc6xZa9s", "Mb3nVc6xZa9s"],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    for (let i = 0; i + 12 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 12));
  });
  const kept = [
    // Near texts of the new forms.
    `docker pull registry.example.org/app@sha256:${r(64, HEX)}`,
    `commit ${r(40, HEX)} on origin:main.`,
    'Authorization: ${UNLEASH_TOKEN}\nheaders["Authorization"] = "Token " + key',
    "lang: sk\nlocale.sk = Slovak",
    "encrypt = true\nencrypt: false",
    `encrypt = "${Buffer.from("hello world, this is text").toString("base64")}"`,
    "ENV NODE_ENV production\nENV API_KEY_FILE /run/secrets/api_key",
    "we set the env TOKEN_TTL 3600 for staging",
    '{:user "app" :password-file "/etc/app/pw" :auth "basic"}',
    "CREATE USER u IDENTIFIED BY :pw;\nCREATE USER v IDENTIFIED BY RANDOM PASSWORD;\nALTER USER w IDENTIFIED BY ${DB_PASS};",
    "the rows are identified by their primary key",
    `git client checkout("${r(40, HEX)}")`,
    `const searchClient = algoliasearch("ZK82HQ01XA", "${r(32, HEX)}");`,
    "รหัสผ่านต้องมีอย่างน้อย 8 ตัวอักษร",
    // Keys their providers document as public.
    `mapboxgl.accessToken = "pk.${b64url('{"u":"maps-demo","a":"clx0q9w2h0abc"}')}.${r(22, B64URL)}";`,
    `posthog.init("phc_${r(43)}", { api_host: "https://us.i.posthog.example" })`,
    `const firebaseConfig = { apiKey: "AIza${r(35, B64URL)}", authDomain: "demo-app.firebaseapp.com", projectId: "demo-app" };`,
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
  it("a base64 key that starts with \"/\" under a secret's name is a key; paths of words are kept", () => {
    const key = `/${r(42, B64)}=`;
    expect(redactSecrets(`DB_SECRET="${key}"`).text).not.toContain(key.slice(1, 20));
    for (const path of ["API_KEY=/usr/local/etc/key.pem", "token: /Users/Anna2024/Projects/App3", "secret=/usr/include/c++/13/bits", "ssh_key: /home/ci/.ssh/id_ed25519"]) expect(redactSecrets(path).text).toBe(path);
  });
  it("a public key's secret sibling stays a secret: Mapbox's sk. token, PostHog's phx_ key, a Google API key outside a Firebase config", () => {
    const sk = `sk.${b64url('{"u":"maps-demo","a":"clx0q9w2h0abc"}')}.${r(22, B64URL)}`;
    const phx = `phx_${r(43)}`;
    const aiza = `AIza${r(35, B64URL)}`;
    for (const [text, secret] of [[`MAPBOX_TOKEN=${sk}`, sk], [`POSTHOG_PERSONAL_API_KEY=${phx}`, phx], [`const maps = new Client({ key: "${aiza}" });`, aiza]] as const) {
      expect(redactSecrets(text).text).not.toContain(secret.slice(-20));
    }
  });
});

describe("redactSecrets: an AWS key pair on one line (issue 34, found by the walk as a user)", () => {
  // The walk's correction "rotate AWS AKIA… / <secret>" kept the 40-character secret when it held
  // "+" or "/" (no rule read a lone run of base64's alphabet). Property: for any seeded secret of
  // AWS's form and any of the separators people paste between the two, the secret is redacted,
  // through the hook's pre-filter path (redactSecrets) and with every rule run (unfiltered).
  const ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  it("the secret after its key id is redacted, whatever separates them on the line", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(" / ", ":", " ", ", secret ", " and the secret is "), (seed, sep) => {
        const rnd = mulberry32(seed);
        const id = `AKIA${Array.from({ length: 16 }, () => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[Math.floor(rnd() * 32)]).join("")}`;
        let secret = Array.from({ length: 40 }, () => ALPHA[Math.floor(rnd() * 64)]).join("");
        secret = `${secret.slice(0, 10)}+${secret.slice(11, 25)}/${secret.slice(26)}`; // the shape the walk found kept
        for (const out of [redactSecrets(`rotate AWS ${id}${sep}${secret} today`).text, redactSecretsUnfiltered(`rotate AWS ${id}${sep}${secret} today`).text]) {
          expect(out).not.toContain(secret.slice(0, 12));
          expect(out).not.toContain(id);
        }
      }),
      { seed: 34, numRuns: 200 },
    );
  });
  it.each([
    ["key AKIAZ3KQM9XWV2PLR8TY, sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709", ", sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709"],
    ["[REDACTED:aws-access-key] in /usr/local/share/applications/foo/bar/baz1", " in /usr/local/share/applications/foo/bar/baz1"],
  ])("keeps what beside a key id is no secret: %s", (text, tail) => {
    expect(redactSecrets(text).text).toBe(`${text.startsWith("[") ? "[REDACTED:aws-access-key]" : "key [REDACTED:aws-access-key]"}${tail}`);
  });
});

describe("redactSecrets: a quoted named value cut by a clip mark (issue 34, the seventh held-out set's door leaks)", () => {
  // A tool call's summary clips a long command inside a quoted value: the closing quote is gone,
  // so the assignment rule, which wanted it, took nothing, and the part before the mark was
  // written in clear (caught whole when the same text was not clipped).
  it.each([
    ["Bash: echo client.get(access_token: 'access-production-9130…", "access-production-9130"],
    ['Bash: echo Langfuse( public_key="pk-lf-49a0", secret_key="sk-lf-27019bb5-54a7-71b4…', "sk-lf-27019bb5-54a7-71b4"],
    ['echo { "client_id": "reporting", "client_secret": "CWdpnS-DbC1vPSNAhwodV…', "CWdpnS-DbC1vPSNAhwodV"],
    // X's app-only bearer token starts with 21 "A"s (zero bytes): cut short, the run was a third
    // of what was left and read as a placeholder's repeated character.
    ['Bash: echo tweepy.Client(bearer_token="AAAAAAAAAAAAAAAAAAAAAFMpSpE2fqoBry0NCna6u53%2B13l30TBS3dw6hcQ9Jz46%3Ds4e…', "FMpSpE2fqoBry0NCna6u53"],
  ])("takes all of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    for (let i = 0; i + 8 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 8));
    expect(redactSecretsUnfiltered(text).text).toBe(out);
  });
  it.each([
    'API_KEY="your-api-key-here…',
    'password: "${DB_PASSWORD…',
    'token_count: "12345678…',
    'key_file: "/home/ana/.config/app/settings…',
    "sk_live_AAAAAAAAAAAAAAAAAAAAAAAA",
    "token=AAAAAAAAAAAAAAAAAAAAAAAAAAAA1234",
  ])("keeps a placeholder, a reference, a name no secret's or a path: %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});

describe("redactSecrets: the eighth-set pass (issue 34: the eighth held-out set's misses, by family)", () => {
  // Each family with secrets in forms other than the set's (other tools, languages, files), made
  // up here, and near texts it must keep. Their own PRNG, as the blocks above.
  const own = prng(20261209);
  const r = (n: number, alphabet = ALNUM): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(own() * alphabet.length)];
    return alphabet.includes("a") && alphabet.includes("A") && n >= 8 ? `aZ${s.slice(2, -2)}47` : s;
  };
  const [hex32, hex40, hex64] = [r(32, HEX), r(40, HEX), r(64, HEX)];
  const [pw12, pw14, v24, v32, v40] = [r(12), r(14), r(24), r(32), r(40)];
  const HEXU = "0123456789ABCDEF";
  const b64 = (s: string): string => Buffer.from(s).toString("base64");
  const uuid = `${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-a${r(3, HEX)}-${r(12, HEX)}`;
  const cookie = r(20, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  const bytes = (n: number, hex: boolean): string => Array.from({ length: n }, () => Math.floor(own() * 256)).map((b) => (hex ? `0x${b.toString(16).padStart(2, "0")}` : String(b))).join(", ");
  const k16 = bytes(16, true);
  const k32 = bytes(32, false);
  const [beams, code, session, develocity] = [r(64, HEXU), `${r(54, B64URL)}==`, r(43, B64URL), r(52, "abcdefghijklmnopqrstuvwxyz0123456789")];
  const [upApi, upSk] = [r(40, HEXU), r(32, HEXU)];
  const taken: [string, string][] = [
    // A key or a password passed to a call that names credentials; an (id, secret) pair.
    [`StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID0X8", "${v40}"))`, v40],
    [`$client = new \\Acme\\Billing\\ApiClient('${hex32}');`, hex32],
    [`conn = pymysql.connect("db.internal", "report", "${pw12}", "sales")`, pw12],
    [`req' = applyBasicAuth "svc" "${pw14}" req`, pw14],
    [`sdk, _ := beacons.New("${uuid}", "${beams}")`, beams],
    // A header's or a key's name as a string, its value the next one.
    [`conn.setRequestProperty("X-Api-Key", "${v32}");`, v32],
    [`req.Header.Set("X-Auth-Token", "${hex40}")`, hex40],
    [`$headers = ['X-Shop-Secret' => '${v24}'];`, v24],
    // Authorization … Basic with any separators, and Basic <base64 of user:password> anywhere.
    [`http-request set-header Authorization "Basic ${b64(`ops:${pw12}`)}"`, b64(`ops:${pw12}`)],
    [`GET /metrics 401 (sent Basic ${b64(`scraper:${pw14}`)})`, b64(`scraper:${pw14}`)],
    // A flag named like a secret in any spelling; a single-letter key flag.
    [`Connect-AcmeCloud -AcmeApiKey ${hex40} -Region eu`, hex40],
    [`nebula join --authkey ${v32} --name edge-3`, v32],
    [`erl -sname worker -setcookie ${cookie}`, cookie],
    [`acme-cli publish pkg.tgz -k ${hex40}`, hex40],
    // user:password after a name or flag meaning credentials.
    [`curl --proxy-user ops:${pw12} https://intranet.example.org`, pw12],
    [`curl -u :${hex32} https://rpc.example.org/v3`, hex32],
    [`upstream_auth login=svc:${pw14} timeout=5`, pw14],
    // The password position of log-in and user commands.
    [`EXEC SQL CONNECT TO sales USER dbadm USING ${pw12};`, pw12],
    [`.logon td01.example.org/etl,${pw14};`, pw14],
    [`rabbitmqctl change_password svc '${pw12}'`, pw12],
    [`acme connect ci.example.org ${v24}`, v24],
    // A password fed to a prompt: a heredoc, a pipe, an expect script.
    [`passwd ana <<END\n${pw12}\n${pw12}\nEND`, pw12],
    [`echo '${pw14}' | sudo -S systemctl restart app`, pw14],
    [`child.expect('Password:')\nchild.sendline('${pw12}')`, pw12],
    // Percent-encoded under a secret's name; a key in a URL's code= or sig=.
    [`?dsn=Server%3Ddb01%3BPassword%3D${encodeURIComponent(`${pw12}+/`)}%3B`, encodeURIComponent(`${pw12}+/`)],
    [`https://fn.example.net/api/hook?code=${code}`, code],
    // A secret-key prefix and hex.
    [`const payouts = init("rsk_${hex40}");`, hex40],
    // A provider's prefix and upper-case hex (a digest is written in lower case).
    [`mail:\n  key: api-${upApi}`, upApi],
    [`export NOTIFY_TOKEN="sk_${upSk}"`, upSk],
    // CSV exports with a secret column; XML key/value pairs.
    [`name,url,username,password\nmail,https://mail.example.org,ana,${pw12}`, pw12],
    [`device,api_token,room\nsensor-2,${hex32},lab`, hex32],
    [`<property><name>fs.s3a.secret.key</name><value>${v40}</value></property>`, v40],
    [`<key>Password</key>\n<string>${pw14}</string>`, pw14],
    // A file shown under a name that says it holds credentials; an INI section of accounts.
    [`$ cat ~/.config/acme/credentials\nana\n${pw12}`, pw12],
    [`# /etc/ppp/pap-secrets\nana vpn0 ${pw14}`, pw14],
    [`[users]\nana = ${pw12}\nbob = ${pw14}`, pw14],
    // Declarations with a type between; parameters marked secret; quoted directives; PW names; LDIF's ::.
    [`DECLARE @ApiSecret NVARCHAR(64) DEFAULT '${v24}';`, v24],
    [`#define WIFI_PASSWORD "${pw12}"`, pw12],
    [`@secure()\nparam adminPassword string = '${pw14}'`, pw14],
    [`variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "${pw12}"\n}`, pw12],
    [`vrrp_instance VI_1 {\n    auth_pass "${pw12}"\n}`, pw12],
    [`DB_PW=${pw14}\nadminPw: ${pw12}`, pw12],
    [`olcRootPW:: ${b64(pw14)}`, b64(pw14)],
    // Key material: byte arrays, key files, keytab listings, PRAGMA, SQL Server's N'…', session keys, host=key.
    [`static const uint8_t aes_key[16] = {${k16}};`, k16],
    [`NETWORK_KEY = bytes([${k32}])`, k32],
    [`{"type": "StakeSigningKeyShelley_ed25519", "cborHex": "5820${hex64}"}`, hex64],
    [`   2 host/db01.example.org@EXAMPLE.ORG (aes128-cts-hmac-sha1-96)  (0x${hex32})`, hex32],
    [`PRAGMA hexkey = "${hex64}";`, hex64],
    [`ALTER LOGIN svc WITH PASSWORD = N'${pw12}';`, pw12],
    [`export OP_SESSION_acme="${session}"`, session],
    [`GRADLE_ENTERPRISE_ACCESS_KEY=ge.example.org=${develocity}`, develocity],
    // A password in prose in a language and script no rule has a word for.
    ["туршилтын серверийн нууц үг Qw3eRt7yUi09 байна", "Qw3eRt7yUi09"],
    ["a teszt szerver belépője Gx7kPq2mWz41, ne add tovább", "Gx7kPq2mWz41"],
    ["სატესტო სერვერის კოდი არის K4M7P2X9Q1Z8", "K4M7P2X9Q1Z8"],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    expect(out).toContain("[REDACTED:");
    if (secret.length >= 12) for (let i = 0; i + 12 <= secret.length; i++) expect(out).not.toContain(secret.slice(i, i + 12));
  });
  const kept = [
    // Near texts: no value, a reference, a public key, a placeholder, prose without a password.
    `client = acme.Client("https://api.example.org")`,
    `Connect-AcmeCloud -AcmeApiKeyFile ./key.txt -Region eu`,
    "$ cat /etc/openvpn/client/acme.auth\nana.kowalska",
    `[users]\nana = {SSHA}${b64("not the password: a hash")}`,
    `network_key: [${Array(16).fill(1).join(", ")}]`,
    `{"type": "StakeVerificationKeyShelley_ed25519", "cborHex": "5820${r(64, HEX)}"}`,
    `proxy_set_header Authorization "Basic ${b64("guest:")}";`,
    "expect \"Password:\"\nsend \"$env(DB_PASS)\\r\"",
    "encryption_key: AUTO",
    'db_password = lookup("env", "DB_PASSWORD")',
    "let token = env:API_TOKEN as Text",
    '{"user": "ana", "apiKey": null}',
    `{"publishKey": "pub-c-${uuid}", "channel": "news"}`,
    `untrusted comment: signify public key\nRWS${b64(`${r(30)}xyz`)}`,
    "kinit -kt /etc/krb5.keytab HTTP/www.example.org@EXAMPLE.ORG",
    "we upgrade to the iPhone15ProMax next week, then to MacBookPro2021 parts",
    `the build 9f3a2c7d1e passed and ticket ABC-1234 is closed`,
    `send the refund to 0x${r(40, HEXU)}`,
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});

describe("redactSecrets: the ninth-set pass (issue 34: the ninth held-out set's misses, by family)", () => {
  // Each family with secrets in forms other than the set's, made up here, and near texts it must
  // keep. Their own PRNG, as the blocks above.
  const own = prng(20261210);
  const r = (n: number, alphabet = ALNUM): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(own() * alphabet.length)];
    return alphabet.includes("a") && alphabet.includes("A") && n >= 8 ? `aZ${s.slice(2, -2)}47` : s;
  };
  const [hex32, hex40, hex48] = [r(32, HEX), r(40, HEX), r(48, HEX)];
  const [v20, v24, v32] = [r(20), r(24), r(32)];
  const uuid = `${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-a${r(3, HEX)}-${r(12, HEX)}`;
  const lower12 = `${r(4, "bcdfghjklmnpqrstvwxz")}${r(2, "0123456789")}${r(4, "bcdfghjklmnpqrstvwxz")}${r(2, "0123456789")}`;
  const mixed12 = `${r(1, "BCDFGHJKLMNPQRSTVWXZ")}${r(1, "bcdfghjklmnpqrstvwxz")}${r(1, "BCDFGHJKLMNPQRSTVWXZ")}${r(3, "bcdfghjklmnpqrstvwxz")}${r(2, "BCDFGHJKLMNPQRSTVWXZ")}${r(1, "bcdfghjklmnpqrstvwxz")}${r(3, "0123456789")}`;
  const b64pw = Buffer.from(r(18)).toString("base64");
  const taken: [string, string][] = [
    // A password in prose whose words carry combining marks (Indic vowel signs, tone marks) or a
    // zero-width non-joiner; a one-case password among another script's words.
    [`ತಾತ್ಕಾಲಿಕ ಖಾತೆಯ ಗುಪ್ತಪದ ${mixed12} ಆಗಿದೆ`, mixed12],
    [`अस्थायी खाते का कूटशब्द ${lower12} है, किसी को मत बताना`, lower12],
    [`ọ̀rọ̀ ìgbaniwọlé tuntun ni ${mixed12}, jọ̀wọ́ pa á mọ́`, mixed12],
    // A key-shaped hex or UUID in prose: another script around it, or a secret's word as a stem.
    [`ম্যাপের চাবি ${hex32} এটা কাউকে দিও না`, hex32],
    [`il tokenul nou pentru staging este ${uuid} te rog nu-l publica`, uuid],
    [`Der API-Schlüssel lautet ${hex40} und gilt ab morgen`, hex40],
    // A key in a URL's path after a segment that says key or hook; a hex key as the path's head.
    [`POST https://events.example.net/api/webhooks/551203/${v24} 204`, v24],
    [`curl https://notify.example.org/send/key/${v20}?msg=done`, v20],
    [`RPC_URL=https://rpc.example.io/v2/${hex40}`, hex40],
    // A query or fragment parameter named as a token; a URL's user with no password.
    [`redirected to https://app.example.com/cb#id_token=${v32}&state=x1`, v32],
    [`GET /feed?api_key=${v24}&page=2`, v24],
    [`pip config set global.index-url https://${hex48}:@pypi.example.io/simple/`, hex48],
    [`source "https://${v20}@gems.example.com/org/"`, v20],
    // A key as basic auth's user with an empty password.
    [`curl --user ${hex40}: https://api.example.com/v1/me`, hex40],
    [`http -a ${hex32}: GET api.example.com; curl -u "${hex32}:" https://api.example.com`, hex32],
    // Name/value pairs whose name says secret: HAR/Postman headers, JSON escaped in JSON, a table row.
    [`{"key": "X-Auth-Token", "value": "${v32}", "type": "text"}`, v32],
    [`"text": "{\\"STRIPE_SECRET\\": \\"${v24}\\"}"`, v24],
    [`| Service | Name | Value |\n|---|---|---|\n| mail | MAIL_API_KEY | ${hex32} |`, hex32],
    // A key in a code span after a secret's word; a password after a DSN; a printed secret field.
    [`* CI: token \`${v32}\` (rotate monthly)`, v32],
    [`new PDO("pgsql:host=db;dbname=app", "app", "${v20}");`, v20],
    [`$ kubectl get secret api -o jsonpath="{.data.api-token}"\n${b64pw}`, b64pw],
    [`$ aws secretsmanager get-secret-value --secret-id db --query SecretString --output text\n${v24}`, v24],
    // A session cookie; a passphrase as a quoted key's value; a file named as a key, shown.
    [`Cookie: lang=en; sessionid=${hex40}`, hex40],
    [`$config = ['passphrase' => '${v20}'];`, v20],
    [`$ cat ~/.acme/api_key\n${hex40}`, hex40],
    // The same in a summary that folded the lines, or quoted after words of its own.
    [`Bash: echo $ kubectl get secret db -o jsonpath='{.data.token}' ${b64pw}`, b64pw],
    [`please check this: ম্যাপের চাবি ${hex40} এটা কাউকে দিও না`, hex40],
    // A value a clip mark cut is no elided placeholder (`llx-...` is).
    [`Bash: echo cfg = { password = "${v24.slice(0, 12)}…`, v24.slice(0, 12)],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    expect(out).toContain("[REDACTED:");
    expect(out).not.toContain(secret.length >= 12 ? secret.slice(0, 12) : secret);
  });
  const kept = [
    // Near texts: an id, a hash, a DSN's public key, a placeholder, a reference, a tool's note.
    `ম্যাপের commit ${hex40} এটা দেখো`,
    `the request id is ${uuid} in the logs`,
    `see https://github.com/acme/app/commit/${hex40}`,
    `<script src="https://cdn.example.net/${r(32, HEX)}/app.min.js"></script>`,
    `SENTRY_DSN=https://${hex32}@o12345.ingest.example.io/678`,
    `GET /feed?api_key=YOUR_API_KEY_HERE&page=2`,
    "| MAIL_API_KEY | ${MAIL_API_KEY} |",
    "  + api_token = (sensitive value)",
    "      DB_PASSWORD: ${DB_PASSWORD:-changeme}",
    `  OPENAI_API_KEY: "op://Dev/openai/credential"`,
    `export ACME_API_KEY="acme-..."`,
    `Project id: prj_${r(24)}`,
    `Cache saved with key: Linux-node-modules-${r(64, HEX)}`,
    "$ cat ~/.ssh/authorized_keys\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5 ana@laptop",
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});
