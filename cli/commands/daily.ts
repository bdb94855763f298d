/**
 * `errata daily`: the production job. Mine, enrich, label, triage, report, then the v4
 * pass, each fault-isolated, each with a run receipt. `--json` prints one `{ok, failed,
 * stages}` value. Exit 1 when a stage other than v4 failed.
 *
 * Example: `errata daily --skip-mine --json` -> `{"ok": true, "failed": [], "stages": [...]}`.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import type { CommandContext } from "../shared/command.js";
import { dailyPaths, finishLoop, liveStagePrinter, stageProgress, wireFor } from "../shared/daily.js";
import { badInput } from "../../core/errors.js";
import { parseNumber } from "../shared/ledger.js";
import { runDaily } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";
import { ruleIndexPath } from "../../runtime/rules/index.js";
import { openStore, type ErrataStore } from "../../runtime/stores/index.js";
import { tenantStore } from "../shared/server-store.js";

interface DailyCliOptions {
  root?: string;
  limit?: string;
  mineLimit?: string;
  skipMine?: boolean;
  json?: boolean;
  dryRun?: boolean;
  wait?: string;
  database?: string;
  tenant?: string;
  developer?: string;
  teamOnly?: boolean;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("daily")
    .description("Run the daily job: mine, enrich, label, triage, report, then the v4 pass")
    .option("--root <dir>", "transcripts folder (default: configured, else ~/.claude/projects)")
    .option("--limit <n>", "at most n entries enriched and n exchanges judged by v4")
    .option("--mine-limit <n>", "at most n transcript files mined")
    .option("--skip-mine", "do not mine transcripts")
    .option("--json", "print one {ok, failed, stages} JSON value")
    .option("--dry-run", "compute everything, write nothing")
    .option("--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)")
    .option("--database <url>", "read and patch a tenant's errata in this PostgreSQL store instead of your ledger (default: ERRATA_DATABASE_URL when a tenant is named); with --tenant")
    .option("--tenant <tenant>", "the tenant whose errata the run reads, with --database (default: ERRATA_TENANT)")
    .option("--team-only", "with --database: only push your rule ledger for the team's most-broken rules (the errata stages run once for the tenant elsewhere)")
    .option("--developer <label>", "the name your rule ledger is pushed under for the team's most-broken rules, with --database (default: ERRATA_DEVELOPER, else USER, LOGNAME or the account's name)")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy claude-code/spotter && errata daily --root datasets/claude-code/spotter --json",
        "errata daily --skip-mine --limit 50",
        "errata daily --skip-mine --wait 600",
      ]),
    )
    .action(async (opts: DailyCliOptions) => {
      const limit = parseNumber("limit", opts.limit, { integer: true });
      const mineLimit = parseNumber("mine-limit", opts.mineLimit, { integer: true });
      if (limit !== undefined && limit < 1) throw badInput("bad --limit", "a whole number >= 1", String(limit));
      if (mineLimit !== undefined && mineLimit < 1) throw badInput("bad --mine-limit", "a whole number >= 1", String(mineLimit));
      const waitMs = waitMsFromFlag(opts.wait);
      const target = tenantStore(ctx, opts, true);
      if (opts.teamOnly === true && target === null) throw badInput("--team-only needs a store", "--database URL (or ERRATA_DATABASE_URL) and --tenant", "--team-only alone");
      const body = async (): Promise<void> => {
        const store = target ? await openStore({ dir: ctx.io.cwd, database: target.url }) : null;
        try {
          await runOnce(store);
        } finally {
          await store?.close();
        }
      };
      const runOnce = async (store: ErrataStore | null): Promise<void> => {
        // Wired under the lock: the state a run starts from is read after the previous run ended.
        const { ctx: stage, deps: wired } = wireFor(ctx, opts.dryRun === true, store && target ? { store, tenant: target.tenant } : undefined);
        const deps = store && target ? { ...wired, team: { store, tenant: target.tenant, developer: target.developer } } : wired;
        const live = liveStagePrinter(ctx, opts.json === true);
        const names = opts.teamOnly === true ? ["team"] : ["mine", "enrich", "label", "triage", "report", "v4", "ladder", ...(store ? ["team"] : [])];
        const bar = stageProgress(ctx, "daily", names, live);
        const onStage = bar.onStage;
        const result = await runDaily(stage, deps, {
          ...(opts.root !== undefined ? { root: resolve(ctx.io.cwd, opts.root) } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(mineLimit !== undefined ? { mineLimit } : {}),
          skipMine: opts.skipMine === true,
          teamOnly: opts.teamOnly === true,
          onStage,
          ladder: { ruleIndexFile: ruleIndexPath(dailyPaths(ctx).v4Dir), projectDir: null, home: ctx.io.env["HOME"] ?? null },
        });
        bar.done();
        finishLoop(ctx, result, opts.json === true, live !== undefined);
      };
      // A dry run writes nothing, so it takes no lock.
      if (opts.dryRun === true) await body();
      else await withRunLock(dailyPaths(ctx).stateDir, { job: "errata daily", waitMs }, body);
    });
}
