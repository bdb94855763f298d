/**
 * Storage behind one interface (types.ts): the JSONL ledger per tenant (`jsonl.ts`, the
 * embedded default) and PostgreSQL (`postgres.ts`, with `migrations.ts`). `openStore` picks
 * one from what the command was given.
 *
 * Example: `await openStore({ dir: "./srv" })` -> a JSONL store over `./srv/tenants/*`;
 * `await openStore({ dir: "./srv", database: "postgres://…" })` -> the Postgres store.
 */
import { openJsonlStore } from "./jsonl.js";
import { openPostgresStore } from "./postgres.js";
import type { ErrataStore } from "./types.js";

export { openJsonlStore, tenantPaths } from "./jsonl.js";
export { asTenant, migrate, openPostgresStore } from "./postgres.js";
export { MIGRATIONS } from "./migrations.js";
export { hashToken, newToken } from "./tokens.js";
export { LABEL_PATTERN, TENANT_PATTERN, type AppendResult, type ErrataStore, type Page, type Principal, type StoredErratum, type TokenRecord } from "./types.js";

export async function openStore(where: { dir: string; database?: string | undefined; systems?: ReadonlySet<string> }): Promise<ErrataStore> {
  if (where.database !== undefined) return openPostgresStore(where.database);
  return openJsonlStore(where.dir, where.systems ? { systems: where.systems } : {});
}
