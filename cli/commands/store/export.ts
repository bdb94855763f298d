/**
 * `errata store export --out <file>`: every erratum of your ledger, or of a tenant in a
 * server's store (`--dir`/`--database` with `--tenant`), as JSONL `erratum/1` lines with
 * their patches folded on, in the order received. The file is written whole (atomically).
 *
 * Example: `errata store export --database postgres://… --tenant acme --out acme.jsonl` -> `exported 1,204 errata to acme.jsonl`.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { examples } from "../../shared/help.js";
import { ledgerFor } from "../../shared/ledger.js";
import { storeFor, type StoreFlags } from "../../shared/server-store.js";
import { writeFileAtomic } from "../../../runtime/files/index.js";
import { TENANT_PATTERN } from "../../../runtime/stores/index.js";
import type { Erratum } from "../../../schemas/erratum.js";

interface ExportOpts extends StoreFlags {
  out: string;
  tenant?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("export")
    .description("Write every erratum (patches folded on) of your ledger or a tenant's store as JSONL")
    .requiredOption("--out <file>", "the JSONL file to write")
    .option("--dir <folder>", "from this server folder's store (with --tenant)")
    .option("--database <url>", "from this Postgres store (with --tenant)")
    .option("--tenant <tenant>", "the tenant to export, from a store")
    .option("--dry-run", "count what would be exported; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata add bug: it deleted the wrong branch && errata store export --out errata.jsonl"]))
    .action(async (opts: ExportOpts) => {
      const fromStore = opts.dir !== undefined || opts.database !== undefined;
      if (fromStore && (opts.tenant === undefined || !TENANT_PATTERN.test(opts.tenant))) throw badInput("bad --tenant", "a tenant with --dir or --database", JSON.stringify(opts.tenant ?? null));
      const errata: Erratum[] = [];
      if (fromStore) {
        const store = await storeFor(ctx, opts);
        try {
          for (let after = 0; ;) {
            const page = await store.list(opts.tenant!, after, 1000);
            for (const i of page.items) errata.push(i.erratum);
            if (page.next === null) break;
            after = page.next;
          }
        } finally {
          await store.close();
        }
      } else for (const f of ledgerFor(ctx).readAll().errata) errata.push(f.erratum);
      const out = resolve(ctx.io.cwd, opts.out);
      if (!opts.dryRun) writeFileAtomic(out, errata.map((e) => `${JSON.stringify(e)}\n`).join(""));
      if (opts.json) printJson(ctx.io, { dry_run: opts.dryRun === true, errata: errata.length, out: opts.out });
      else println(ctx.io, `${opts.dryRun ? "would export" : "exported"} ${errata.length.toLocaleString("en-US")} errata to ${opts.out}`);
    });
}
