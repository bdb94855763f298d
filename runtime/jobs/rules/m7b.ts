/**
 * The M7b pass `errata weekly` ends with: the rule index, coverage of the diagnosed failures,
 * clusters, recommendations (never filed here) and the rules report, in that order. Every
 * question and the writer run under the caller `errata-coverage` (its own budget). The weekly
 * job runs it as an advisory stage: a failure is logged on the stage and never changes the
 * job's exit code. A step with nothing to work on says so and the pass stops there.
 *
 * Example counts: `{rule_units: 57, covered: 23, clusters: 9, recommended: 3, dropped: 0,
 * offline: 3, filed_rows: 1}`.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { redactTextForWrite } from "../../privacy/index.js";
import { join } from "node:path";
import type { Engine } from "../../engine/index.js";
import type { RuleNoulWeights } from "../../rules/index.js";
import { readRuleIndex, ruleIndexPath } from "../../rules/index.js";
import { v4Files, type CutsRequest } from "../../judgments/index.js";
import { runRulesRecommend, type Writer } from "./recommend.js";
import { renderRulesReport, rulesReport } from "./report.js";
import { runRulesBuild, runRulesCluster, runRulesCover } from "./run.js";

export interface M7bRequest {
  v4Dir: string;
  /** Project roots to index; empty = use the index already built (none: the pass stops). */
  roots: ReadonlyArray<{ root: string; project?: string }>;
  home: string | null;
  managed: readonly string[];
  extra: readonly string[];
  engine: Engine;
  weights: RuleNoulWeights | null;
  writer: Writer;
  upgradesFile: string;
  /** Where the cuts come from (the one chooser): the same failures every report composes. */
  cuts: Omit<CutsRequest, "v4Dir">;
  today: string;
  nowMs: number;
  top: number;
  dryRun: boolean;
  warn?: (l: string) => void;
}

export interface M7bOutput {
  counts: Record<string, number>;
  notes: string[];
  wrote: Record<string, string>;
}

export async function runM7b(req: M7bRequest): Promise<M7bOutput> {
  const counts: Record<string, number> = {};
  const notes: string[] = [];
  const wrote: Record<string, string> = {};
  const warn = req.warn ?? (() => undefined);
  if (req.roots.length > 0 || req.extra.length > 0) {
    const built = runRulesBuild({ roots: req.roots, home: req.home, managed: req.managed, extra: req.extra, v4Dir: req.v4Dir, today: req.today, git: true, dryRun: req.dryRun });
    if (built.written) wrote["index"] = built.file;
    counts["rule_units"] = built.result.index.units.length;
  } else {
    const index = readRuleIndex(ruleIndexPath(req.v4Dir));
    if (index === null) {
      notes.push("no rule roots in daily.json `rules` and no rule index: nothing to cover (errata rules build)");
      return { counts, notes, wrote };
    }
    counts["rule_units"] = index.units.length;
    notes.push("rule index as last built (no roots in daily.json `rules`)");
  }
  const exchanges = v4Files(req.v4Dir).exchanges;
  if (!existsSync(exchanges)) {
    notes.push("no exchanges in the v4 folder: nothing to cover");
    return { counts, notes, wrote };
  }
  const now = (): string => new Date(req.nowMs).toISOString();
  const common = { v4Dir: req.v4Dir, engine: req.engine, weights: req.weights, exchangeFiles: [exchanges], cuts: req.cuts, dryRun: req.dryRun, now, warn };
  const cover = await runRulesCover(common);
  counts["failures"] = cover.failures;
  counts["covered"] = cover.records.length;
  if (cover.written) wrote["coverage"] = cover.file;
  if (cover.failures === 0) {
    notes.push("no diagnosed failure: no clusters, no recommendations");
    return { counts, notes, wrote };
  }
  if (req.dryRun && cover.alreadyCovered === 0) {
    notes.push("dry run: coverage not written, so nothing to cluster");
    return { counts, notes, wrote };
  }
  const cluster = await runRulesCluster(common);
  counts["clusters"] = cluster.clusters.length;
  if (cluster.written) wrote["clusters"] = cluster.file;
  const rec = await runRulesRecommend({ v4Dir: req.v4Dir, engine: req.engine, writer: req.writer, exchangeFiles: [exchanges], upgradesFile: req.upgradesFile, top: req.top, today: req.today, nowMs: req.nowMs, dryRun: req.dryRun, file: false, warn });
  counts["recommended"] = rec.survivors.length;
  counts["dropped"] = rec.dropped.length;
  counts["offline"] = [...rec.survivors, ...rec.dropped].filter((r) => r.writer.lane === "offline").length;
  if (rec.written) Object.assign(wrote, { recommendations: rec.files.survivors, dropped: rec.files.dropped });
  if (req.writer.lane === null) notes.push(`recommendations written offline: ${req.writer.offlineWhy}`);
  const report = rulesReport({ v4Dir: req.v4Dir, exchangeFiles: [exchanges], upgradesFile: req.upgradesFile, today: req.today, warn });
  counts["filed_rows"] = report.filed.length;
  counts["filed_fired"] = report.filed.filter((f) => f.falsifier === "fires").length;
  if (!req.dryRun) {
    mkdirSync(req.v4Dir, { recursive: true });
    const out = join(req.v4Dir, `rules-report-${req.today}.md`);
    writeFileSync(out, redactTextForWrite(`# ${renderRulesReport(report).join("\n")}\n`));
    wrote["report"] = out;
  }
  return { counts, notes, wrote };
}
