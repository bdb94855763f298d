import { ErrataError } from "../../../core/errors.js";
import type { Counts } from "../../../schemas/daily.js";
import type { StageContext, StageOutput } from "./context.js";
import { stageOutput } from "./context.js";
import type { ClassJudge, EmbeddedEnricher } from "./enrich-embedded.js";
import type { ProseLane } from "./enrich-openai.js";
import { runEnrich } from "./enrich.js";
import { runLabel } from "./label.js";
import { runReport } from "./report.js";
import { ladderStage, type LadderStageOptions } from "./ladder-stage.js";
import { teamStage } from "./team-stage.js";
import type { ErrataStore } from "../../stores/index.js";
import type { Reviewer } from "../../ladder/index.js";
import { runLoop, type LoopResult, type LoopStage, type StageResult } from "./run-loop.js";
import { runTriage } from "./triage.js";

/**
 * `errata daily`: mine, enrich, label, triage, report, then the v4 pass (exchanges, detect,
 * diagnose), each fault-isolated, each with a run receipt. The daily run triages without
 * filing. It uses only the promoted configuration; with none promoted the v4 pass runs in
 * shadow and says so. A v4 failure is reported and never fails the job.
 *
 * The parts other rooms build (mining, the engine, the v4 pass) come in as `DailyDeps`, so
 * tests can make any of them throw and the CLI wires the real ones.
 *
 * Example: `await runDaily(ctx, deps, {skipMine: true})` -> `{ok: true, failed: [], stages: [
 * {name: "mine", skipped: true, ...}, {name: "enrich", counts: {enriched: 3, ...}}, ...]}`.
 */
export interface MineRequest {
  root: string;
  limitFiles: number | null;
  dryRun: boolean;
}

export interface V4Request {
  root: string;
  limit: number | null;
  /** True when nothing is promoted: answers are stored, nothing acts on them. */
  shadow: boolean;
  dryRun: boolean;
}

export interface DailyDeps {
  mine: ((req: MineRequest) => Promise<{ counts: Counts; notes?: string[] }>) | null;
  /** Created on first use (loading weights costs time a run that enriches nothing should not pay). */
  embedded: () => Promise<EmbeddedEnricher | null>;
  classJudge: () => Promise<ClassJudge | null>;
  prose: ProseLane | null;
  v4: ((req: V4Request) => Promise<StageOutput>) | null;
  /** A short description of the promoted configuration in force, or null when none is promoted. */
  promoted: string | null;
  /** The ladder stage's reviewer lane (runtime/ladder review.ts); absent or null: offline, and the proposals say so. */
  reviewer?: () => Reviewer | null;
  /** On a server's store: the tenant and developer the team stage pushes the rule ledger under (team-stage.ts); absent: no team stage. */
  team?: { store: ErrataStore; tenant: string; developer: string };
}

export interface DailyOptions {
  root?: string;
  limit?: number;
  mineLimit?: number;
  skipMine?: boolean;
  onStage?: (r: StageResult) => void;
  /** The ladder stage's rule index and project (default: no index, this process's folder). */
  ladder?: LadderStageOptions;
  /** Only the team stage (a developer's push of their rule ledger to the tenant; the errata stages run once for the tenant elsewhere). */
  teamOnly?: boolean;
}

function unavailable(what: string): never {
  throw new ErrataError("UNSUPPORTED", `${what} is not available in this build`);
}

export function dailyStages(ctx: StageContext, deps: DailyDeps, opts: DailyOptions): LoopStage[] {
  if (opts.teamOnly === true) {
    if (!deps.team) throw new ErrataError("BAD_CONFIG", "the team stage alone needs a store", { expected: "a store, tenant and developer (errata daily --database URL --tenant T)", found: "none" });
    return [teamStage(ctx, deps.team)];
  }
  const root = opts.root ?? ctx.cfg.transcriptsRoot;
  return [
    {
      name: "mine",
      skip: opts.skipMine === true,
      run: async () => {
        if (!deps.mine) unavailable("mine");
        const r = await deps.mine({ root, limitFiles: opts.mineLimit ?? null, dryRun: ctx.dryRun });
        return stageOutput(r.counts, r.notes ?? []);
      },
    },
    {
      name: "enrich",
      run: async () => {
        const embedded = await deps.embedded();
        return runEnrich(ctx, { embedded, prose: deps.prose, ...(opts.limit !== undefined ? { limit: opts.limit } : {}) });
      },
    },
    { name: "label", run: async () => runLabel(ctx, await deps.classJudge()) },
    { name: "triage", run: async () => runTriage(ctx, { file: false }) },
    { name: "report", run: async () => runReport(ctx) },
    {
      name: "v4",
      advisory: true,
      run: async () => {
        if (!deps.v4) unavailable("the v4 pass");
        const shadow = deps.promoted === null;
        const out = await deps.v4({ root, limit: opts.limit ?? null, shadow, dryRun: ctx.dryRun });
        const note = shadow ? "v4 ran in shadow: no promoted configuration" : `v4 on the promoted configuration (${deps.promoted})`;
        return { ...out, notes: [note, ...out.notes] };
      },
    },
    ladderStage(ctx, root, { ...(opts.ladder ?? { ruleIndexFile: null, projectDir: null }), ...(deps.reviewer ? { reviewer: deps.reviewer } : {}) }),
    ...(deps.team ? [teamStage(ctx, deps.team)] : []),
  ];
}

export async function runDaily(ctx: StageContext, deps: DailyDeps, opts: DailyOptions = {}): Promise<LoopResult> {
  return runLoop(dailyStages(ctx, deps, opts), {
    loop: "daily",
    nowMs: ctx.nowMs,
    runsFile: ctx.files.runs,
    dryRun: ctx.dryRun,
    ...(opts.onStage ? { onStage: opts.onStage } : {}),
    // The team stage alone reads no errata: the tenant's are not read for it.
    ...(opts.teamOnly === true ? {} : { degraded: async () => (await ctx.ledger.readAll()).damaged ?? [] }),
  });
}

/**
 * `errata weekly`: the report over seven days, then the M7b pass of the rules wing (index,
 * coverage, clusters, recommendations without filing, the rules report: runtime/jobs/rules/
 * m7b.ts), advisory: a failure there is logged on its stage and never fails the job. Without
 * `rules` (a caller that wires none) the stage is skipped and says so.
 */
export async function runWeekly(ctx: StageContext, opts: { onStage?: (r: StageResult) => void; rules?: ((dryRun: boolean) => Promise<StageOutput>) | null } = {}): Promise<LoopResult> {
  const rules = opts.rules ?? null;
  return runLoop(
    [
      { name: "report", run: async () => runReport(ctx, { windowDays: 7 }) },
      { name: "rules", advisory: true, skip: rules === null, run: async () => (rules === null ? stageOutput({}, ["the rules pass is not wired"]) : rules(ctx.dryRun)) },
    ],
    {
      loop: "weekly",
      nowMs: ctx.nowMs,
      runsFile: ctx.files.runs,
      dryRun: ctx.dryRun,
      ...(opts.onStage ? { onStage: opts.onStage } : {}),
      degraded: async () => (await ctx.ledger.readAll()).damaged ?? [],
    },
  );
}
