/**
 * The PostgreSQL store: errata as rows (`errata.line`, the whole redacted erratum as JSON),
 * patches as rows of their own folded on at read (the ledger's append-only semantics), the
 * same redaction at write as the JSONL ledger, and tenant isolation by forced row-level
 * security (migrations.ts). Every tenant query runs in a transaction as `errata_tenant` with
 * `errata.tenant` set locally; the token table is read by the connecting role alone.
 *
 * Example: `const store = await openPostgresStore("postgres://errata@127.0.0.1:5432/errata")`;
 * `await store.append("acme", erratum, "key-1")` -> `{ id, seq, created: true }`.
 */
import { createHash } from "node:crypto";
import pg from "pg";
import { ErrataError } from "../../core/errors.js";
import { PatchSchema, type Erratum, type PatchSet } from "../../schemas/erratum.js";
import { KnownPushSchema } from "../../schemas/known-values.js";
import { RuleLedgerLineSchema, type RuleLedgerLine } from "../../schemas/rule-ledger.js";
import { applySet, newErratumId, patchRefusal, redactErratum } from "../store/index.js";
import { redactForWrite } from "../privacy/index.js";
import { MIGRATIONS } from "./migrations.js";
import { hashToken, newToken } from "./tokens.js";
import type { AppendResult, ErrataStore, Page, StoredErratum, TokenRecord } from "./types.js";

type Client = pg.PoolClient;

/** Applies the migrations not yet applied; returns the versions it applied. */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const c = await pool.connect();
  try {
    await c.query("SELECT pg_advisory_lock(727274)"); // one migrator at a time
    await c.query("CREATE TABLE IF NOT EXISTS errata_migrations (version int PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await c.query<{ version: number }>("SELECT version FROM errata_migrations")).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await c.query("BEGIN");
      try {
        await c.query(m.sql);
        await c.query("INSERT INTO errata_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
        await c.query("COMMIT");
      } catch (err) {
        await c.query("ROLLBACK");
        throw err;
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await c.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
    c.release();
  }
}

/** Runs `fn` in a transaction as errata_tenant with `errata.tenant` set for it alone. */
export async function asTenant<T>(pool: pg.Pool, tenant: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL ROLE errata_tenant");
    await c.query("SELECT set_config('errata.tenant', $1, true)", [tenant]);
    const out = await fn(c);
    await c.query("COMMIT");
    return out;
  } catch (err) {
    await c.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

function rowToken(r: { token_id: string; tenant: string; label: string; created: unknown; revoked: unknown }): TokenRecord {
  return { token_id: r.token_id, tenant: r.tenant, label: r.label, created: iso(r.created), revoked: r.revoked === null ? null : iso(r.revoked) };
}

async function foldedOf(c: Client, rows: Array<{ seq: string; line: Erratum }>): Promise<StoredErratum[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.line.id);
  const patches = await c.query<{ id: string; ts: string; patch: PatchSet }>("SELECT id, ts, patch FROM erratum_patches WHERE id = ANY($1) ORDER BY seq", [ids]);
  const byId = new Map<string, Array<{ ts: string; patch: PatchSet }>>();
  for (const p of patches.rows) byId.set(p.id, [...(byId.get(p.id) ?? []), p]);
  return rows.map((r) => {
    let e = r.line;
    let updated = e.ts;
    for (const p of byId.get(e.id) ?? []) {
      if (patchRefusal(e, p.patch) !== null) continue; // as the ledger's fold: an illegal patch is skipped
      e = applySet(e, p.patch);
      if (p.ts > updated) updated = p.ts;
    }
    return { seq: Number(r.seq), erratum: e, updated };
  });
}

export async function openPostgresStore(url: string, opts: { max?: number } = {}): Promise<ErrataStore & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  pool.on("error", () => undefined); // an idle client's lost connection: the next query reconnects
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new ErrataError("BAD_CONFIG", "cannot open the Postgres store", { expected: "a reachable PostgreSQL URL whose role may create tables", found: (err as Error).message });
  }
  const findByKey = async (c: Client, key: string) =>
    (await c.query<{ seq: string; id: string }>("SELECT seq, id FROM errata WHERE idem_key = $1", [key])).rows[0];

  return {
    kind: "postgres",
    pool,
    async addToken(tenant, label, nowIso, dryRun = false) {
      const t = newToken();
      const record: TokenRecord = { token_id: t.token_id, tenant, label, created: nowIso, revoked: null };
      if (!dryRun) await pool.query("INSERT INTO tenant_tokens (token_id, tenant, label, hash, created) VALUES ($1, $2, $3, $4, $5)", [t.token_id, tenant, label, t.hash, nowIso]);
      return { token: t.token, record };
    },
    async listTokens() {
      return (await pool.query("SELECT token_id, tenant, label, created, revoked FROM tenant_tokens ORDER BY created, token_id")).rows.map(rowToken);
    },
    async revoke(what, nowIso, dryRun = false) {
      const sql = dryRun
        ? "SELECT token_id, tenant, label, created, $2::timestamptz AS revoked FROM tenant_tokens WHERE revoked IS NULL AND (token_id = $1 OR tenant = $1)"
        : "UPDATE tenant_tokens SET revoked = $2 WHERE revoked IS NULL AND (token_id = $1 OR tenant = $1) RETURNING token_id, tenant, label, created, revoked";
      return (await pool.query(sql, [what, nowIso])).rows.map(rowToken);
    },
    async authenticate(token) {
      const r = (await pool.query<{ tenant: string; token_id: string; label: string }>("SELECT tenant, token_id, label FROM tenant_tokens WHERE hash = $1 AND revoked IS NULL", [hashToken(token)])).rows[0];
      return r ? { tenant: r.tenant, token_id: r.token_id, label: r.label } : null;
    },
    async append(tenant, erratum, key): Promise<AppendResult> {
      const { erratum: clean } = redactErratum(erratum);
      return asTenant(pool, tenant, async (c) => {
        if (key !== null) {
          const seen = await findByKey(c, key);
          if (seen) return { id: seen.id, seq: Number(seen.seq), created: false };
        }
        let e = clean;
        for (let tries = 0; ; tries++) {
          await c.query("SAVEPOINT ins");
          try {
            const r = await c.query<{ seq: string }>(
              "INSERT INTO errata (tenant, id, ts, line, idem_key) VALUES ($1, $2, $3, $4, $5) RETURNING seq",
              [tenant, e.id, e.ts, JSON.stringify(e), key],
            );
            return { id: e.id, seq: Number(r.rows[0]!.seq), created: true };
          } catch (err) {
            await c.query("ROLLBACK TO SAVEPOINT ins");
            const constraint = (err as { constraint?: string }).constraint;
            if (constraint === "errata_tenant_idem_key_key" && key !== null) {
              const seen = await findByKey(c, key); // a concurrent post with the same key won
              if (seen) return { id: seen.id, seq: Number(seen.seq), created: false };
            }
            if (constraint !== "errata_tenant_id_key" || tries > 50) throw err;
            e = { ...e, id: newErratumId(Date.parse(e.ts)) };
          }
        }
      });
    },
    async patch(tenant, id, set, ts) {
      const checked = PatchSchema.parse({ schema: "erratum-patch/1", id, ts, set });
      const clean: PatchSet = checked.set.enrichment ? { ...checked.set, enrichment: redactForWrite(checked.set.enrichment).value } : checked.set;
      await asTenant(pool, tenant, async (c) => {
        // One patcher of an erratum at a time (two daily runs of a tenant): the second reads the
        // state the first committed, so a patch the first made illegal is refused, as on the ledger.
        await c.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 727274))", [`${tenant}/${id}`]);
        const row = (await c.query<{ seq: string; line: Erratum }>("SELECT seq, line FROM errata WHERE id = $1", [id])).rows[0];
        if (!row) throw new ErrataError("NOT_FOUND", `no erratum with id ${id} for this tenant`, { expected: "an id this tenant posted", found: id });
        const [current] = await foldedOf(c, [row]);
        const refusal = patchRefusal(current!.erratum, clean);
        if (refusal) throw new ErrataError("BAD_INPUT", refusal);
        await c.query("INSERT INTO erratum_patches (tenant, id, ts, patch) VALUES ($1, $2, $3, $4)", [tenant, id, ts, JSON.stringify(clean)]);
      });
    },
    async list(tenant, after, limit): Promise<Page> {
      return asTenant(pool, tenant, async (c) => {
        const rows = (await c.query<{ seq: string; line: Erratum }>("SELECT seq, line FROM errata WHERE seq > $1 ORDER BY seq LIMIT $2", [after, limit + 1])).rows;
        const more = rows.length > limit;
        const items = await foldedOf(c, rows.slice(0, limit));
        return { items, next: more ? (items.at(-1)?.seq ?? after) : null };
      });
    },
    async appendRuleLines(tenant, developer, lines) {
      // Checked and redacted as the ladder's own append does, then keyed by content: a line
      // pushed again (a re-run of the daily job) is held once.
      const rows = lines.map((l) => {
        const line = RuleLedgerLineSchema.parse(redactForWrite(l).value);
        const text = JSON.stringify(line);
        return { text, hash: createHash("sha256").update(text).digest("hex") };
      });
      return asTenant(pool, tenant, async (c) => {
        let written = 0;
        for (let i = 0; i < rows.length; i += 500) {
          const chunk = rows.slice(i, i + 500);
          const r = await c.query(
            `INSERT INTO rule_lines (tenant, developer, line, line_hash)
             SELECT $1, $2, l.line::jsonb, l.hash FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS l(line, hash, n) ORDER BY l.n
             ON CONFLICT (tenant, developer, line_hash) DO NOTHING`,
            [tenant, developer, chunk.map((x) => x.text), chunk.map((x) => x.hash)],
          );
          written += r.rowCount ?? 0;
        }
        return { written, present: rows.length - written };
      });
    },
    async ruleLines(tenant) {
      return asTenant(pool, tenant, async (c) => {
        const rows = (await c.query<{ developer: string; line: unknown }>("SELECT developer, line FROM rule_lines ORDER BY seq")).rows;
        const byDeveloper = new Map<string, RuleLedgerLine[]>();
        let problems = 0;
        for (const r of rows) {
          const parsed = RuleLedgerLineSchema.safeParse(r.line);
          if (!parsed.success) {
            problems++;
            continue;
          }
          const list = byDeveloper.get(r.developer) ?? [];
          list.push(parsed.data);
          byDeveloper.set(r.developer, list);
        }
        return { byDeveloper, problems };
      });
    },
    async putKnownValues(tenant, developer, push, nowIso) {
      await asTenant(pool, tenant, async (c) => {
        await c.query("INSERT INTO known_values (tenant, developer, store, pushed) VALUES ($1, $2, $3::jsonb, $4)", [tenant, developer, JSON.stringify(push), nowIso]);
      });
    },
    async knownValues(tenant) {
      return asTenant(pool, tenant, async (c) => {
        const rows = (await c.query<{ developer: string; store: unknown; pushed: unknown }>("SELECT DISTINCT ON (developer) developer, store, pushed FROM known_values ORDER BY developer, seq DESC")).rows;
        return rows.flatMap((r) => {
          const p = KnownPushSchema.safeParse(r.store);
          return p.success ? [{ developer: r.developer, push: p.data, pushed: iso(r.pushed) }] : [];
        });
      });
    },
    async count(tenant) {
      return asTenant(pool, tenant, async (c) => Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM errata")).rows[0]!.n));
    },
    async close() {
      await pool.end();
    },
  };
}
