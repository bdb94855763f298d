/**
 * The rules jobs with their files: `build` (the index), `cover` (coverage of the diagnosed
 * failures in the v4 folder) and `cluster`. The CLI parses flags and prints; this reads and
 * writes. Files, in the v4 folder: `rules.json` (the index), `coverage.jsonl` (one
 * `rule-coverage/1` row per failure and judge, appended), `clusters.json` (rewritten whole).
 *
 * Example: `runRulesBuild({roots: [{root: "."}], home: null, managed: [], extra: [], v4Dir,
 * today: "2026-12-01", git: true, dryRun: false})` -> `{changed: true, written: true, …}`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Engine } from "../../engine/index.js";
import { RuleClusterSchema, RuleNoulWeightsSchema, type CoverageRecord, type RuleCluster, type RuleIndex } from "../../../schemas/rules.js";
import { ErrataError } from "../../../core/errors.js";
import { appendJsonl, warnOnStderr } from "../../files/index.js";
import { writeFileAtomic } from "../../files/index.js";
import { COVERAGE_FILE, coverCutOf, latestCoverage, openJudgments, readCoverage, underCut, type CutsRequest, type JudgeId } from "../../judgments/index.js";
import { buildIndex, type BuildResult } from "../../rules/index.js";
import { clusterFailures } from "../../rules/index.js";
import { coverFailures, type CoverCut, type CoverFailure } from "../../rules/index.js";
import { gitLineDates } from "../../rules/index.js";
import type { RulesJudge } from "../../rules/index.js";
import { discoverProjects } from "../../rules/index.js";
import type { CalibItem } from "../../../schemas/calibration.js";
import { redactSecrets } from "../../privacy/index.js";
import type { Exchange } from "../../../schemas/exchange.js";
import { readRuleIndex, ruleIndexPath, writeRuleIndex } from "../../rules/index.js";
import type { RuleNoulWeights } from "../../rules/index.js";

export const CLUSTERS_FILE = "clusters.json";

export interface RulesBuildOptions {
  roots: ReadonlyArray<{ root: string; project?: string }>;
  home: string | null;
  managed: readonly string[];
  extra: readonly string[];
  v4Dir: string;
  today: string;
  git: boolean;
  dryRun: boolean;
}

export interface RulesBuildReport {
  file: string;
  result: BuildResult;
  written: boolean;
}

export function runRulesBuild(opts: RulesBuildOptions): RulesBuildReport {
  // A root that is not a folder is a typo, not an empty project: nothing is built or written.
  for (const r of opts.roots) {
    let dir = false;
    try {
      dir = statSync(r.root).isDirectory();
    } catch {
      dir = false;
    }
    if (!dir) throw new ErrataError("BAD_INPUT", `--root ${r.root} is not a folder`, { expected: "a project folder to index", found: existsSync(r.root) ? "a file" : "nothing there" });
  }
  const file = ruleIndexPath(opts.v4Dir);
  const previous = readRuleIndex(file);
  const building = new Set(opts.roots.map((r) => resolve(r.project ?? r.root)));
  // Ids never move: each source keeps the slug the index gave it, whatever else is indexed now.
  const reuse = new Map((previous?.sources ?? []).map((s) => [`${s.project ?? ""}\u0000${s.path}`, s.source]));
  // Every slug the index ever gave is taken for a new file: the one it was given to reuses it above.
  const taken = new Set((previous?.sources ?? []).map((s) => s.source));
  const otherProjects = (previous?.projects ?? []).filter((p) => !building.has(resolve(p))).length;
  const ownProjects = (previous?.projects ?? []).filter((p) => !building.has(resolve(p)));
  const sources = discoverProjects(opts.roots, { home: opts.home, managed: opts.managed, extra: opts.extra, otherProjects, slugs: { reuse, taken }, ownProjects });
  const result = buildIndex(sources, previous, {
    today: opts.today,
    projects: opts.roots.map((r) => resolve(r.project ?? r.root)),
    ...(opts.git ? { lineDates: gitLineDates } : {}),
  });
  const written = result.changed && !opts.dryRun;
  if (written) writeRuleIndex(file, result.index);
  return { file, result, written };
}

/** The index a command needs; none yet is bad input naming the command that makes it. */
export function requireRuleIndex(v4Dir: string): RuleIndex {
  const index = readRuleIndex(ruleIndexPath(v4Dir));
  if (index === null) throw new ErrataError("NOT_FOUND", `no rule index in ${v4Dir}`, { expected: "rules.json, made by `errata rules build`", found: "nothing" });
  return index;
}

export interface RulesCoverOptions {
  v4Dir: string;
  engine: Engine;
  weights: RuleNoulWeights | null;
  exchangeFiles: readonly string[];
  /** Where the cuts come from (the one chooser, runtime/judgments): the failures and the rules cuts compose under them. */
  cuts: Omit<CutsRequest, "v4Dir">;
  limit?: number;
  /** Cover again the failures this judge already covered. */
  all?: boolean;
  dryRun: boolean;
  now: () => string;
  warn?: (l: string) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface RulesCoverReport {
  file: string;
  cut: CoverCut;
  judge: { lane: string; model: string };
  /** Where the failures' cuts came from. */
  cutsOrigin: string;
  /** Diagnosed failures (defects with a composition) in the v4 folder's answers. */
  failures: number;
  alreadyCovered: number;
  planned: number;
  records: CoverageRecord[];
  written: boolean;
}

export async function runRulesCover(opts: RulesCoverOptions): Promise<RulesCoverReport> {
  const warn = opts.warn ?? warnOnStderr;
  const index = requireRuleIndex(opts.v4Dir);
  const judge: JudgeId = { lane: opts.engine.lane, model: opts.engine.model };
  // The failures as every report composes them: this engine's answers, under the chosen cuts.
  const j = openJudgments({ v4Dir: opts.v4Dir, exchangeFiles: opts.exchangeFiles, judge, cuts: opts.cuts, warn });
  const composed = j.coverable();
  const done = new Set(latestCoverage(readCoverage(opts.v4Dir, warn), judge).filter((r) => r.fix !== null).map((r) => r.exchange_id));
  const todo: CoverFailure[] = composed
    .filter((c) => opts.all === true || !done.has(c.exchange.id))
    .slice(0, opts.limit ?? Number.POSITIVE_INFINITY)
    .map((c) => ({ exchange: c.exchange, failureClass: c.composition?.primary_class ?? null, severity: c.composition?.severity ?? null }));
  const cut = coverCutOf(j.cuts);
  const file = join(opts.v4Dir, COVERAGE_FILE);
  const base = { file, cut, judge, cutsOrigin: j.cuts.origin, failures: composed.length, alreadyCovered: composed.length - composed.filter((c) => !done.has(c.exchange.id)).length, planned: todo.length };
  if (opts.dryRun) return { ...base, records: [], written: false };
  const rulesJudge: RulesJudge = { engine: opts.engine, weights: opts.weights, now: opts.now };
  const records = await coverFailures(index, todo, rulesJudge, { cut, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  if (records.length > 0) appendJsonl(file, records);
  return { ...base, records, written: records.length > 0 };
}

export interface RulesClusterReport {
  file: string;
  clusters: RuleCluster[];
  written: boolean;
  cut: CoverCut;
}

export async function runRulesCluster(opts: Omit<RulesCoverOptions, "limit" | "all" | "onProgress">): Promise<RulesClusterReport> {
  const warn = opts.warn ?? warnOnStderr;
  const judge: JudgeId = { lane: opts.engine.lane, model: opts.engine.model };
  const j = openJudgments({ v4Dir: opts.v4Dir, exchangeFiles: opts.exchangeFiles, judge, cuts: opts.cuts, warn });
  // The coverage of the failures these cuts make, decided under their rule_covers cut: what the reports count.
  const failures = new Set(j.coverable().map((c) => c.exchange.id));
  const index = requireRuleIndex(opts.v4Dir);
  const covers = coverCutOf(j.cuts);
  const coverage = latestCoverage(readCoverage(opts.v4Dir, warn), judge)
    .filter((r) => failures.has(r.exchange_id))
    .map((r) => underCut(r, covers, index));
  if (coverage.length === 0) throw new ErrataError("NOT_FOUND", `no coverage for ${judge.lane}/${judge.model} in ${opts.v4Dir}`, { expected: "coverage.jsonl rows, made by `errata rules cover`", found: "none" });
  const cut = coverCutOf(j.cuts, "rules.same_root_cause");
  const clusters = await clusterFailures(coverage, new Map(j.exchanges.map((e) => [e.id, e])), { engine: opts.engine, weights: opts.weights, now: opts.now }, cut.value);
  const file = join(opts.v4Dir, CLUSTERS_FILE);
  for (const c of clusters) RuleClusterSchema.parse(c);
  if (!opts.dryRun) writeFileAtomic(file, `${JSON.stringify({ schema: "rule-clusters/1", judge, cut: cut.value, cut_origin: cut.origin, clusters }, null, 1)}\n`);
  return { file, clusters, written: !opts.dryRun, cut };
}

/** The shipped rules model (datasets/weights/rules-nouls.json), or null when it is not there; a file that is not one is bad input. */
export function loadRuleNoulWeights(datasetsDir: string | null): RuleNoulWeights | null {
  if (datasetsDir === null) return null;
  const file = join(datasetsDir, "weights", "rules-nouls.json");
  if (!existsSync(file)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ErrataError("BAD_INPUT", `${file} is not JSON`, { expected: "an errata-rule-nouls/1 file", found: (err as Error).message });
  }
  const parsed = RuleNoulWeightsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ErrataError("BAD_INPUT", `${file} is not a rules model`, { expected: "an errata-rule-nouls/1 file", found: `${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}` });
  }
  return parsed.data;
}

/**
 * The (failure, candidate rule) pairs of this judge's latest coverage as `calib-item/1` rows,
 * for the generic calibration loop (`errata calibrate draw|brief|agreement|fit --question
 * rules.rule_covers`): what labellers see is the owner's prompt and the reply's end (both
 * redacted), the tool calls and the rule, never the judge's P(yes). Pairs without a P(yes) keep
 * `p_yes: null` (the draw puts them in their own band).
 */
export function coveragePairs(v4Dir: string, exchanges: readonly Exchange[], judge: { lane: string; model: string }, warn: (l: string) => void = warnOnStderr): CalibItem[] {
  const index = requireRuleIndex(v4Dir);
  const units = new Map(index.units.map((u) => [u.id, u]));
  const byId = new Map(exchanges.map((e) => [e.id, e]));
  const out: CalibItem[] = [];
  for (const r of latestCoverage(readCoverage(v4Dir, warn), judge)) {
    const e = byId.get(r.exchange_id);
    if (e === undefined) continue;
    for (const c of r.candidates) {
      const u = units.get(c.rule_id);
      if (u === undefined) continue;
      out.push({
        schema: "calib-item/1",
        item_id: `${r.exchange_id}:${c.rule_id}`,
        session_id: r.session_id,
        question: "rules.rule_covers",
        p_yes: c.p_yes,
        shown: {
          prompt: redactSecrets(e.prompt).text,
          reply_end: redactSecrets(e.reply_end ?? "").text,
          tool_calls: e.tool_calls.map((t) => `${t.name}: ${redactSecrets(t.summary).text}`).join("\n"),
          rule: u.text,
        },
      });
    }
  }
  return out;
}
