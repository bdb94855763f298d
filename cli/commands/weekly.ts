/**
 * `errata weekly`: the weekly job. The report over seven days, then the rules wing's M7b pass
 * (the rule index from daily.json's `rules` roots, coverage, clusters, recommendations without
 * filing, the rules report in `<v4 dir>/rules-report-<date>.md`), fault-isolated: a failure of
 * the rules stage is logged on it and never changes the exit code. Each stage has a run receipt.
 * With `--database URL --tenant T` the report reads the tenant's errata in PostgreSQL instead
 * of the ledger (docs/intake.md); the rules pass reads the v4 folder either way.
 *
 * Example: `errata weekly --json` -> `{"ok": true, "failed": [], "stages": [{"name": "report",
 * ...}, {"name": "rules", "counts": {"rule_units": 57, "covered": 23, "clusters": 9, ...}}]}`.
 */
import { platform } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { dailyPaths, finishLoop, liveStagePrinter, wireFor } from "../shared/daily.js";
import { repoDatasetsDir } from "../../runtime/engine/index.js";
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";
import { loadDailyConfig, loadRuleNoulWeights, runM7b, runWeekly } from "../../runtime/jobs/index.js";
import { resolvePaths } from "../../runtime/paths.js";
import { defaultManagedFiles } from "../../runtime/rules/index.js";
import { examples } from "../shared/help.js";
import { warn } from "../shared/io.js";
import { engineFor } from "../shared/v4-pass.js";
import { upgradesFileOf, writerFor } from "../shared/rules-writer.js";
import { tenantStore } from "../shared/server-store.js";
import { openStore } from "../../runtime/stores/index.js";

/** The M7b pass as the weekly job's rules stage, wired to this install's files and engine. */
function rulesStage(ctx: CommandContext) {
  return async (dryRun: boolean) => {
    const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
    const configured = loadDailyConfig(paths, ctx.io.env, ctx.io.cwd).config.rules;
    const engine = await engineFor(ctx, undefined);
    const nowMs = ctx.io.now();
    return runM7b({
      v4Dir: paths.v4Dir,
      roots: (configured?.roots ?? []).map((r) => ({ root: resolve(paths.ledgerDir, r.root), ...(r.project !== undefined ? { project: r.project } : {}) })),
      home: ctx.io.env["HOME"] ?? null,
      managed: defaultManagedFiles(platform()),
      extra: (configured?.sources ?? []).map((f) => resolve(paths.ledgerDir, f)),
      engine,
      weights: engine.lane === "embedded" ? loadRuleNoulWeights(repoDatasetsDir()) : null,
      writer: writerFor(ctx, paths, false),
      upgradesFile: upgradesFileOf(paths),
      // The one chooser's cuts, as every report composes: the weekly pass covers the same failures.
      cuts: { promoted: { file: join(paths.ledgerDir, "promoted.json") } },
      today: new Date(nowMs).toISOString().slice(0, 10),
      nowMs,
      top: 3,
      dryRun,
      warn: (l) => warn(ctx.io, l),
    });
  };
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("weekly")
    .description("Run the weekly job: the report over seven days, then the rules pass (index, coverage, clusters, recommendations, report)")
    .option("--json", "print one {ok, failed, stages} JSON value")
    .option("--dry-run", "compute everything, write nothing")
    .option("--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)")
    .option("--database <url>", "report over a tenant's errata in this PostgreSQL store instead of your ledger (default: ERRATA_DATABASE_URL when a tenant is named); with --tenant")
    .option("--tenant <tenant>", "the tenant whose errata the report reads, with --database (default: ERRATA_TENANT)")
    .addHelpText("after", examples(["errata weekly --json", "errata weekly --wait 60"]))
    .action(async (opts: { json?: boolean; dryRun?: boolean; wait?: string; database?: string; tenant?: string }) => {
      const waitMs = waitMsFromFlag(opts.wait);
      const target = tenantStore(ctx, opts, false);
      const body = async (): Promise<void> => {
        const store = target ? await openStore({ dir: ctx.io.cwd, database: target.url }) : null;
        try {
          const { ctx: stage } = wireFor(ctx, opts.dryRun === true, store && target ? { store, tenant: target.tenant } : undefined);
          const onStage = liveStagePrinter(ctx, opts.json === true);
          const result = await runWeekly(stage, { ...(onStage ? { onStage } : {}), rules: rulesStage(ctx) });
          finishLoop(ctx, result, opts.json === true, onStage !== undefined);
        } finally {
          await store?.close();
        }
      };
      if (opts.dryRun === true) await body();
      else await withRunLock(dailyPaths(ctx).stateDir, { job: "errata weekly", waitMs }, body);
    });
}
