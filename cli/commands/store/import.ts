/**
 * `errata store import <file>`: appends the `erratum/1` lines of a JSONL file (from `errata
 * store export`) to your ledger, or to a tenant in a server's store (`--dir`/`--database`
 * with `--tenant`). Every line is checked first (the ledger's schema and rules); one bad line
 * refuses the whole file and nothing is written. Idempotent: an erratum already there (by id
 * in the ledger, by the key `import:<id>` in a store) is not written again.
 *
 * Example: `errata store import acme.jsonl --database postgres://… --tenant acme` -> `imported 1,204 errata (1,204 new, 0 already here)`.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput, ErrataError } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { examples } from "../../shared/help.js";
import { ledgerFor } from "../../shared/ledger.js";
import { loadSystems } from "../../../runtime/config.js";
import { storeFor, serverDir, type StoreFlags } from "../../shared/server-store.js";
import { checkErratumRules, issuesToProblems } from "../../../runtime/store/index.js";
import { TENANT_PATTERN } from "../../../runtime/stores/index.js";
import { ErratumSchema, type Erratum } from "../../../schemas/erratum.js";

interface ImportOpts extends StoreFlags {
  tenant?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("import")
    .description("Append the errata of an exported JSONL file to your ledger or a tenant's store, once each")
    .argument("<file>", "a JSONL file of erratum/1 lines (errata store export)")
    .option("--dir <folder>", "into this server folder's store (with --tenant)")
    .option("--database <url>", "into this Postgres store (with --tenant)")
    .option("--tenant <tenant>", "the tenant to import under, in a store")
    .option("--dry-run", "check every line and count; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([["errata add bug: it deleted the wrong branch &&", "errata store export --out errata.jsonl &&", "errata store import errata.jsonl --dir srv --tenant me"]]))
    .action(async (file: string, opts: ImportOpts) => {
      const toStore = opts.dir !== undefined || opts.database !== undefined;
      if (toStore && (opts.tenant === undefined || !TENANT_PATTERN.test(opts.tenant))) throw badInput("bad --tenant", "a tenant with --dir or --database", JSON.stringify(opts.tenant ?? null));
      let text: string;
      try {
        text = readFileSync(resolve(ctx.io.cwd, file), "utf8");
      } catch (err) {
        throw new ErrataError("NOT_FOUND", "cannot read the file", { expected: "a JSONL file of erratum/1 lines", found: (err as Error).message });
      }
      const ledger = toStore ? null : ledgerFor(ctx);
      const systems = ledger ? ledger.systems : loadSystems(serverDir(ctx, opts));
      const errata: Erratum[] = [];
      const lines = text.split("\n");
      for (const [i, line] of lines.entries()) {
        if (line.trim() === "") continue;
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch {
          throw badInput(`line ${i + 1} is not JSON; nothing imported`, "one erratum/1 JSON object a line", JSON.stringify(line.slice(0, 40)));
        }
        const parsed = ErratumSchema.safeParse(json);
        const problem = parsed.success ? checkErratumRules(parsed.data, systems)[0] : issuesToProblems(parsed.error.issues, json)[0];
        if (problem !== undefined || !parsed.success) throw badInput(`line ${i + 1} refused; nothing imported`, "erratum/1 lines the ledger accepts", `${problem?.code}: ${problem?.message}`);
        errata.push(parsed.data);
      }
      let written = 0;
      let present = 0;
      if (ledger) {
        const taken = new Set(ledger.readAll().errata.map((f) => f.erratum.id));
        for (const e of errata) {
          if (taken.has(e.id)) present++;
          else {
            if (!opts.dryRun) ledger.append(e, { takenIds: taken });
            taken.add(e.id);
            written++;
          }
        }
      } else if (!opts.dryRun) {
        const store = await storeFor(ctx, opts);
        try {
          for (const e of errata) {
            if ((await store.append(opts.tenant!, e, `import:${e.id}`)).created) written++;
            else present++;
          }
        } finally {
          await store.close();
        }
      } else written = errata.length;
      if (opts.json) printJson(ctx.io, { dry_run: opts.dryRun === true, errata: errata.length, written, already_here: present });
      else println(ctx.io, `${opts.dryRun ? "would import" : "imported"} ${errata.length.toLocaleString("en-US")} errata (${written} new, ${present} already here)`);
    });
}
