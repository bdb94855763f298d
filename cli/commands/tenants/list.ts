/**
 * `errata tenants list`: every token (its id, tenant, label, when made, when revoked); never
 * a token itself.
 *
 * Example: `errata tenants list` -> `tk-1f0c9a2b  acme  ana  2026-11-30T12:00:00.000Z  live`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { printJson, println } from "../../shared/io.js";
import { examples } from "../../shared/help.js";
import { storeFor, type StoreFlags } from "../../shared/server-store.js";

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("list")
    .description("List the tokens (ids and owners, never the tokens)")
    .option("--dir <folder>", "the server's folder (JSONL store)", "errata-server")
    .option("--database <url>", "the Postgres store instead (default: ERRATA_DATABASE_URL)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata tenants list", "errata tenants list --json"]))
    .action(async (opts: StoreFlags & { json?: boolean }) => {
      const store = await storeFor(ctx, opts);
      try {
        const tokens = await store.listTokens();
        if (opts.json) printJson(ctx.io, { tokens });
        else if (tokens.length === 0) println(ctx.io, "no tenants yet (errata tenants add <tenant>)");
        else for (const t of tokens) println(ctx.io, `${t.token_id}  ${t.tenant}  ${t.label}  ${t.created}  ${t.revoked === null ? "live" : `revoked ${t.revoked}`}`);
      } finally {
        await store.close();
      }
    });
}
