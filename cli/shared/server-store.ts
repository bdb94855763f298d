/**
 * Opening the server's store from `--dir` and `--database` (or ERRATA_DATABASE_URL), shared by
 * `errata serve`, `errata tenants` and `errata sync`.
 *
 * Example: `await storeFor(ctx, { dir: "srv" })` -> the JSONL store over ./srv.
 */
import { resolve } from "node:path";
import type { CommandContext } from "./command.js";
import { badInput } from "../../core/errors.js";
import { openStore, type ErrataStore } from "../../runtime/stores/index.js";

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
