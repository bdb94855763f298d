// A developer's own bare secrets on the intake server (issue 34): known only on their machine,
// they reached the server's files in clear in an app's erratum and an http hook's prompt.
// `errata secrets push` sends the strong ones as salted hashes; the server then scrubs every
// request of the tenant with them before anything is written. Every file the server wrote is
// searched in clear (JSON escapes undone); a weak value is named and never sent; bad pushes
// are refused with what was expected and found, and store nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { planPush } from "../../runtime/privacy/known-push.js";
import { setKnownSecrets } from "../../runtime/privacy/known-store.js";
import { buildStore } from "../../runtime/privacy/known-values.js";
import { buildServer, KNOWN_CACHE_MS } from "../../runtime/server/index.js";
import { openJsonlStore, openPostgresStore } from "../../runtime/stores/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { POSTGRES_BIN, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { pnpm } from "../ladder/helpers.js";
import { bearer, good, harness, type Harness } from "./helpers.js";

const ENV_BARE = "Vq7RtK2mXw9LpZ4sNb8D"; // VENDOR_SESSION_TOKEN in the developer's environment
const DOTENV_BARE = "Hs3JkQ8vWz2NmT6pYc4RbX"; // ORDERS_DB_PASS in their project's .env
const WEAK = "Summer2024!Summer"; // LEGACY_PASSWORD in the same .env: too weak to push

function filesUnder(dir: string, acc: string[] = []): string[] {
  if (!existsSync(dir)) return acc;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, acc);
    else if (e.isFile()) acc.push(p);
  }
  return acc;
}

/** Every file under `dir` holding `value` (as written, or with JSON escapes undone). */
function holding(dir: string, value: string): string[] {
  return filesUnder(dir).filter((p) => {
    const text = readFileSync(p, "utf8");
    const decoded = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\"/g, '"');
    return text.includes(value) || decoded.includes(value);
  });
}

/** The developer's machine: a project with a .env, their environment, their token for the server. */
function developer(token: string) {
  const { dir } = tempDir("errata-dev-");
  const project = join(dir, "app");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, ".env"), `ORDERS_DB_PASS=${DOTENV_BARE}\nLEGACY_PASSWORD=${WEAK}\nPORT=3000\n`);
  const env = { HOME: dir, ERRATA_DIR: join(dir, "ledger"), VENDOR_SESSION_TOKEN: ENV_BARE, ERRATA_SYNC_TOKEN: token };
  return {
    project,
    async errata(argv: string[], over: Record<string, string | undefined> = {}) {
      const m = memoryIo({ cwd: project, env: { ...env, ...over } });
      const code = await run(argv, m.io);
      return { code, out: m.out(), err: m.err() };
    },
  };
}

async function postEverything(h: Harness) {
  const posts: Array<[string, Record<string, unknown>]> = [
    ["/v1/errata", good({ complaint: `The app showed ${ENV_BARE} and ${WEAK}`, context: { requested: `login with ${DOTENV_BARE}` } })],
    ["/v1/hooks/user-prompt-submit", { session_id: "s1", hook_event_name: "UserPromptSubmit", cwd: "/home/ana/app", prompt: `No, that's wrong, never print ${ENV_BARE}; the staging one is ${DOTENV_BARE}.` }],
    ["/v1/hooks/stop", { session_id: "s1", hook_event_name: "Stop", cwd: "/home/ana/app", last_assistant_message: `Your token is ${DOTENV_BARE}` }],
    ["/v1/hooks/pre-tool-use", { session_id: "s1", hook_event_name: "PreToolUse", cwd: "/home/ana/app", tool_name: "Bash", tool_input: { command: `curl -u ana:${ENV_BARE} https://x` }, tool_use_id: "toolu_1" }],
  ];
  for (const [url, payload] of posts) {
    const r = await h.app.inject({ method: "POST", url, headers: bearer(h.token), payload });
    expect(r.statusCode, `${url}: ${r.body}`).toBeLessThan(300);
  }
}

describe("a developer's known values on the JSONL server", () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    h = await harness();
    base = await h.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => h?.close());

  it("without a push the server writes the bare values in clear (what the push is for)", async () => {
    const bare = await harness();
    try {
      await postEverything(bare);
      expect(holding(bare.dir, ENV_BARE).length).toBeGreaterThan(0);
      expect(holding(bare.dir, DOTENV_BARE).length).toBeGreaterThan(0);
    } finally {
      await bare.close();
    }
  });

  it("after `errata secrets push`, no file the server wrote holds a strong value; the weak one is named, not sent", async () => {
    const dev = developer(h.token);
    const dry = await dev.errata(["secrets", "push", "--project", ".", "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(existsSync(join(h.dir, "known"))).toBe(false);
    const pushed = await dev.errata(["secrets", "push", "--to", base, "--project", "."]);
    expect(pushed.code, pushed.err).toBe(0);
    // The token the push reads is a secret-looking variable of the environment too: pushed (199 bits).
    expect(pushed.out).toMatch(/pushed 3 of 4 to http:\/\/127\.0\.0\.1:\d+ as salted hashes; not pushed: 1/);
    expect(pushed.out).toContain("pushed: environment VENDOR_SESSION_TOKEN");
    expect(pushed.out).toMatch(/not pushed: \S+\.env LEGACY_PASSWORD: estimated 28 bits, under the 80/);
    for (const v of [ENV_BARE, DOTENV_BARE, WEAK]) {
      expect(pushed.out + pushed.err).not.toContain(v.slice(0, 8));
      expect(dry.out + dry.err).not.toContain(v.slice(0, 8));
    }
    const file = join(h.dir, "known", "acme", "ana.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const held = JSON.parse(readFileSync(file, "utf8")) as { salt: string; entries: Array<{ h: string }> };
    expect(held.entries).toHaveLength(3);
    // The weak value's hash under the push's salt is not there either.
    expect(held.entries.map((e) => e.h)).not.toContain(buildStore([WEAK], held.salt).entries[0]!.h);
    const status = await h.app.inject({ method: "GET", url: "/v1/known-values", headers: bearer(h.token) });
    expect(status.json()).toEqual({ developer: "ana", values: 3, pushed: "2026-11-30T12:00:00.000Z" });

    await postEverything(h);
    expect(holding(h.dir, ENV_BARE)).toEqual([]);
    expect(holding(h.dir, DOTENV_BARE)).toEqual([]);
    const ledger = filesUnder(join(h.dir, "tenants", "acme")).filter((p) => p.endsWith(".jsonl"));
    expect(ledger.some((p) => readFileSync(p, "utf8").includes("[REDACTED:known-secret]"))).toBe(true);
    const hooks = filesUnder(join(h.dir, "hooks", "acme", "ana")).filter((p) => p.endsWith(".jsonl"));
    expect(hooks.some((p) => readFileSync(p, "utf8").includes("the staging one is [REDACTED:known-secret]"))).toBe(true);
    // Another tenant's developers never read acme's push.
    const other = await h.app.inject({ method: "GET", url: "/v1/known-values", headers: bearer(h.other) });
    expect(other.json()).toEqual({ developer: "bob", values: 0, pushed: null });
  });

  it("refuses a bad push with what was expected and found, and stores nothing", async () => {
    const fresh = await harness();
    try {
      const salt = "00112233445566778899aabbccddeeff";
      const bad: Array<[unknown, RegExp]> = [
        [{ version: 1, salt, fp_bits: 8, entries: [{ n: 20, fp: 300, h: "a".repeat(64) }] }, /entries\.0\.fp: a fingerprint of at most 8 bits/],
        [{ version: 1, salt, fp_bits: 32, entries: [] }, /fp_bits/],
        [{ version: 1, salt: "xyz", fp_bits: 8, entries: [] }, /salt/],
        [{ version: 1, salt, fp_bits: 8, entries: [{ n: 20, fp: 1, h: "a".repeat(64), value: ENV_BARE }] }, /entries\.0/],
        [[1, 2], /the body/],
      ];
      for (const [payload, found] of bad) {
        const r = await fresh.app.inject({ method: "PUT", url: "/v1/known-values", headers: bearer(fresh.token), payload: payload as object });
        expect(r.statusCode).toBe(400);
        const body = r.json() as { error: string; stored: number; expected: string; found: string };
        expect(body.error).toBe("bad-known-values");
        expect(body.stored).toBe(0);
        expect(body.expected).toMatch(/"fp_bits": 1-8/);
        expect(body.found).toMatch(found);
      }
      const noToken = await fresh.app.inject({ method: "PUT", url: "/v1/known-values", payload: buildStore(["Vq7RtK2mXw9LpZ4sNb8D"], salt) });
      expect(noToken.statusCode).toBe(401);
      expect(existsSync(join(fresh.dir, "known"))).toBe(false);
      // The CLI says the server's refusal of a token, exit 2.
      const dev = developer("et_not-a-token");
      const url = await fresh.app.listen({ port: 0, host: "127.0.0.1" });
      const refused = await dev.errata(["secrets", "push", "--to", url]);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/the server refused the token/);
      const badUrl = await dev.errata(["secrets", "push", "--to", "ftp://x"]);
      expect(badUrl.code).toBe(2);
      expect(badUrl.err).toMatch(/expected an http\(s\) URL; found "ftp:\/\/x"/);
      expect(existsSync(join(fresh.dir, "known"))).toBe(false);
    } finally {
      await fresh.close();
    }
  });
});

describe("errata sync --hooks on the developer's machine", () => {
  it("redacts the rule lines it sends with the machine's own known values, weak ones too (the server knows only pushed ones)", async () => {
    const h = await harness();
    const sent: string[] = [];
    // What arrives, before the server's own scrub and redaction: what left the machine.
    h.app.addHook("preValidation", async (req) => {
      if (req.url.startsWith("/v1/team/rule-lines")) sent.push(JSON.stringify(req.body));
    });
    const base = await h.app.listen({ port: 0, host: "127.0.0.1" });
    const { dir, cleanup } = tempDir("errata-dev-sync-");
    try {
      const ladder = join(dir, "ledger", "ladder");
      mkdirSync(ladder, { recursive: true });
      // A line written before the owner's store knew the value: it holds it in clear.
      writeFileSync(join(ladder, "rules.jsonl"), `${JSON.stringify({ ...pnpm, text: `use pnpm; the legacy login is ${WEAK}` })}\n`);
      setKnownSecrets({ values: [], store: buildStore([WEAK], "a1b2c3d4") }); // learned since
      const m = memoryIo({ cwd: dir, env: { HOME: dir, ERRATA_DIR: join(dir, "ledger"), ERRATA_SYNC_TOKEN: h.token } });
      expect(await run(["sync", "--hooks", "--from", base, "--json"], m.io), m.err()).toBe(0);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toContain(WEAK);
      expect(sent[0]).toContain("the legacy login is [REDACTED:known-secret]");
    } finally {
      setKnownSecrets(null);
      await h.close();
      cleanup();
    }
  });
});

describe("two servers over one store", () => {
  it("a push to one is seen by the other within KNOWN_CACHE_MS, and by its own server at once", async () => {
    const { dir, cleanup } = tempDir("errata-server-two-");
    let clock = Date.parse("2026-11-30T12:00:00Z");
    const now = () => clock;
    const storeA = openJsonlStore(dir);
    const token = (await storeA.addToken("acme", "ana", new Date(clock).toISOString())).token;
    const a = await buildServer({ store: storeA, dir, now });
    const storeB = openJsonlStore(dir);
    const b = await buildServer({ store: storeB, dir, now });
    const prompt = async (app: typeof a, n: number) => {
      const r = await app.inject({ method: "POST", url: "/v1/hooks/user-prompt-submit", headers: bearer(token), payload: { session_id: `s${n}`, hook_event_name: "UserPromptSubmit", cwd: "/home/ana/app", prompt: `No, that's wrong: ${n} is not ${ENV_BARE}.` } });
      expect(r.statusCode).toBe(200);
    };
    const captured = () => filesUnder(join(dir, "hooks")).filter((p) => p.endsWith(".jsonl")).map((p) => readFileSync(p, "utf8")).join("");
    try {
      await prompt(a, 1); // A reads (no push yet) and keeps that
      const push = planPush([{ from: "environment VENDOR_SESSION_TOKEN", value: ENV_BARE }], "00112233445566778899aabbccddeeff").store;
      expect((await b.inject({ method: "PUT", url: "/v1/known-values", headers: bearer(token), payload: push })).statusCode).toBe(200);
      await prompt(b, 2); // B, which took the push: at once
      expect(captured()).toContain("2 is not [REDACTED:known-secret]");
      clock += KNOWN_CACHE_MS - 1;
      await prompt(a, 3); // A, within the window: its read of before the push
      // Not scrubbed by the known values (the pattern redactor may still take the value: since
      // the eighth-set pass a random token in such a sentence reads as a password in prose).
      expect(captured()).toContain("3 is not ");
      expect(captured()).not.toContain("3 is not [REDACTED:known-secret]");
      clock += 1;
      await prompt(a, 4); // A, after it: read again
      expect(captured()).toContain("4 is not [REDACTED:known-secret]");
    } finally {
      await a.close();
      await b.close();
      await storeA.close();
      await storeB.close();
      cleanup();
    }
  });
});

describe.skipIf(POSTGRES_BIN === null)("a developer's known values on the Postgres store", () => {
  let pg: TestPostgres;
  let h: Harness;
  beforeAll(async () => {
    pg = await startPostgres();
    h = await harness({ store: await openPostgresStore(pg.database("known_values")) });
  });
  afterAll(async () => {
    await h?.close();
    pg?.stop();
  });

  it("keeps the push as a row and writes no strong value into errata rows or files", async () => {
    const base = await h.app.listen({ port: 0, host: "127.0.0.1" });
    const dev = developer(h.token);
    const pushed = await dev.errata(["secrets", "push", "--to", base, "--project", ".", "--json"]);
    expect(pushed.code, pushed.err).toBe(0);
    expect((JSON.parse(pushed.out) as { stored: number }).stored).toBe(3);
    expect(existsSync(join(h.dir, "known"))).toBe(false); // a row, not a file
    await postEverything(h);
    const rows = await h.store.list("acme", 0, 100);
    const text = JSON.stringify(rows.items);
    expect(text).not.toContain(ENV_BARE);
    expect(text).not.toContain(DOTENV_BARE);
    expect(text).toContain("[REDACTED:known-secret]");
    expect(holding(h.dir, ENV_BARE)).toEqual([]);
    expect(holding(h.dir, DOTENV_BARE)).toEqual([]);
  });
});
