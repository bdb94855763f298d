/**
 * `errata tenants revoke <token-id | tenant>`: revokes one token, or every live token of a
 * tenant; the server refuses it from its next request. Naming nothing live exits 2.
 *
 * Example: `errata tenants revoke tk-1f0c9a2b` -> `revoked tk-1f0c9a2b (acme, ana)`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { ErrataError } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { examples } from "../../shared/help.js";
import { storeFor, type StoreFlags } from "../../shared/server-store.js";

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("revoke")
    .description("Revoke a token by its id, or every live token of a tenant")
    .argument("<what>", "a token id (tk-...) or a tenant")
    .option("--dir <folder>", "the server's folder (JSONL store)", "errata-server")
    .option("--database <url>", "the Postgres store instead (default: ERRATA_DATABASE_URL)")
    .option("--dry-run", "say what would be revoked; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata tenants add acme && errata tenants revoke acme --dry-run", "errata tenants add acme && errata tenants revoke acme"]))
    .action(async (what: string, opts: StoreFlags & { dryRun?: boolean; json?: boolean }) => {
      const store = await storeFor(ctx, opts);
      try {
        const live = (await store.listTokens()).filter((t) => t.revoked === null).map((t) => `${t.token_id} (${t.tenant})`);
        const done = await store.revoke(what, new Date(ctx.io.now()).toISOString(), opts.dryRun === true);
        if (done.length === 0) throw new ErrataError("NOT_FOUND", "nothing to revoke", { expected: `a live token id or tenant${live.length ? `: ${live.slice(0, 5).join(", ")}` : " (there are none)"}`, found: JSON.stringify(what) });
        if (opts.json) printJson(ctx.io, { dry_run: opts.dryRun === true, revoked: done });
        else for (const t of done) println(ctx.io, `${opts.dryRun ? "would revoke" : "revoked"} ${t.token_id} (${t.tenant}, ${t.label})`);
      } finally {
        await store.close();
      }
    });
}
