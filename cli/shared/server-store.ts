/**
 * Opening the server's store from `--dir` and `--database` (or ERRATA_DATABASE_URL), shared by
 * `errata serve`, `errata tenants` and `errata sync`.
 *
 * Example: `await storeFor(ctx, { dir: "srv" })` -> the JSONL store over ./srv.
 */
import { userInfo } from "node:os";
import { resolve } from "node:path";
import type { CommandContext } from "./command.js";
import { badInput } from "../../core/errors.js";
import { LABEL_PATTERN, openStore, TENANT_PATTERN, type ErrataStore } from "../../runtime/stores/index.js";

export const DEFAULT_SERVER_DIR = "errata-server";

export interface StoreFlags {
  dir?: string;
  database?: string;
}

export function serverDir(ctx: CommandContext, flags: StoreFlags): string {
  return resolve(ctx.io.cwd, flags.dir ?? DEFAULT_SERVER_DIR);
}

export function databaseUrl(ctx: CommandContext, flags: StoreFlags): string | undefined {
  const url = flags.database ?? ctx.io.env["ERRATA_DATABASE_URL"];
  if (url === undefined || url === "") return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) throw badInput("bad --database", "a URL postgres://user@host:port/db", JSON.stringify(url.replace(/:[^:@/]*@/, ":***@").slice(0, 60)));
  return url;
}

export async function storeFor(ctx: CommandContext, flags: StoreFlags): Promise<ErrataStore> {
  return openStore({ dir: serverDir(ctx, flags), database: databaseUrl(ctx, flags) });
}

/**
 * The store and tenant a batch job (errata daily, errata weekly) runs on instead of the
 * ledger, or null for the ledger; with `developer`, also the name the daily job's team stage
 * pushes under. ERRATA_DATABASE_URL alone (set for errata serve or tenants) does not move a
 * person's run off their ledger: a tenant must be named too. Bad flags exit 2 before anything runs.
 *
 * Example: `tenantStore(ctx, { database: "postgres://…", tenant: "acme" }, false)` -> `{ url, tenant: "acme", developer: null }`.
 */
function accountName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

export function tenantStore(ctx: CommandContext, opts: { database?: string; tenant?: string; developer?: string }, developer: boolean): { url: string; tenant: string; developer: string } | null {
  const tenant = opts.tenant ?? ctx.io.env["ERRATA_TENANT"];
  const url = opts.database !== undefined || tenant !== undefined ? databaseUrl(ctx, opts.database !== undefined ? { database: opts.database } : {}) : undefined;
  if (url === undefined) {
    if (opts.tenant !== undefined || opts.developer !== undefined) throw badInput(`--tenant${developer ? " and --developer go" : " goes"} with --database`, "--database URL (or ERRATA_DATABASE_URL) beside them", opts.tenant !== undefined ? `--tenant ${opts.tenant}` : `--developer ${opts.developer}`);
    return null;
  }
  if (tenant === undefined || !TENANT_PATTERN.test(tenant)) throw badInput("bad --tenant", "with --database, a tenant: lowercase letters, digits and -, up to 40 (or ERRATA_TENANT)", JSON.stringify(tenant ?? null));
  if (!developer) return { url, tenant, developer: "" };
  // A cron job has LOGNAME but often no USER; the account's own name is what both would say.
  const who = opts.developer ?? ctx.io.env["ERRATA_DEVELOPER"] ?? ctx.io.env["USER"] ?? ctx.io.env["LOGNAME"] ?? accountName();
  if (who === undefined || !LABEL_PATTERN.test(who)) throw badInput("bad --developer", "a name of lowercase letters, digits and . _ -, up to 64 (or ERRATA_DEVELOPER, else USER, LOGNAME or the account's name)", JSON.stringify(who ?? null));
  return { url, tenant, developer: who };
}
