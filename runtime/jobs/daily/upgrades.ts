import {
  UpgradeRecordSchema,
  UpgradeStatusLineSchema,
  type Upgrade,
  type UpgradeRecord,
  type UpgradeStatusLine,
} from "../../../schemas/daily.js";
import { claimHash, upgradeId } from "./ids.js";
import { appendJsonl, readJsonlRaw } from "./jsonl.js";

/**
 * The upgrades queue (`<ledgerDir>/upgrades.jsonl`): `upgrade/1` records, and
 * `upgrade-status/1` lines that fold onto them by id (a fix applied or verified).
 * Filing deduplicates by claim hash: a claim already in the queue, in any status, is not
 * filed again, and its existing record is returned instead.
 *
 * Example: filing "cluster system=assistant class=stopped-short" twice gives
 * `{filed: [up-…], existing: []}` then `{filed: [], existing: [up-…]}`.
 */
export interface UpgradeQueue {
  upgrades: Upgrade[];
  byHash: Map<string, Upgrade>;
  bad: number;
}

export function readUpgrades(path: string): UpgradeQueue {
  const { values, bad: torn } = readJsonlRaw(path);
  let bad = torn;
  const byId = new Map<string, Upgrade>();
  const statusLines: UpgradeStatusLine[] = [];
  for (const v of values) {
    const tag = (v as { schema?: unknown } | null)?.schema;
    if (tag === "upgrade/1") {
      const r = UpgradeRecordSchema.safeParse(v);
      if (r.success && !byId.has(r.data.id)) byId.set(r.data.id, { ...r.data, applied_at: null });
      else if (!r.success) bad++;
    } else if (tag === "upgrade-status/1") {
      const r = UpgradeStatusLineSchema.safeParse(v);
      if (r.success) statusLines.push(r.data);
      else bad++;
    }
    // Lines of other schemas (upgrades filed by other tools) pass through untouched.
  }
  statusLines.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  for (const s of statusLines) {
    const u = byId.get(s.id);
    if (!u) continue;
    u.status = s.status;
    if (s.applied_at !== null) u.applied_at = s.applied_at;
    if (s.skill !== null && u.skill === null) u.skill = s.skill;
  }
  const upgrades = [...byId.values()];
  const byHash = new Map<string, Upgrade>();
  for (const u of upgrades) if (!byHash.has(u.claim_hash)) byHash.set(u.claim_hash, u);
  return { upgrades, byHash, bad };
}

export type UpgradeDraft = Omit<UpgradeRecord, "schema" | "id" | "ts" | "source" | "claim_hash" | "status">;

/**
 * Files drafts not already in the queue (by claim hash; also deduplicated within the batch).
 * With `dryRun` nothing is written but the result is the same.
 */
export function fileUpgrades(
  path: string,
  drafts: readonly UpgradeDraft[],
  nowMs: number,
  dryRun: boolean,
  queue: UpgradeQueue = readUpgrades(path),
): { filed: UpgradeRecord[]; existing: Upgrade[] } {
  const filed: UpgradeRecord[] = [];
  const existing: Upgrade[] = [];
  const seen = new Set<string>();
  for (const d of drafts) {
    const hash = claimHash(d.claim);
    const old = queue.byHash.get(hash);
    if (old) {
      existing.push(old);
      continue;
    }
    if (seen.has(hash)) continue;
    seen.add(hash);
    filed.push(
      UpgradeRecordSchema.parse({
        schema: "upgrade/1",
        id: upgradeId(nowMs, hash),
        ts: new Date(nowMs).toISOString(),
        source: "errata",
        claim_hash: hash,
        status: "open",
        ...d,
      }),
    );
  }
  if (!dryRun) appendJsonl(path, filed);
  return { filed, existing };
}
