/**
 * `errata tenants add <tenant> [--label <who>]`: a new bearer token for a tenant (an app, or a
 * developer whose Claude Code reports to the server's http hooks: one label a developer).
 * Prints the token once; the store keeps only its hash.
 *
 * Example: `errata tenants add acme --label ana` -> `tenant acme, token tk-1f0c9a2b (ana): et_Q2h…`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { examples } from "../../shared/help.js";
import { storeFor, type StoreFlags } from "../../shared/server-store.js";
import { LABEL_PATTERN, TENANT_PATTERN } from "../../../runtime/stores/index.js";

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("add")
    .description("Make a bearer token for a tenant; printed once, stored hashed")
    .argument("<tenant>", "the tenant: lowercase letters, digits and '-', at most 40")
    .option("--label <who>", "whose token: an app or a developer (the http hooks keep one ledger a label)", "default")
    .option("--dir <folder>", "the server's folder (JSONL store)", "errata-server")
    .option("--database <url>", "the Postgres store instead (default: ERRATA_DATABASE_URL)")
    .option("--dry-run", "say what would be made; write nothing (the token shown is not valid)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata tenants add acme", "errata tenants add acme --label ana --json", "errata tenants add acme --dry-run"]))
    .action(async (tenant: string, opts: StoreFlags & { label: string; dryRun?: boolean; json?: boolean }) => {
      if (!TENANT_PATTERN.test(tenant)) throw badInput("bad tenant", "lowercase letters, digits and '-', at most 40, starting with a letter or digit", JSON.stringify(tenant));
      if (!LABEL_PATTERN.test(opts.label)) throw badInput("bad --label", "lowercase letters, digits, '.', '_' and '-', at most 64", JSON.stringify(opts.label));
      const store = await storeFor(ctx, opts);
      try {
        const { token, record } = await store.addToken(tenant, opts.label, new Date(ctx.io.now()).toISOString(), opts.dryRun === true);
        if (opts.json) printJson(ctx.io, { dry_run: opts.dryRun === true, ...record, token: opts.dryRun ? null : token });
        else if (opts.dryRun) println(ctx.io, `would add tenant ${tenant}, token for ${opts.label} (nothing written)`);
        else {
          println(ctx.io, `tenant ${tenant}, token ${record.token_id} (${opts.label}): ${token}`);
          println(ctx.io, "shown once: the server keeps only its hash");
        }
      } finally {
        await store.close();
      }
    });
}
