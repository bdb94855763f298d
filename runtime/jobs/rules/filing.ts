/**
 * Filing recommendations in the upgrades queue (`<ledgerDir>/upgrades.jsonl`) and the rates
 * of filed clusters before and after their upgrade was applied.
 *
 * Only `--file` writes: one `rule-upgrade/1` line per surviving recommendation with a change
 * and five or more exchange ids, deduplicated by claim hash (a claim already in the queue, in
 * any status, is never filed twice), and one `rule-filing/1` line in `<v4 dir>/filed.jsonl`.
 * The queue's other lines are read as they are: `upgrade-status/1` lines fold onto any
 * upgrade by id (its status, its `applied_at`), and a `source: errata` upgrade filed by hand
 * that cites exchange ids (an `exchange_ids` field, or `ex-` ids in its claim) is rated in the
 * bucket most of its cited failures fall in, or not at all when none is bucketed.
 *
 * Example: filing two survivors twice -> `{filed: [up-…, up-…], existing: []}` then
 * `{filed: [], existing: [up-…, up-…]}`.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { FilingSchema, QueueLineSchema, RuleUpgradeRecordSchema, type Filing, type Recommendation, type RuleUpgradeRecord } from "../../../schemas/recommendations.js";
import type { CoverageRecord } from "../../../schemas/rules.js";
import { appendJsonl, readJsonl, reportProblems, warnOnStderr } from "../../files/index.js";
import { beforeAfter, bucketItems, bucketOfCited, type BeforeAfter, type OpenUpgrade } from "../../rules/index.js";

export const FILED_FILE = "filed.jsonl";
export const MIN_FILED_EXCHANGES = 5;

/**
 * The claim hash of the upgrades queue: sha256 of the claim (trimmed, lower-cased, spaces
 * collapsed), 16 hex. The same function as the daily loop's `claimHash` (which this room
 * cannot import without a cycle; a test holds them equal).
 */
export function ruleClaimHash(claim: string): string {
  return createHash("sha256").update(claim.trim().toLowerCase().replace(/\s+/g, " ")).digest("hex").slice(0, 16);
}

function upgradeIdOf(nowMs: number, hash: string): string {
  return `up-${new Date(nowMs).toISOString().slice(0, 10).replaceAll("-", "")}-${hash.slice(0, 6)}`;
}

export function ruleClaim(r: Pick<Recommendation, "fix" | "bucket">): string {
  return `rules ${r.fix} bucket=${r.bucket}`;
}

export interface QueueEntry {
  id: string;
  schema: string;
  source: string | null;
  status: string;
  applied_at: string | null;
  claim_hash: string | null;
  /** Claim, bucket and rule id: where a cluster's bucket or rule id would be named. */
  text: string;
  exchange_ids: string[];
}

const EX_ID = /\bex-[0-9a-f]{16}\b/g;

/** Every upgrade of the queue, with its status lines folded on. */
export function readQueue(path: string, warn: (l: string) => void = warnOnStderr): QueueEntry[] {
  const r = readJsonl(path, QueueLineSchema, { what: "an upgrade line" });
  reportProblems(r.problems, warn);
  const byId = new Map<string, QueueEntry>();
  const status = r.rows.filter((l) => l.schema === "upgrade-status/1").sort((a, b) => ((a.ts ?? "") < (b.ts ?? "") ? -1 : (a.ts ?? "") > (b.ts ?? "") ? 1 : 0));
  for (const l of r.rows) {
    if (l.schema === "upgrade-status/1" || byId.has(l.id)) continue;
    const claim = l.claim ?? "";
    const cited = [...(l.exchange_ids ?? []), ...(claim.match(EX_ID) ?? [])];
    const hash = (l as { claim_hash?: unknown }).claim_hash;
    byId.set(l.id, {
      id: l.id,
      schema: l.schema,
      source: l.source ?? null,
      status: l.status ?? "open",
      applied_at: l.applied_at ?? null,
      claim_hash: typeof hash === "string" ? hash : claim ? ruleClaimHash(claim) : null,
      text: [claim, l.bucket ?? "", l.rule_id ?? ""].join(" "),
      exchange_ids: [...new Set(cited)],
    });
  }
  for (const s of status) {
    const u = byId.get(s.id);
    if (u === undefined) continue;
    if (s.status !== undefined) u.status = s.status;
    if (s.applied_at !== undefined && s.applied_at !== null) u.applied_at = s.applied_at;
  }
  return [...byId.values()];
}

export function openUpgrades(queue: readonly QueueEntry[]): OpenUpgrade[] {
  return queue.filter((u) => u.status === "open").map((u) => ({ id: u.id, text: u.text }));
}

export function readFilings(v4Dir: string, warn: (l: string) => void = warnOnStderr): Filing[] {
  const r = readJsonl(join(v4Dir, FILED_FILE), FilingSchema, { what: "a rule-filing/1 row" });
  reportProblems(r.problems, warn);
  return r.rows;
}

export interface FilingResult {
  filed: RuleUpgradeRecord[];
  /** Recommendations whose claim the queue already holds: the upgrade id it holds. */
  existing: Array<{ recommendation_id: string; upgrade_id: string }>;
  /** Recommendations not filed, and why. */
  refused: Array<{ recommendation_id: string; reason: string }>;
}

export function fileRecommendations(recs: readonly Recommendation[], opts: { upgradesFile: string; v4Dir: string; nowMs: number; dryRun: boolean; warn?: (l: string) => void }): FilingResult {
  const queue = readQueue(opts.upgradesFile, opts.warn);
  const held = new Map(queue.filter((u) => u.claim_hash !== null).map((u) => [u.claim_hash as string, u.id]));
  const out: FilingResult = { filed: [], existing: [], refused: [] };
  const filings: Filing[] = [];
  const ts = new Date(opts.nowMs).toISOString();
  for (const r of recs) {
    if (r.dropped.length > 0) out.refused.push({ recommendation_id: r.id, reason: "dropped by a check" });
    else if (r.change === null) out.refused.push({ recommendation_id: r.id, reason: "no change to file (written offline, or the writer named no target): nothing was checked" });
    else if (r.exchange_ids.length < MIN_FILED_EXCHANGES) out.refused.push({ recommendation_id: r.id, reason: `${r.exchange_ids.length} exchange ids (at least ${MIN_FILED_EXCHANGES} needed)` });
    else {
      const claim = ruleClaim(r);
      const hash = ruleClaimHash(claim);
      const old = held.get(hash);
      if (old !== undefined) {
        out.existing.push({ recommendation_id: r.id, upgrade_id: old });
        continue;
      }
      const up = RuleUpgradeRecordSchema.parse({ schema: "rule-upgrade/1", id: upgradeIdOf(opts.nowMs, hash), ts, source: "errata", fix: r.fix, claim, claim_hash: hash, bucket: r.bucket, rule_id: r.rule_id, recommendation_id: r.id, exchange_ids: r.exchange_ids, status: "open" });
      held.set(hash, up.id);
      out.filed.push(up);
      filings.push({ schema: "rule-filing/1", ts, upgrade_id: up.id, claim_hash: hash, recommendation_id: r.id, cluster_id: r.cluster_id, bucket: r.bucket, exchange_ids: r.exchange_ids });
    }
  }
  if (!opts.dryRun && out.filed.length > 0) {
    appendJsonl(opts.upgradesFile, out.filed);
    appendJsonl(join(opts.v4Dir, FILED_FILE), filings);
  }
  return out;
}

export interface FiledRateRow extends BeforeAfter {
  upgrade_id: string;
  /** Filed by hand (not by `rules recommend --file`). */
  hand: boolean;
  bucket: string;
  status: string;
  applied_at: string | null;
  /** Some exchange in the windows is synthetic: the row is reported as synthetic. */
  synthetic: boolean;
}

export interface JudgedItem {
  exchange_id: string;
  session_id: string;
  date: string | null;
  synthetic: boolean;
}

/**
 * A row per filed cluster (filed.jsonl) and per hand-filed `source: errata` upgrade citing
 * exchange ids; `unbucketed` lists the hand-filed ones whose cited ids match no bucketed failure.
 */
export function filedRates(opts: { filings: readonly Filing[]; queue: readonly QueueEntry[]; coverage: readonly CoverageRecord[]; judged: readonly JudgedItem[]; today: string; days: number }): { rows: FiledRateRow[]; unbucketed: string[] } {
  const byId = new Map(opts.queue.map((u) => [u.id, u]));
  const filedIds = new Set(opts.filings.map((f) => f.upgrade_id));
  const synthetic = new Map(opts.judged.map((j) => [j.exchange_id, j.synthetic]));
  const rows: FiledRateRow[] = [];
  const unbucketed: string[] = [];
  const row = (upgrade_id: string, bucket: string, hand: boolean): void => {
    const u = byId.get(upgrade_id);
    const items = bucketItems(bucket, opts.coverage, opts.judged);
    const ba = beforeAfter(items, u?.applied_at ?? null, opts.today, opts.days);
    const windows = [ba.before, ...(ba.after ? [ba.after] : [])];
    const used = items.filter((i) => windows.some((w) => i.date >= w.since && i.date < w.until));
    rows.push({ upgrade_id, hand, bucket, status: u?.status ?? "unknown (not in the queue)", applied_at: u?.applied_at ?? null, synthetic: used.some((i) => synthetic.get(i.exchange_id) === true), ...ba });
  };
  const seen = new Set<string>();
  for (const f of opts.filings) {
    if (seen.has(f.upgrade_id)) continue;
    seen.add(f.upgrade_id);
    row(f.upgrade_id, f.bucket, false);
  }
  for (const u of opts.queue) {
    if (filedIds.has(u.id) || u.source !== "errata" || u.exchange_ids.length === 0) continue;
    const bucket = bucketOfCited(u.exchange_ids, opts.coverage);
    if (bucket === null) unbucketed.push(u.id);
    else row(u.id, bucket, true);
  }
  return { rows, unbucketed };
}
