// errata tenants add|list|revoke and errata serve through the CLI, in process: tokens shown
// once and stored hashed, revocation, --dry-run writing nothing, bad flags exit 2 naming what
// was expected and found.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

async function errata(cwd: string, ...argv: string[]) {
  const m = memoryIo({ cwd, env: { HOME: cwd } });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata tenants", () => {
  it("adds a token shown once and stored hashed, lists it without the token, revokes it", async () => {
    const { dir } = tempDir();
    const added = await errata(dir, "tenants", "add", "acme", "--label", "ana", "--dir", "srv");
    expect(added.code).toBe(0);
    const token = /: (et_[A-Za-z0-9_-]{43})$/m.exec(added.out)?.[1];
    expect(token).toBeDefined();
    const stored = readFileSync(join(dir, "srv", "tokens.jsonl"), "utf8");
    expect(stored).not.toContain(token!);
    const listed = await errata(dir, "tenants", "list", "--dir", "srv", "--json");
    const tokens = (JSON.parse(listed.out) as { tokens: Array<{ token_id: string; tenant: string; label: string; revoked: string | null }> }).tokens;
    expect(tokens).toEqual([{ token_id: expect.stringMatching(/^tk-[0-9a-f]{8}$/), tenant: "acme", label: "ana", created: "2026-11-30T12:00:00.000Z", revoked: null }]);
    expect(listed.out).not.toContain(token!);
    const dry = await errata(dir, "tenants", "revoke", tokens[0]!.token_id, "--dir", "srv", "--dry-run");
    expect(dry.out).toContain("would revoke");
    expect(readFileSync(join(dir, "srv", "tokens.jsonl"), "utf8")).toBe(stored);
    const revoked = await errata(dir, "tenants", "revoke", "acme", "--dir", "srv");
    expect(revoked.out).toBe(`revoked ${tokens[0]!.token_id} (acme, ana)\n`);
    expect((await errata(dir, "tenants", "list", "--dir", "srv")).out).toContain("revoked 2026-11-30T12:00:00.000Z");
    const again = await errata(dir, "tenants", "revoke", "acme", "--dir", "srv");
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/expected .*found "acme"/);
  });

  it("--dry-run writes nothing; a bad tenant or label exits 2 and writes nothing", async () => {
    const { dir } = tempDir();
    const dry = await errata(dir, "tenants", "add", "acme", "--dry-run", "--json");
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ dry_run: true, tenant: "acme", label: "default", token: null });
    for (const argv of [["tenants", "add", "Acme Corp"], ["tenants", "add", "acme", "--label", "Ana!"]]) {
      const r = await errata(dir, ...argv);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/expected .*; found /);
    }
    expect(readdirSync(dir)).toEqual([]);
    const badDb = await errata(dir, "tenants", "list", "--database", "mysql://x");
    expect(badDb.code).toBe(2);
    expect(badDb.err).toContain("postgres://");
  });
});

describe("errata serve", () => {
  it("--once binds, prints the address and stops, writing nothing but the log it was asked for", async () => {
    const { dir } = tempDir();
    const r = await errata(dir, "serve", "--dir", "srv", "--port", "0", "--once", "--rate", "100", "--body-limit", "65536", "--log", "server.log");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^errata serve: listening on http:\/\/127\.0\.0\.1:\d+ \(jsonl store\)\n$/);
    expect(existsSync(join(dir, "srv"))).toBe(false);
    expect(readdirSync(dir)).toEqual(["server.log"]);
  });

  it("bad flags exit 2 naming what was expected", async () => {
    const { dir } = tempDir();
    for (const [flag, value] of [["--port", "70000"], ["--rate", "0"], ["--body-limit", "ten"]] as const) {
      const r = await errata(dir, "serve", "--once", flag, value);
      expect(r.code, flag).toBe(2);
      expect(r.err, flag).toMatch(new RegExp(`bad ${flag}.*expected an integer from`));
    }
    const host = await errata(dir, "serve", "--once", "--port", "0", "--host", "203.0.113.1");
    expect(host.code).toBe(2);
    expect(host.err).toContain("cannot listen");
  });

  it("--labelling fronts a loopback labelling server with --labelling-state; alone, or off loopback, exits 2 and writes nothing", async () => {
    const { dir } = tempDir();
    const ok = await errata(dir, "serve", "--dir", "srv", "--port", "0", "--once", "--labelling", "http://127.0.0.1:7311", "--labelling-state", "label-state");
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(jsonl store\)/);
    for (const [argv, pattern] of [
      [["--labelling", "http://127.0.0.1:7311"], /--labelling and --labelling-state go together.*found --labelling alone/],
      [["--labelling-state", "s"], /found --labelling-state alone/],
      [["--labelling", "http://203.0.113.1:7311", "--labelling-state", "s"], /bad --labelling.*expected an http URL on loopback/],
      [["--labelling", "not a url", "--labelling-state", "s"], /bad --labelling.*found "not a url"/],
    ] as const) {
      const r = await errata(dir, "serve", "--dir", "srv", "--port", "0", "--once", ...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toMatch(pattern);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("errata store export | import", () => {
  it("moves errata from the ledger to a JSONL store and back out, once each; a bad line refuses the whole file", async () => {
    const { dir } = tempDir();
    const env = { HOME: dir, ERRATA_DIR: join(dir, "ledger") };
    const cli = async (...argv: string[]) => {
      const m = memoryIo({ cwd: dir, env });
      return { code: await run(argv, m.io), out: m.out(), err: m.err() };
    };
    expect((await cli("add", "bug:", "it deleted the wrong branch")).code).toBe(0);
    expect((await cli("add", "complaint:", "it pushed to main")).code).toBe(0);
    expect((await cli("store", "export", "--out", "a.jsonl", "--dry-run")).out).toBe("would export 2 errata to a.jsonl\n");
    expect(existsSync(join(dir, "a.jsonl"))).toBe(false);
    expect((await cli("store", "export", "--out", "a.jsonl")).out).toBe("exported 2 errata to a.jsonl\n");
    const dry = await cli("store", "import", "a.jsonl", "--dir", "srv", "--tenant", "me", "--dry-run", "--json");
    expect(JSON.parse(dry.out)).toMatchObject({ dry_run: true, errata: 2 });
    expect(existsSync(join(dir, "srv"))).toBe(false);
    expect((await cli("store", "import", "a.jsonl", "--dir", "srv", "--tenant", "me")).out).toBe("imported 2 errata (2 new, 0 already here)\n");
    expect((await cli("store", "import", "a.jsonl", "--dir", "srv", "--tenant", "me")).out).toBe("imported 2 errata (0 new, 2 already here)\n");
    expect((await cli("store", "export", "--dir", "srv", "--tenant", "me", "--out", "b.jsonl")).code).toBe(0);
    expect(readFileSync(join(dir, "b.jsonl"), "utf8")).toBe(readFileSync(join(dir, "a.jsonl"), "utf8"));
    // back into the ledger: all there already
    expect(JSON.parse((await cli("store", "import", "b.jsonl", "--json")).out)).toMatchObject({ written: 0, already_here: 2 });
    const bad = readFileSync(join(dir, "a.jsonl"), "utf8").replace('"rating":null', '"rating":0');
    writeFileSync(join(dir, "bad.jsonl"), bad);
    const refused = await cli("store", "import", "bad.jsonl", "--dir", "srv2", "--tenant", "me");
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/line 1 refused; nothing imported .*rating-off-scale/);
    expect(existsSync(join(dir, "srv2"))).toBe(false);
    expect((await cli("store", "export", "--dir", "srv", "--out", "c.jsonl")).code).toBe(2);
  });
});
