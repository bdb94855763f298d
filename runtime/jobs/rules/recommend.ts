/**
 * `rules recommend`, `rules act` and `rules recheck` with their files. Reads the clusters
 * (`clusters.json`), the coverage of the same judge, the exchanges, the answers (what was
 * judged, for the rates) and the upgrades queue; writes the survivors to
 * `<v4 dir>/recommendations-<date>.jsonl` and the drops, each with its reasons, to
 * `recommendations-dropped-<date>.jsonl` (a re-run the same day replaces that day's rows for
 * the clusters it wrote for, and keeps the rest). Filing is `filing.ts`, and only with `file: true`.
 *
 * Example: `await runRulesRecommend({…, writer: null, top: 3})` -> offline recommendations for
 * the top 3 clusters of each fix type, `change: null` and the reason, nothing dropped.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ErrataError } from "../../../core/errors.js";
import type { Exchange } from "../../../schemas/exchange.js";
import { RecommendationSchema, type Recommendation } from "../../../schemas/recommendations.js";
import { RuleClusterSchema, type CoverageRecord, type RuleCluster, type RuleIndex } from "../../../schemas/rules.js";
import type { Engine, GenerativeLane } from "../../engine/index.js";
import { readJsonl, reportProblems, warnOnStderr, writeFileAtomic } from "../../files/index.js";
import { redactForWrite } from "../../privacy/index.js";
import {
  addDays,
  bucketItems,
  falsifierOf,
  installedChecks,
  parseWriterReply,
  pickExemplars,
  rankClusters,
  rateWindow,
  recommendationId,
  RuleRetriever,
  rungOf,
  runChecks,
  writerMessages,
  COVERAGE_CALLER,
  type RankedCluster,
} from "../../rules/index.js";
import { judgedExchanges, latestCoverage, readAnswers, readCoverage, readExchanges, v4Files } from "../../judgments/index.js";
import { fileRecommendations, openUpgrades, readQueue, type FilingResult, type JudgedItem, type QueueEntry } from "./filing.js";
import { CLUSTERS_FILE, requireRuleIndex } from "./run.js";

export const FALSIFIER_DAYS = 14;

const ClustersFileSchema = z.object({
  schema: z.literal("rule-clusters/1"),
  judge: z.object({ lane: z.string(), model: z.string() }),
  clusters: z.array(RuleClusterSchema),
});

export function readClusters(v4Dir: string): z.infer<typeof ClustersFileSchema> {
  const file = join(v4Dir, CLUSTERS_FILE);
  if (!existsSync(file)) throw new ErrataError("NOT_FOUND", `no clusters in ${v4Dir}`, { expected: "clusters.json, made by `errata rules cluster`", found: "nothing" });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ErrataError("BAD_INPUT", `${file} is not JSON`, { expected: "a rule-clusters/1 file", found: (err as Error).message });
  }
  const r = ClustersFileSchema.safeParse(json);
  if (!r.success) throw new ErrataError("BAD_INPUT", `${file} is not a clusters file`, { expected: "a rule-clusters/1 file", found: `${r.error.issues[0]?.path.join(".") ?? ""}: ${r.error.issues[0]?.message ?? "invalid"}` });
  return r.data;
}

export function recommendationFiles(v4Dir: string, date: string): { survivors: string; dropped: string } {
  return { survivors: join(v4Dir, `recommendations-${date}.jsonl`), dropped: join(v4Dir, `recommendations-dropped-${date}.jsonl`) };
}

export interface Writer {
  lane: GenerativeLane | null;
  /** Why there is no writer, said in every offline recommendation. */
  offlineWhy: string;
}

export interface RulesRecommendOptions {
  v4Dir: string;
  /** The judge that answers the checks (its lane and model also pick the coverage read). */
  engine: Engine;
  writer: Writer;
  exchangeFiles: readonly string[];
  upgradesFile: string;
  top: number;
  days?: number;
  today: string;
  nowMs: number;
  dryRun: boolean;
  /** `rules act` and `--file`: file the survivors. */
  file: boolean;
  checkCut?: number;
  warn?: (l: string) => void;
}

export interface RulesRecommendReport {
  judge: { lane: string; model: string };
  /** The clusters chosen, ranked within their fix type. */
  planned: Array<{ cluster_id: string; fix: "enforce_rule" | "add_rule"; rank: number; score: number }>;
  survivors: Recommendation[];
  dropped: Recommendation[];
  skipped: Array<{ cluster_id: string; reason: string }>;
  files: { survivors: string; dropped: string };
  written: boolean;
  filing: FilingResult | null;
}

interface Context {
  index: RuleIndex;
  coverage: CoverageRecord[];
  exchanges: Map<string, Exchange>;
  judged: JudgedItem[];
  queue: QueueEntry[];
}

function load(opts: Pick<RulesRecommendOptions, "v4Dir" | "exchangeFiles" | "upgradesFile" | "warn">, judge: { lane: string; model: string }): Context {
  const warn = opts.warn ?? warnOnStderr;
  const index = requireRuleIndex(opts.v4Dir);
  const coverage = latestCoverage(readCoverage(opts.v4Dir, warn), judge);
  const ex = readExchanges(opts.exchangeFiles, { warn });
  const answersFile = v4Files(opts.v4Dir).answers;
  const judgedIds = existsSync(answersFile) ? judgedExchanges(readAnswers(answersFile, { warn }).rows, judge) : new Set<string>();
  const exchanges = new Map(ex.rows.map((e) => [e.id, e]));
  const judged = ex.rows.filter((e) => judgedIds.has(e.id)).map((e) => ({ exchange_id: e.id, session_id: e.session_id, date: e.prompt_ts?.slice(0, 10) ?? null, synthetic: e.synthetic }));
  return { index, coverage, exchanges, judged, queue: readQueue(opts.upgradesFile, warn) };
}

function relatedUpgrades(c: RuleCluster, queue: readonly QueueEntry[]): string[] {
  const keys = [c.rule_id, c.failure_class, c.component].filter((k): k is string => k !== null && k !== "unknown");
  return queue.filter((u) => keys.some((k) => u.text.includes(k))).slice(0, 10).map((u) => `${u.id} (${u.status}): ${u.text.trim()}`);
}

async function recommendOne(r: RankedCluster, ctx: Context, opts: RulesRecommendOptions, days: number): Promise<Recommendation> {
  const c = r.cluster;
  const unit = c.rule_id === null ? null : (ctx.index.units.find((u) => u.id === c.rule_id) ?? null);
  const rung = unit === null ? null : rungOf(unit, ctx.index);
  const severity = new Map(ctx.coverage.map((x) => [x.exchange_id, x.severity]));
  const exemplars = pickExemplars(c.exchange_ids, ctx.exchanges, severity);
  // The last N days of judged data: up to today, or to the newest judged exchange when the
  // data stop earlier (a corpus, the demo), so the baseline is never an empty window by construction.
  const items = bucketItems(c.bucket, ctx.coverage, ctx.judged);
  const newest = items.reduce((m, i) => (i.date <= opts.today && i.date > m ? i.date : m), "");
  const end = newest === "" ? opts.today : newest;
  const baseline = rateWindow(items, addDays(end, -days + 1), addDays(end, 1));
  const catalogue = installedChecks(ctx.index);
  const codeTarget = c.rule_id ?? c.bucket;
  let target: string | null = codeTarget;
  let change: string | null = null;
  let changeReason: string | null = null;
  let writerFalsifier: string | null = null;
  const dropped: string[] = [];
  if (opts.writer.lane === null) {
    const climb = rung === null ? "" : rung.next_name === null ? `; the rule is already ${rung.current_name}, the top rung` : `; the next rung of the binding ladder: ${rung.next_name} (now ${rung.current_name})`;
    changeReason = `offline (${opts.writer.offlineWhy}): code knows the target and the falsifier but cannot write the change${climb}`;
  } else {
    const sourcePath = unit === null ? null : (ctx.index.sources.find((s) => s.source === unit.source)?.path ?? null);
    const messages = writerMessages({ ranked: r, rule: unit, rulePath: sourcePath, rung, exemplars, related: relatedUpgrades(c, ctx.queue), catalogue });
    const out = await opts.writer.lane.generate(messages, { caller: COVERAGE_CALLER });
    const parsed = out.ok ? parseWriterReply(out.text) : { ok: false as const, reason: `no reply: ${out.reason}` };
    if (!parsed.ok) {
      target = null;
      changeReason = parsed.reason;
      dropped.push(`writer: ${parsed.reason}`);
    } else {
      target = parsed.reply.target;
      change = parsed.reply.change;
      writerFalsifier = parsed.reply.falsifier;
      if (target === null) changeReason = "the writer named no target (the doctrine's last resort: nothing to change)";
    }
  }
  const verdict = dropped.length > 0 ? { checks: [], flags: [], dropped: [] } : await runChecks({ target, change, fix: r.fix, rule: unit, exemplars, catalogue }, opts.engine, RuleRetriever.of(ctx.index, exemplars[0]?.cwd ?? null), opts.checkCut);
  return RecommendationSchema.parse({
    schema: "rule-recommendation/1",
    id: recommendationId(c.bucket, c.exchange_ids, target, change),
    date: opts.today,
    cluster_id: c.id,
    bucket: c.bucket,
    fix: r.fix,
    rank: r.rank,
    score: r.score,
    rule_id: c.rule_id,
    failures: c.exchange_ids.length,
    sessions: c.sessions,
    mean_severity: c.mean_severity,
    exchange_ids: c.exchange_ids,
    exemplar_ids: exemplars.map((e) => e.id),
    target,
    change,
    change_reason: changeReason,
    falsifier: falsifierOf(c.bucket, baseline, days),
    writer_falsifier: writerFalsifier,
    rung,
    writer: opts.writer.lane === null ? { lane: "offline", model: null, service_tier: null } : { lane: "openai", model: opts.writer.lane.model, service_tier: opts.writer.lane.serviceTier },
    checks: verdict.checks,
    flags: verdict.flags,
    dropped: [...dropped, ...verdict.dropped],
    synthetic: exemplars.some((e) => e.synthetic),
  });
}

/**
 * Writes the day's two lists: this run's recommendations replace the day's earlier ones for
 * the same clusters; the day's others stay (a re-run that finds a cluster now carried by an
 * open upgrade does not erase what was written for it).
 */
function writeLists(v4Dir: string, date: string, survivors: readonly Recommendation[], dropped: readonly Recommendation[]): { survivors: string; dropped: string } {
  const files = recommendationFiles(v4Dir, date);
  const replaced = new Set([...survivors, ...dropped].map((r) => r.cluster_id));
  const earlier = (f: string): Recommendation[] => (existsSync(f) ? readRecommendations(f).filter((r) => !replaced.has(r.cluster_id)) : []);
  const text = (rs: readonly Recommendation[]): string => rs.map((r) => `${JSON.stringify(redactForWrite(r).value)}\n`).join("");
  const keptBefore = earlier(files.survivors);
  const droppedBefore = earlier(files.dropped);
  // A model-written change or reason can echo an exemplar: every string goes through the entry point.
  writeFileAtomic(files.survivors, text([...keptBefore, ...survivors]));
  writeFileAtomic(files.dropped, text([...droppedBefore, ...dropped]));
  return files;
}

export async function runRulesRecommend(opts: RulesRecommendOptions): Promise<RulesRecommendReport> {
  const stored = readClusters(opts.v4Dir);
  const judge = stored.judge;
  const ctx = load(opts, judge);
  const days = opts.days ?? FALSIFIER_DAYS;
  const { chosen, skipped } = rankClusters(stored.clusters, openUpgrades(ctx.queue), opts.top);
  const files = recommendationFiles(opts.v4Dir, opts.today);
  const planned = chosen.map((r) => ({ cluster_id: r.cluster.id, fix: r.fix, rank: r.rank, score: r.score }));
  if (opts.dryRun && opts.writer.lane !== null) {
    // A dry run asks no model: it says what would be written for and why the rest is not.
    return { judge, planned, survivors: [], dropped: [], skipped, files, written: false, filing: null };
  }
  const all: Recommendation[] = [];
  for (const r of chosen) all.push(await recommendOne(r, ctx, opts, days));
  const survivors = all.filter((r) => r.dropped.length === 0);
  const dropped = all.filter((r) => r.dropped.length > 0);
  if (!opts.dryRun) writeLists(opts.v4Dir, opts.today, survivors, dropped);
  const filing = opts.file ? fileRecommendations(survivors, { upgradesFile: opts.upgradesFile, v4Dir: opts.v4Dir, nowMs: opts.nowMs, dryRun: opts.dryRun, ...(opts.warn ? { warn: opts.warn } : {}) }) : null;
  return { judge, planned, survivors, dropped, skipped, files, written: !opts.dryRun, filing };
}

/** Reads a stored list (survivors or drops): every line a recommendation. */
export function readRecommendations(file: string, warn: (l: string) => void = warnOnStderr): Recommendation[] {
  if (!existsSync(file)) throw new ErrataError("NOT_FOUND", `no recommendations file ${file}`, { expected: "a recommendations-<date>.jsonl written by `errata rules recommend`", found: "nothing" });
  const r = readJsonl(file, RecommendationSchema, { what: "a rule-recommendation/1 row" });
  reportProblems(r.problems, warn);
  return r.rows;
}

/**
 * `rules recheck`: every current check again on a stored list (the writer is not asked: the
 * changes stay as written). A writer's drop stays a drop; the rest are judged afresh, and the
 * day's lists are rewritten with the new verdicts.
 */
export async function runRulesRecheck(opts: Omit<RulesRecommendOptions, "writer" | "top" | "file" | "days"> & { list: string }): Promise<RulesRecommendReport> {
  const stored = readRecommendations(opts.list, opts.warn);
  const judge = { lane: opts.engine.lane, model: opts.engine.model };
  const ctx = load(opts, judge);
  const catalogue = installedChecks(ctx.index);
  const out: Recommendation[] = [];
  for (const r of stored) {
    const writerDrops = r.dropped.filter((d) => d.startsWith("writer: "));
    if (writerDrops.length > 0) {
      out.push(r);
      continue;
    }
    const unit = r.rule_id === null ? null : (ctx.index.units.find((u) => u.id === r.rule_id) ?? null);
    const exemplars = r.exemplar_ids.map((id) => ctx.exchanges.get(id)).filter((e): e is Exchange => e !== undefined);
    const v = await runChecks({ target: r.target, change: r.change, fix: r.fix, rule: unit, exemplars, catalogue }, opts.engine, RuleRetriever.of(ctx.index, exemplars[0]?.cwd ?? null), opts.checkCut);
    out.push({ ...r, checks: v.checks, flags: v.flags, dropped: v.dropped });
  }
  const survivors = out.filter((r) => r.dropped.length === 0);
  const dropped = out.filter((r) => r.dropped.length > 0);
  const files = opts.dryRun ? recommendationFiles(opts.v4Dir, opts.today) : writeLists(opts.v4Dir, opts.today, survivors, dropped);
  return { judge, planned: [], survivors, dropped, skipped: [], files, written: !opts.dryRun, filing: null };
}
