// errata sync --from: pulls a tenant's errata from a real server on loopback into the
// owner's ledger or into a store; resumable from its saved cursor after a failure part-way,
// idempotent when run again or when the cursor is lost; the token only from ERRATA_SYNC_TOKEN.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { openLedger } from "../../runtime/store/index.js";
import { openPostgresStore, type ErrataStore } from "../../runtime/stores/index.js";
import { resolvePaths } from "../../runtime/paths.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { POSTGRES_BIN, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { bearer, good, harness, type Harness } from "./helpers.js";

async function sync(cwd: string, env: Record<string, string>, ...argv: string[]) {
  const m = memoryIo({ cwd, env: { HOME: cwd, ERRATA_DIR: join(cwd, "ledger"), ...env } });
  const code = await run(["sync", ...argv], m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata sync", () => {
  let h: Harness;
  let base: string;
  let failAfter = Infinity;
  let served = 0;
  beforeAll(async () => {
    h = await harness();
    h.app.addHook("onRequest", async (req, reply) => {
      if (req.method === "GET" && req.url.startsWith("/v1/errata") && ++served > failAfter) await reply.code(503).send({ error: "down" });
    });
    base = await h.app.listen({ port: 0, host: "127.0.0.1" });
    for (let i = 0; i < 7; i++) await h.app.inject({ method: "POST", url: "/v1/errata", headers: bearer(h.token), payload: good({ complaint: `complaint ${i}` }) });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    failAfter = Infinity;
    served = 0;
  });

  it("pulls into the ledger by pages, resumes from its cursor after a failure, and writes nothing twice", async () => {
    const { dir } = tempDir();
    const env = { ERRATA_SYNC_TOKEN: h.token };
    failAfter = 2;
    const broken = await sync(dir, env, "--from", base, "--limit", "3");
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/expected 200; found 503/);
    const ledger = () => openLedger(resolvePaths({ ERRATA_DIR: join(dir, "ledger") }, dir)).readAll().errata.map((f) => f.erratum.complaint);
    expect(ledger()).toHaveLength(6);
    failAfter = Infinity;
    const resumed = await sync(dir, env, "--from", base, "--limit", "3", "--json");
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.out)).toEqual({ source: base, pulled: 1, written: 1, already_here: 0, refused: 0, cursor: 7 });
    expect(ledger().sort()).toEqual(Array.from({ length: 7 }, (_, i) => `complaint ${i}`));
    const again = await sync(dir, env, "--from", base);
    expect(again.out).toBe("pulled 0 errata (0 new, 0 already here), cursor 7\n");
    // The cursor lost: everything pulled again, nothing written twice.
    rmSync(join(dir, "ledger", ".state", "sync"), { recursive: true });
    const lost = await sync(dir, env, "--from", `${base}/`, "--json");
    expect(JSON.parse(lost.out)).toMatchObject({ pulled: 7, written: 0, already_here: 7, cursor: 7 });
    expect(ledger()).toHaveLength(7);
  });

  it("pulls into a store under --tenant, once per erratum", async () => {
    const { dir } = tempDir();
    const env = { ERRATA_SYNC_TOKEN: h.token };
    const first = await sync(dir, env, "--from", base, "--dir", "mirror", "--tenant", "copied", "--json");
    expect(JSON.parse(first.out)).toMatchObject({ pulled: 7, written: 7 });
    rmSync(join(dir, "ledger", ".state", "sync"), { recursive: true });
    const second = await sync(dir, env, "--from", base, "--dir", "mirror", "--tenant", "copied", "--json");
    expect(JSON.parse(second.out)).toMatchObject({ pulled: 7, written: 0, already_here: 7 });
    expect(readdirSync(join(dir, "mirror", "tenants"))).toEqual(["copied"]);
  });

  it("refuses bad input before it writes: no token, a wrong token, a bad URL, a store with no tenant", async () => {
    const { dir } = tempDir();
    const cases: Array<[Record<string, string>, string[], RegExp]> = [
      [{}, ["--from", base], /ERRATA_SYNC_TOKEN/],
      [{ ERRATA_SYNC_TOKEN: "et_wrong" }, ["--from", base], /refused the token/],
      [{ ERRATA_SYNC_TOKEN: h.token }, ["--from", "ftp://x"], /bad --from/],
      [{ ERRATA_SYNC_TOKEN: h.token }, ["--from", base, "--dir", "m"], /bad --tenant/],
      [{ ERRATA_SYNC_TOKEN: h.token }, ["--from", base, "--limit", "0"], /bad --limit/],
    ];
    for (const [env, argv, message] of cases) {
      const r = await sync(dir, env, ...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toMatch(message);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  describe.skipIf(POSTGRES_BIN === null)("into PostgreSQL", () => {
    let pgc: TestPostgres;
    let store: ErrataStore;
    beforeAll(async () => {
      pgc = await startPostgres();
    });
    afterAll(async () => {
      await store?.close();
      pgc?.stop();
    });
    it("pulls into the database once, tenant by tenant", async () => {
      const { dir } = tempDir();
      const url = pgc.database("sync_test");
      const env = { ERRATA_SYNC_TOKEN: h.token };
      expect(JSON.parse((await sync(dir, env, "--from", base, "--database", url, "--tenant", "copied", "--json")).out)).toMatchObject({ written: 7 });
      rmSync(join(dir, "ledger", ".state", "sync"), { recursive: true });
      expect(JSON.parse((await sync(dir, env, "--from", base, "--database", url, "--tenant", "copied", "--json")).out)).toMatchObject({ written: 0, already_here: 7 });
      store = await openPostgresStore(url);
      expect(await store.count("copied")).toBe(7);
      expect(await store.count("other")).toBe(0);
      // errata store export | import between the database and a JSONL folder, both ways
      const cli = async (...argv: string[]) => {
        const m = memoryIo({ cwd: dir, env: { HOME: dir, ERRATA_DIR: join(dir, "ledger") } });
        return { code: await run(argv, m.io), out: m.out() };
      };
      expect((await cli("store", "export", "--database", url, "--tenant", "copied", "--out", "pg.jsonl")).out).toBe("exported 7 errata to pg.jsonl\n");
      expect((await cli("store", "import", "pg.jsonl", "--dir", "folder", "--tenant", "copied")).out).toBe("imported 7 errata (7 new, 0 already here)\n");
      expect((await cli("store", "export", "--dir", "folder", "--tenant", "copied", "--out", "folder.jsonl")).code).toBe(0);
      const parse = (f: string) => readFileSync(join(dir, f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as unknown);
      expect(parse("folder.jsonl")).toEqual(parse("pg.jsonl")); // jsonb keeps no key order: compared as values
      expect((await cli("store", "import", "folder.jsonl", "--database", url, "--tenant", "back")).out).toBe("imported 7 errata (7 new, 0 already here)\n");
      expect(await store.count("back")).toBe(7);
    });
  });
});
