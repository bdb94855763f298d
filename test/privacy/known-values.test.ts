/**
 * The known-value scrubber (runtime/privacy/known-values.ts, known-store.ts): the owner's own
 * secrets are found wherever they are, whatever their shape, and are never written in clear.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { allCleared, redactSecrets } from "../../runtime/privacy/redact.js";
import { KNOWN_SECRETS_FILE, setKnownSecrets } from "../../runtime/privacy/known-store.js";
import { learnKnownValues } from "../../runtime/privacy/known-learn.js";
import { buildStore, dotEnvValues, NAME_PATTERNS, rememberableValue, secretEnvNamed, secretEnvValues, secretLookingName, storeSpans, valuePatterns } from "../../runtime/privacy/known-values.js";

afterEach(() => setKnownSecrets({ values: [], store: null }));

const secret = fc.string({ unit: fc.constantFrom(..."abcdefghijKLMNOPQ0123456789 !#%&*+-./:=?@_~"), minLength: 8, maxLength: 40 }).filter(rememberableValue);
const prose = fc.string({ unit: fc.constantFrom(..."the quick brown fox 0123 ,.\n"), maxLength: 80 });

describe("the store of salted hashes", () => {
  it("finds every occurrence of a stored value, and nothing else", () => {
    fc.assert(
      fc.property(secret, prose, prose, fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 8, maxLength: 8 }), (v, a, b, salt) => {
        const store = buildStore([v], salt);
        const text = `${a}${v}${b}${v}`;
        const spans = storeSpans(text, store);
        for (const [s, e] of spans) expect(text.slice(s, e)).toBe(v);
        let expected = 0;
        for (let at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + 1)) expected++;
        expect(spans).toHaveLength(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("holds no value in clear: only lengths, fingerprints and hashes", () => {
    const store = buildStore(["Zq8vR2mK9pLw4xTy", "correct horse 42 battery"], "00ff");
    const json = JSON.stringify(store);
    expect(json).not.toContain("Zq8vR2mK");
    expect(json).not.toContain("horse");
    expect(store.entries.map((e) => e.n)).toEqual([16, 24]);
  });
});

describe("what is remembered", () => {
  it("secret-looking environment names, values worth remembering", () => {
    const env = { OPENAI_API_KEY: "sk-abc123def456", DB_PASSWORD: "hunter2hunter2", SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1", TOKEN_TIMEOUT: "30000000", HOME: "/home/me", GITHUB_TOKEN: "ghp_Zq8vR2mK9pLw4xTy", PAGER: "less -R", NODE_AUTH_TOKEN: "${NPM_TOKEN}" };
    expect(secretEnvValues(env).sort()).toEqual(["ghp_Zq8vR2mK9pLw4xTy", "hunter2hunter2", "sk-abc123def456"]);
  });

  it(".env files: named secrets, and long random values under any name", () => {
    const text = ['export STRIPE_SK="sk_live_Zq8vR2mK9pLw4xTy"', "PORT=3000", "DEBUG=true", "APP_NAME=my-app", "DATABASE_URL=postgres://u:Pq9zX2vB7@db/app  # main", "SESSION_SECRET='words and 12 more'", "# COMMENT=Zq8vR2mK9pLw4xTyAB"].join("\n");
    expect(dotEnvValues(text)).toEqual(["sk_live_Zq8vR2mK9pLw4xTy", "postgres://u:Pq9zX2vB7@db/app", "words and 12 more"]);
  });
});

describe("the front scrubs known values whatever their shape", () => {
  it("a bare random string in prose, and a password of words, are redacted; the pre-filter does not clear them", () => {
    const bare = "Xk3mQ9vT2bLp";
    setKnownSecrets({ values: [], store: buildStore([bare, "correct horse 42 battery"], "a1b2") });
    const text = `use ${bare} for now; the wifi is correct horse 42 battery`;
    expect(allCleared([text])).toBe(false);
    const r = redactSecrets(text);
    expect(r.text).toBe("use [REDACTED:known-secret] for now; the wifi is [REDACTED:known-secret]");
    expect(r.kinds).toEqual(["known-secret"]);
    expect(redactSecrets(r.text).text).toBe(r.text);
  });

  it("an environment value in memory, joined with a rule's finding on the same token: one marker", () => {
    setKnownSecrets({ values: ["ghp_Zq8vR2mK9pLw4xTyZq8vR2mK9pLw4xTyAb"], store: null });
    const r = redactSecrets("token ghp_Zq8vR2mK9pLw4xTyZq8vR2mK9pLw4xTyAb here");
    expect(r.text).toBe("token [REDACTED:known-secret] here");
  });
});

describe("errata secrets learn's store", () => {
  it("is written 0600, from the environment and the projects' .env files, with no value in clear", () => {
    const root = mkdtempSync(join(tmpdir(), "errata-known-"));
    const project = join(root, "app");
    mkdirSync(project);
    writeFileSync(join(project, ".env"), "API_TOKEN=Pq9zX2vB7wLm4kTr\nPORT=8080\n");
    writeFileSync(join(project, ".env.local"), "PLAIN=Yt6uN3cV8xZa1sDf0gHj\n");
    const state = join(root, "state");
    // A dry run counts the same and writes nothing.
    expect(learnKnownValues(state, { MY_SECRET: "Zq8vR2mK9pLw" }, [project, join(root, "gone")], { dryRun: true })).toEqual({ file: join(state, KNOWN_SECRETS_FILE), values: 3, projects: 1, wrote: false });
    expect(existsSync(join(state, KNOWN_SECRETS_FILE))).toBe(false);
    const r = learnKnownValues(state, { MY_SECRET: "Zq8vR2mK9pLw" }, [project, join(root, "gone")]);
    expect(r).toEqual({ file: join(state, KNOWN_SECRETS_FILE), values: 3, projects: 1, wrote: true });
    const text = readFileSync(r.file, "utf8");
    for (const v of ["Pq9zX2vB", "Yt6uN3cV", "Zq8vR2mK"]) expect(text).not.toContain(v);
    expect(statSync(r.file).mode & 0o777).toBe(0o600);
  });
});

describe("which environment names look secret", () => {
  // secretLookingName tests an ASCII name by string searches instead of its two caseless
  // patterns (cheaper in a fresh hook process): it must say what the patterns say.
  const byPatterns = (name: string): boolean => NAME_PATTERNS.secret.test(name) && !NAME_PATTERNS.notSecret.test(name);
  const words = ["key", "KEY", "Key", "api", "API_KEY", "apikey", "private-key", "token", "Token", "secret", "password", "passwd", "pwd", "pass", "PASS", "passphrase",
    "credential", "credentials", "auth", "dsn", "session", "cookie", "path", "file", "dir", "sock", "socket", "id", "ID", "url", "name", "type", "host", "port", "user",
    "username", "timeout", "length", "len", "size", "count", "mode", "enabled", "disabled", "scope", "ttl", "monkey", "x", "Q", "9", "_", ".", "-", "é", "\u212a"];
  const name = fc.array(fc.constantFrom(...words), { maxLength: 6 }).map((p) => p.join(""));

  it("agrees with the patterns on generated names (fast-check)", () => {
    let secretSeen = 0;
    fc.assert(
      fc.property(name, (n) => {
        expect(secretLookingName(n), n).toBe(byPatterns(n));
        if (byPatterns(n)) secretSeen++;
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: both answers occur.
    expect(secretSeen).toBeGreaterThan(100);
    expect(secretSeen).toBeLessThan(2900);
  });

  it("agrees on names a pattern reads in a way a search might not", () => {
    const names = ["OPENAI_API_KEY", "GITHUB_TOKEN", "myApiKey", "MONKEY", "KEYS", "X2KEY", "DB_PASSWORD", "SSH_AUTH_SOCK", "SESSION_ID", "AUTH", "pass.word", "A-TOKEN-",
      "TOKEN_PATH", "_key", "key_", "KEY\u212a", "SOC\u212a_KEY", "\u00e9key", "credentialsX", "npm_config_cache"];
    const got = names.map((n) => [n, secretLookingName(n)]);
    expect(got).toEqual(names.map((n) => [n, byPatterns(n)]));
    expect(got.filter(([, v]) => v).map(([n]) => n)).toEqual(["OPENAI_API_KEY", "GITHUB_TOKEN", "myApiKey", "MONKEY", "DB_PASSWORD", "AUTH", "pass.word", "A-TOKEN-", "_key", "key_", "SOC\u212a_KEY"]);
  });
});

describe("which values are worth remembering", () => {
  // rememberableValue tells by hand what its patterns tell (cheaper in a fresh hook process): it must say what they say.
  const byPatterns = (v: string): boolean => v.length >= 8 && v.length <= 4096 && !valuePatterns().some((re) => re.test(v));
  const pieces = ["a", "abc", "XYZ", "Q", "7", "42", ".", "..", "/", "~", "C:", "\\", "$", "{", "_", "-", " ", "\t", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u180e", "\u200b", "é", "x9", "=", ":"];
  const value = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 14 }).map((p) => p.join(""));

  it("agrees with the patterns on generated values (fast-check)", () => {
    let kept = 0;
    fc.assert(
      fc.property(value, (v) => {
        expect(rememberableValue(v), JSON.stringify(v)).toBe(byPatterns(v));
        if (byPatterns(v)) kept++;
      }),
      { numRuns: 5000 },
    );
    // Not vacuous: both answers occur.
    expect(kept).toBeGreaterThan(200);
    expect(kept).toBeLessThan(4800);
  });

  it("agrees at every code point before and after a value, and on the values a test names", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const v of [`${ch}Zq8vR2mK9`, `Zq8vR2mK9${ch}`, `$${ch}abcdefgh`, `${ch}:\\abcdefgh`, `abcdefgh${ch}ijk`]) if (rememberableValue(v) !== byPatterns(v)) expect([c, v, rememberableValue(v)]).toEqual([c, v, byPatterns(v)]);
    }
    const named = ["/home/ana/projects/shop", "./relative/path", "../up/there", "~/notes.txt", "C:\\Users\\ana", "12345678", "3.14159265", "1234567.", "${HOME}/x/y", "$HOME_DIR_X", "$9abcdefgh",
      "correct horse battery", "CORRECT-HORSE-BATTERY", "correct--horse", "Zq8vR2mK9pLw", " Zq8vR2mK9pLw", "Zq8vR2mK9pLw\n", "abc_def_ghi", "abcdefgh-"];
    expect(named.map((v) => [v, rememberableValue(v)])).toEqual(named.map((v) => [v, byPatterns(v)]));
    expect(named.filter(rememberableValue)).toEqual(["1234567.", "$9abcdefgh", "correct--horse", "Zq8vR2mK9pLw", "abcdefgh-"]);
  });
});

describe("the environment's secret values", () => {
  // secretEnvNamed passes over the names whose piece of the lower-cased join holds no secret
  // word: it must name what testing every name names.
  const everyName = (env: Record<string, string>): Array<{ name: string; value: string }> => {
    const out: Array<{ name: string; value: string }> = [];
    for (const [name, value] of Object.entries(env)) if (secretLookingName(name) && rememberableValue(value) && !out.some((e) => e.value === value)) out.push({ name, value });
    return out;
  };
  const part = fc.constantFrom("PWD", "OLD", "API", "_KEY", "key", "Token", "PATH", "HOME", "\u212a", "\u0130", "SOC", "\n", "_", "X");
  const name = fc.array(part, { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
  const value = fc.constantFrom("/home/ana/shop", "Zq8vR2mK9pLw", "hunter2hunter2", "short", "correct horse", "Pq9zX2vB7");

  it("agrees with a test of every name on generated environments (fast-check)", () => {
    let named = 0;
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 12 }), (env) => {
        const got = secretEnvNamed(env);
        expect(got).toEqual(everyName(env));
        named += got.length;
      }),
      { numRuns: 2000 },
    );
    expect(named).toBeGreaterThan(500);
  });
});
