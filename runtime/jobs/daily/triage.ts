import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { redactTextForWrite } from "../../privacy/index.js";
import { join } from "node:path";
import type { Erratum } from "../../../schemas/erratum.js";
import type { StageContext, StageOutput } from "./context.js";
import { patchOne, stageOutput } from "./context.js";
import { claimHash, dayOf } from "./ids.js";
import { fileUpgrades, readUpgrades, type UpgradeDraft } from "./upgrades.js";

/**
 * Triage groups enriched entries by system and class and writes
 * `reports/triage-YYYY-MM-DD.md`, opening with `references: historical` front matter (the
 * report quotes things as they stood that day; a reference checker skips it by that marker).
 *
 * - The daily run (`file: false`) closes every entry it grouped as `triaged` and files nothing.
 * - A manual triage (`file: true`) also reads entries already triaged, and files one upgrade
 *   (source errata) per cluster with two or more entries or any entry at how_upset 3, links
 *   each member (`links.upgrade_id`) and sets `upgrade-filed`. Upgrades are deduplicated by
 *   claim hash ("cluster system=<s> class=<c>"), so a re-run files nothing twice: members of
 *   a cluster already filed are linked to the existing upgrade.
 *
 * Example counts (manual): `{entries: 5, clusters: 3, filed: 1, linked_existing: 0, closed: 2, upgrade_filed: 3}`.
 */
export interface TriageOptions {
  file: boolean;
  includeBackfill?: boolean;
  /**
   * Manual triage only: entries already triaged count when captured at or after this time
   * (default: all). Enriched entries always count. Keeps a manual triage on a year-old
   * ledger from filing the whole history.
   */
  triagedSinceMs?: number;
}

export interface Cluster {
  system: string;
  class: string | null;
  members: Erratum[];
  maxHowUpset: number;
}

export const FRONT_MATTER = "---\nreferences: historical\n---\n";

export function clusterKey(system: string, cls: string | null): string {
  return `${system}\u0000${cls ?? ""}`;
}

export function clusterEntries(entries: readonly Erratum[]): Cluster[] {
  const map = new Map<string, Cluster>();
  for (const e of entries) {
    const cls = e.enrichment?.class ?? null;
    const key = clusterKey(e.system, cls);
    let c = map.get(key);
    if (!c) map.set(key, (c = { system: e.system, class: cls, members: [], maxHowUpset: 0 }));
    c.members.push(e);
    c.maxHowUpset = Math.max(c.maxHowUpset, e.enrichment?.how_upset ?? 0);
  }
  return [...map.values()].sort((a, b) => b.members.length - a.members.length || b.maxHowUpset - a.maxHowUpset || (a.system + (a.class ?? "")).localeCompare(b.system + (b.class ?? "")));
}

export function shouldFile(c: Cluster): boolean {
  return c.members.length >= 2 || c.maxHowUpset >= 3;
}

export function clusterClaim(c: Pick<Cluster, "system" | "class">): string {
  return `cluster system=${c.system} class=${c.class ?? "unclassified"}`;
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function renderTriage(clusters: readonly Cluster[], nowMs: number, mode: "daily" | "manual", filedIds: ReadonlyMap<string, string>): string {
  const lines: string[] = [];
  const total = clusters.reduce((n, c) => n + c.members.length, 0);
  lines.push(`## Triage ${new Date(nowMs).toISOString().slice(0, 16).replace("T", " ")} UTC (${mode})`, "");
  lines.push(`${total} entr${total === 1 ? "y" : "ies"} in ${clusters.length} cluster${clusters.length === 1 ? "" : "s"} (system x class).`, "");
  for (const c of clusters) {
    const upgrade = filedIds.get(clusterKey(c.system, c.class));
    lines.push(`### ${c.system} / ${c.class ?? "unclassified"}: ${c.members.length} entr${c.members.length === 1 ? "y" : "ies"}, max how_upset ${c.maxHowUpset}${upgrade ? ` -> ${upgrade}` : ""}`, "");
    for (const e of c.members) {
      const what = e.enrichment?.what_upset ? `: ${oneLine(e.enrichment.what_upset, 140)}` : "";
      lines.push(`- ${e.id} (${e.ts.slice(0, 10)}, ${e.kind}, how_upset ${e.enrichment?.how_upset ?? "?"})${what}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

export async function runTriage(ctx: StageContext, opts: TriageOptions): Promise<StageOutput> {
  const { errata } = await ctx.ledger.readAll();
  const statuses = opts.file ? new Set(["enriched", "triaged"]) : new Set(["enriched"]);
  const since = opts.triagedSinceMs ?? -Infinity;
  const entries = errata.filter(
    (e) =>
      e.enrichment !== null &&
      statuses.has(e.status) &&
      (e.status !== "triaged" || Date.parse(e.ts) >= since) &&
      (opts.includeBackfill || e.source !== "backfill"),
  );
  const clusters = clusterEntries(entries);
  const now = ctx.nowMs();
  const reportPath = join(ctx.files.reportsDir, `triage-${dayOf(now)}.md`);
  const counts = { entries: entries.length, clusters: clusters.length, filed: 0, linked_existing: 0, closed: 0, upgrade_filed: 0, refused: 0 };
  const filedIds = new Map<string, string>();
  if (opts.file) {
    const queue = readUpgrades(ctx.files.upgrades);
    const toFile = clusters.filter(shouldFile);
    const drafts: UpgradeDraft[] = toFile.map((c) => ({
      kind: "cluster",
      claim: clusterClaim(c),
      system: c.system,
      class: c.class,
      skill: null,
      output_id: null,
      erratum_ids: c.members.map((e) => e.id).slice(0, 500),
      max_how_upset: c.maxHowUpset,
    }));
    const { filed, existing } = fileUpgrades(ctx.files.upgrades, drafts, now, ctx.dryRun, queue);
    counts.filed = filed.length;
    counts.linked_existing = existing.length;
    const byClaim = new Map([...filed, ...existing].map((u) => [u.claim_hash, u.id]));
    for (const c of toFile) {
      const id = byClaim.get(claimHash(clusterClaim(c)));
      if (id === undefined) continue;
      filedIds.set(clusterKey(c.system, c.class), id);
      for (const e of c.members) {
        if (!ctx.dryRun && !(await patchOne(ctx, "triage", e.id, { status: "upgrade-filed", links: { upgrade_id: id } }))) {
          counts.refused++;
          continue;
        }
        counts.upgrade_filed++;
      }
    }
  }
  for (const c of clusters) {
    if (filedIds.has(clusterKey(c.system, c.class))) continue;
    for (const e of c.members) {
      if (e.status !== "enriched") continue;
      if (!ctx.dryRun && !(await patchOne(ctx, "triage", e.id, { status: "triaged" }))) {
        counts.refused++;
        continue;
      }
      counts.closed++;
    }
  }
  const wrote: Record<string, string> = {};
  if (clusters.length > 0 || !existsSync(reportPath)) {
    // Quotes from the ledger are redacted already; the report passes the entry point anyway,
    // so a quote from an older row or another source cannot carry a secret into it.
    const body = redactTextForWrite(renderTriage(clusters, now, opts.file ? "manual" : "daily", filedIds));
    if (!ctx.dryRun) {
      mkdirSync(ctx.files.reportsDir, { recursive: true });
      if (existsSync(reportPath)) writeFileSync(reportPath, `${readFileSync(reportPath, "utf8").replace(/\n*$/, "\n\n")}${body}`);
      else writeFileSync(reportPath, `${FRONT_MATTER}\n# Errata triage ${dayOf(now)}\n\n${body}`);
    }
    wrote["report"] = reportPath;
  }
  return stageOutput(counts, [], wrote);
}

/**
 * `errata triage --mark-reports`: adds the `references: historical` front matter to older
 * reports in the reports folder that lack it. Returns the files changed (or that would be).
 */
export function markReports(reportsDir: string, dryRun: boolean, list: (dir: string) => string[]): string[] {
  if (!existsSync(reportsDir)) return [];
  const changed: string[] = [];
  for (const name of list(reportsDir).filter((f) => f.endsWith(".md")).sort()) {
    const path = join(reportsDir, name);
    const text = readFileSync(path, "utf8");
    if (hasHistoricalMarker(text)) continue;
    changed.push(path);
    if (dryRun) continue;
    if (text.startsWith("---\n")) writeFileSync(path, text.replace(/^---\n/, "---\nreferences: historical\n"));
    else writeFileSync(path, `${FRONT_MATTER}\n${text}`);
  }
  return changed;
}

export function hasHistoricalMarker(text: string): boolean {
  const m = /^---\n([\s\S]*?)\n---/.exec(text);
  return m !== null && /^references:\s*historical\s*$/m.test(m[1] ?? "");
}
