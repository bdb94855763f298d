// The Postgres store against a real PostgreSQL (a throwaway cluster): migrations once, the
// JSONL ledger's append-only semantics (patches folded at read, an illegal patch refused),
// redaction at write, idempotency keys, and tenant isolation enforced by the database itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { newErratum } from "../../runtime/store/index.js";
import { asTenant, migrate, openPostgresStore, type ErrataStore } from "../../runtime/stores/index.js";
import { POSTGRES_BIN, startPostgres, type TestPostgres } from "../helpers/postgres.js";

const T0 = Date.parse("2026-11-30T12:00:00Z");
const reporter = { id: "rp-0123456789abcdef", role: "customer" };
const erratum = (complaint: string, tenant = "acme") => newErratum({ nowMs: T0, complaint, reporter, instance: tenant, source: "customer", channel: "api" });
const enrichment = {
  schema: "enrichment/1" as const, how_upset: 2, which_part: "the total", what_upset: "wrong total", reporter_right: true,
  reporter_right_reason: "the sum is off", root_cause_hypothesis: "rounding", class: null, proposed_fix: "round once", confidence: 0.8, model: "gpt-test", enrichment_version: "enrich/3",
};

describe.skipIf(POSTGRES_BIN === null)("the Postgres store", () => {
  let pgc: TestPostgres;
  let store: ErrataStore & { pool: pg.Pool };
  beforeAll(async () => {
    pgc = await startPostgres();
    store = await openPostgresStore(pgc.database("store_test"));
  });
  afterAll(async () => {
    await store?.close();
    pgc?.stop();
  });

  it("applies its migrations once", async () => {
    expect(await migrate(store.pool)).toEqual([]);
    const versions = (await store.pool.query("SELECT version FROM errata_migrations")).rows.map((r: { version: number }) => r.version);
    expect(versions).toEqual([1, 2, 3]);
  });

  it("appends once per idempotency key, redacts at write, folds patches at read", async () => {
    const e = erratum("the deploy leaked AKIAIOSFODNN7EXAMPLQ in the log");
    const first = await store.append("acme", e, "k-1");
    const again = await store.append("acme", { ...e, complaint: "a retry" }, "k-1");
    expect(first.created).toBe(true);
    expect(again).toEqual({ ...first, created: false });
    await store.patch("acme", first.id, { status: "enriched", enrichment }, "2026-12-01T08:00:00.000Z");
    const page = await store.list("acme", 0, 10);
    expect(page.items.map((i) => i.erratum.id)).toEqual([first.id]);
    const got = page.items[0]!;
    expect(got.erratum.complaint).not.toContain("AKIAIOSFODNN7EXAMPLQ");
    expect(got.erratum.complaint).toContain("[REDACTED:");
    expect(got.erratum.status).toBe("enriched");
    expect(got.updated).toBe("2026-12-01T08:00:00.000Z");
    // the stored row is the erratum as received; the patch is a row of its own
    const rows = (await store.pool.query("SELECT count(*)::int AS n FROM erratum_patches")).rows[0] as { n: number };
    expect(rows.n).toBe(1);
    await expect(store.patch("acme", first.id, { status: "new" }, "2026-12-02T08:00:00.000Z")).rejects.toThrow(/illegal status transition/);
  });

  it("patches an erratum one writer at a time: of two concurrent final statuses, one is written and the other refused", async () => {
    const ids: string[] = [];
    for (let k = 0; k < 4; k++) {
      const { id } = await store.append("racing", erratum(`raced ${k}`, "racing"), null);
      await store.patch("racing", id, { status: "enriched", enrichment }, "2026-12-01T08:00:00.000Z");
      await store.patch("racing", id, { status: "triaged" }, "2026-12-01T08:00:01.000Z");
      ids.push(id);
    }
    // fixed and wontfix are both final: whichever lands first makes the other illegal.
    const tries = await Promise.allSettled(ids.flatMap((id) => (["fixed", "wontfix"] as const).map((status) => store.patch("racing", id, { status }, "2026-12-01T09:00:00.000Z"))));
    expect(tries.filter((t) => t.status === "fulfilled")).toHaveLength(4);
    for (const t of tries.filter((x): x is PromiseRejectedResult => x.status === "rejected")) expect(String(t.reason)).toMatch(/illegal status transition/);
    const rows = (await store.pool.query("SELECT count(*)::int AS n FROM erratum_patches WHERE tenant = 'racing'")).rows[0] as { n: number };
    expect(rows.n).toBe(4 * 3);
  });

  it("pages by cursor in the order received", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.append("paged", erratum(`complaint ${i}`, "paged"), null)).id);
    const a = await store.list("paged", 0, 2);
    const b = await store.list("paged", a.next!, 2);
    const c = await store.list("paged", b.next!, 2);
    expect([...a.items, ...b.items, ...c.items].map((i) => i.erratum.id)).toEqual(ids);
    expect(c.next).toBeNull();
  });

  it("isolates tenants in the database: a tenant's session sees and writes only its own rows", async () => {
    await store.append("t-one", erratum("one's complaint", "t-one"), null);
    await store.append("t-two", erratum("two's complaint", "t-two"), null);
    expect((await store.list("t-one", 0, 100)).items.map((i) => i.erratum.complaint)).toEqual(["one's complaint"]);
    // Straight SQL as the tenant role: no WHERE clause, still one tenant's rows.
    const seen = await asTenant(store.pool, "t-one", async (c) => (await c.query("SELECT DISTINCT tenant FROM errata")).rows.map((r: { tenant: string }) => r.tenant));
    expect(seen).toEqual(["t-one"]);
    // Writing another tenant's row is refused by the policy.
    const e = erratum("forged", "t-two");
    await expect(asTenant(store.pool, "t-one", (c) => c.query("INSERT INTO errata (tenant, id, ts, line) VALUES ('t-two', $1, $2, $3)", [e.id, e.ts, JSON.stringify(e)]))).rejects.toThrow(/row-level security/);
    // No tenant set: no rows at all.
    const none = await asTenant(store.pool, "", async (c) => (await c.query("SELECT count(*)::int AS n FROM errata")).rows[0] as { n: number });
    expect(none.n).toBe(0);
    // Patching another tenant's erratum: not found for this tenant.
    const two = (await store.list("t-two", 0, 1)).items[0]!.erratum.id;
    await expect(store.patch("t-one", two, { status: "enriched", enrichment }, "2026-12-01T00:00:00.000Z")).rejects.toThrow(/no erratum/);
  });

  it("keeps developers' rule lines once each, in order, and apart by tenant in the database", async () => {
    const rule = { kind: "rule" as const, v: 1 as const, rule_id: "claude-md.a.000001", at: "2026-11-30T10:00:00.000Z", text: "use pnpm", why: null, when: null, when_not: null, rung: 1 as const, location: { kind: "text" as const, file: "CLAUDE.md", section: null }, origin: "index" as const, keywords: [], witness: null, exempt: false };
    const patch = { kind: "patch" as const, v: 1 as const, rule_id: rule.rule_id, at: "2026-11-30T11:00:00.000Z", set: { rung: 2 as const }, because: "approved climb" };
    expect(await store.appendRuleLines!("r-one", "ana", [rule, patch, rule])).toEqual({ written: 2, present: 1 });
    expect(await store.appendRuleLines!("r-one", "ana", [rule, patch])).toEqual({ written: 0, present: 2 });
    expect(await store.appendRuleLines!("r-one", "bob", [rule])).toEqual({ written: 1, present: 0 });
    expect(await store.appendRuleLines!("r-two", "ana", [{ ...rule, text: "AKIAIOSFODNN7EXAMPLQ is the key" }])).toEqual({ written: 1, present: 0 });
    const one = await store.ruleLines!("r-one");
    expect([...one.byDeveloper.keys()].sort()).toEqual(["ana", "bob"]);
    expect(one.byDeveloper.get("ana")!.map((l) => l.kind)).toEqual(["rule", "patch"]);
    const two = await store.ruleLines!("r-two");
    expect(JSON.stringify([...two.byDeveloper.values()])).not.toContain("AKIAIOSFODNN7EXAMPLQ");
    const seen = await asTenant(store.pool, "r-one", async (c) => (await c.query("SELECT DISTINCT tenant FROM rule_lines")).rows.map((r: { tenant: string }) => r.tenant));
    expect(seen).toEqual(["r-one"]);
    await expect(asTenant(store.pool, "r-one", (c) => c.query("INSERT INTO rule_lines (tenant, developer, line, line_hash) VALUES ('r-two', 'eve', '{}', 'x')"))).rejects.toThrow(/row-level security/);
  });

  it("keeps each developer's last push of known values, apart by tenant in the database", async () => {
    const push = (salt: string, n: number) => ({ version: 1 as const, salt, fp_bits: 8, entries: Array.from({ length: n }, (_, i) => ({ n: 20, fp: i, h: `${i}`.padStart(64, "a") })) });
    await store.putKnownValues!("k-one", "ana", push("00".repeat(16), 2), "2026-11-30T10:00:00.000Z");
    await store.putKnownValues!("k-one", "ana", push("11".repeat(16), 3), "2026-11-30T11:00:00.000Z");
    await store.putKnownValues!("k-one", "bob", push("22".repeat(16), 1), "2026-11-30T11:00:00.000Z");
    await store.putKnownValues!("k-two", "eve", push("33".repeat(16), 4), "2026-11-30T11:00:00.000Z");
    const one = await store.knownValues!("k-one");
    expect(one.map((k) => [k.developer, k.push.salt, k.push.entries.length, k.pushed])).toEqual([
      ["ana", "11".repeat(16), 3, "2026-11-30T11:00:00.000Z"],
      ["bob", "22".repeat(16), 1, "2026-11-30T11:00:00.000Z"],
    ]);
    expect((await store.knownValues!("k-two")).map((k) => k.developer)).toEqual(["eve"]);
    await expect(asTenant(store.pool, "k-one", (c) => c.query("INSERT INTO known_values (tenant, developer, store, pushed) VALUES ('k-two', 'eve', '{}', now())"))).rejects.toThrow(/row-level security/);
    await expect(asTenant(store.pool, "k-one", (c) => c.query("UPDATE known_values SET store = '{}'"))).rejects.toThrow(/permission denied/);
  });

  it("keeps tokens hashed and refuses a revoked one at once", async () => {
    const { token, record } = await store.addToken("acme", "billing-app", "2026-11-30T12:00:00.000Z");
    expect(await store.authenticate(token)).toEqual({ tenant: "acme", token_id: record.token_id, label: "billing-app" });
    const stored = (await store.pool.query("SELECT hash FROM tenant_tokens WHERE token_id = $1", [record.token_id])).rows[0] as { hash: string };
    expect(stored.hash).not.toContain(token.slice(3, 20));
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    await store.revoke(record.token_id, "2026-11-30T13:00:00.000Z");
    expect(await store.authenticate(token)).toBeNull();
  });
});
