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
import type { Cuts } from "../../../composers/index.js";
import type { Engine } from "../../engine/index.js";
import { CoverageRecordSchema, RuleClusterSchema, RuleNoulWeightsSchema, type CoverageRecord, type RuleCluster, type RuleIndex } from "../../../schemas/rules.js";
import { ErrataError } from "../../../core/errors.js";
import { appendJsonl, readJsonl, reportProblems, warnOnStderr } from "../../files/index.js";
import { writeFileAtomic } from "../../files/index.js";
import { composeAll } from "../v4/compose-all.js";
import { readAnswers, readExchanges, v4Files } from "../v4/files.js";
import { buildIndex, type BuildResult } from "../../rules/index.js";
import { clusterFailures } from "../../rules/index.js";
import { coverFailures, type CoverCut, type CoverFailure } from "../../rules/index.js";
import { gitLineDates } from "../../rules/index.js";
import type { RulesJudge } from "../../rules/index.js";
import { mostBrokenRules } from "../../rules/index.js";
import { discoverProjects } from "../../rules/index.js";
import type { V4Report } from "../v4/report.js";
import type { Answer } from "../../../schemas/answer.js";
import type { CalibItem } from "../../../schemas/calibration.js";
import { redactSecrets } from "../../privacy/index.js";
import type { Exchange } from "../../../schemas/exchange.js";
import { readRuleIndex, ruleIndexPath, writeRuleIndex } from "../../rules/index.js";
import type { RuleNoulWeights } from "../../rules/index.js";

export const COVERAGE_FILE = "coverage.jsonl";
export const CLUSTERS_FILE = "clusters.json";
export const DEFAULT_RULES_CUT = 0.5;

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
  const taken = new Set((previous?.sources ?? []).filter((s) => s.project !== null && !building.has(s.project)).map((s) => s.source));
  const otherProjects = (previous?.projects ?? []).filter((p) => !building.has(resolve(p))).length;
  const sources = discoverProjects(opts.roots, { home: opts.home, managed: opts.managed, extra: opts.extra, otherProjects, slugs: { reuse, taken } });
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

/** The rule_covers cut: from a cuts file when it has one (calibrated), else the default, said so. */
export function coverCut(cuts: Cuts, cutsFile: string | undefined, question = "rules.rule_covers"): CoverCut {
  const v = cuts[question];
  return v === undefined ? { value: DEFAULT_RULES_CUT, origin: `uncalibrated default ${DEFAULT_RULES_CUT}` } : { value: v, origin: `calibrated (${cutsFile ?? "cuts file"})` };
}

export function readCoverage(v4Dir: string, warn: (l: string) => void = warnOnStderr): CoverageRecord[] {
  const r = readJsonl(join(v4Dir, COVERAGE_FILE), CoverageRecordSchema, { what: "a rule-coverage/1 row" });
  reportProblems(r.problems, warn);
  return r.rows;
}

/** The newest record per exchange for one judge. */
export function latestCoverage(rows: readonly CoverageRecord[], judge: { lane: string; model: string }): CoverageRecord[] {
  const by = new Map<string, CoverageRecord>();
  for (const r of rows) if (r.judge.lane === judge.lane && r.judge.model === judge.model) by.set(r.exchange_id, r);
  return [...by.values()];
}

export interface RulesCoverOptions {
  v4Dir: string;
  engine: Engine;
  weights: RuleNoulWeights | null;
  exchangeFiles: readonly string[];
  cuts: Cuts;
  cutsFile?: string;
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
  const files = v4Files(opts.v4Dir);
  const ex = readExchanges(opts.exchangeFiles, { warn });
  const answers = readAnswers(files.answers, { warn });
  const judge = { lane: opts.engine.lane, model: opts.engine.model };
  // The failures as the v4 pass composed them: the detect and diagnose answers of the
  // engine's lane and model, under the cuts.
  const composed = composeAll(ex.rows, answers.rows, judge, opts.cuts).filter((c) => c.composition?.defect === true && c.composition.primary_class !== null);
  const done = new Set(latestCoverage(readCoverage(opts.v4Dir, warn), judge).filter((r) => r.fix !== null).map((r) => r.exchange_id));
  const todo: CoverFailure[] = composed
    .filter((c) => opts.all === true || !done.has(c.exchange.id))
    .slice(0, opts.limit ?? Number.POSITIVE_INFINITY)
    .map((c) => ({ exchange: c.exchange, failureClass: c.composition?.primary_class ?? null, severity: c.composition?.severity ?? null }));
  const cut = coverCut(opts.cuts, opts.cutsFile);
  const file = join(opts.v4Dir, COVERAGE_FILE);
  const base = { file, cut, judge, failures: composed.length, alreadyCovered: composed.length - composed.filter((c) => !done.has(c.exchange.id)).length, planned: todo.length };
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
  const judge = { lane: opts.engine.lane, model: opts.engine.model };
  const coverage = latestCoverage(readCoverage(opts.v4Dir, warn), judge);
  if (coverage.length === 0) throw new ErrataError("NOT_FOUND", `no coverage for ${judge.lane}/${judge.model} in ${opts.v4Dir}`, { expected: "coverage.jsonl rows, made by `errata rules cover`", found: "none" });
  const ex = readExchanges(opts.exchangeFiles, { warn });
  const cut = coverCut(opts.cuts, opts.cutsFile, "rules.same_root_cause");
  const clusters = await clusterFailures(coverage, new Map(ex.rows.map((e) => [e.id, e])), { engine: opts.engine, weights: opts.weights, now: opts.now }, cut.value);
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
 * The "Most-broken rules" section of the v4 report for one judge, or null when the v4 folder
 * has no rule index or no coverage by this judge. `judged`: the exchanges whose detect answer
 * this judge scored.
 */
export function mostBrokenSection(v4Dir: string, exchanges: readonly Exchange[], judged: ReadonlySet<string>, judge: { lane: string; model: string }, limit = 10, warn: (l: string) => void = warnOnStderr): NonNullable<V4Report["most_broken_rules"]> | null {
  const index = readRuleIndex(ruleIndexPath(v4Dir));
  if (index === null) return null;
  const coverage = latestCoverage(readCoverage(v4Dir, warn), judge);
  if (coverage.length === 0) return null;
  return {
    ...mostBrokenRules(coverage, index, exchanges, judged, limit),
    coverage_rows: coverage.length,
    synthetic_rows: coverage.filter((r) => r.synthetic).length,
    cut_origin: coverage[coverage.length - 1]?.cut_origin ?? null,
  };
}

/** Exchanges whose `detect.unhappy` answer the judge scored: what was judged at all. */
export function judgedExchanges(answers: readonly Answer[], judge: { lane: string; model: string }): Set<string> {
  const out = new Set<string>();
  for (const a of answers) if (a.status === "scored" && a.question_id === "detect.unhappy" && a.lane === judge.lane && a.model === judge.model) out.add(a.exchange_id);
  return out;
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
