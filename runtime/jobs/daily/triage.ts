import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { redactTextForWrite } from "../../privacy/index.js";
import { join } from "node:path";
import type { Erratum } from "../../../schemas/erratum.js";
import { redactSecrets } from "../../privacy/index.js";
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
 * What it rests on is said, in the counts and at the head of the report: how many entries, how
 * many mined from generated (synthetic) sessions (the ledger's `synthetic` field), and how many
 * whose enrichment confidence is below `minConfidence` (default 0.5, `triage.min_confidence`
 * in daily.json, `--min-confidence`). Only entries at or above it count towards filing an
 * upgrade or are linked to one; the others are listed and closed as triaged.
 *
 * The report is the owner's own file, so each entry is listed with its kind, date and a short
 * excerpt of its words, redacted again (runtime/privacy) before it is written; an id already
 * listed in today's report is not listed twice (the daily and a manual triage on one day).
 * The daily report, events and state still carry ids and counts only.
 *
 * Example counts (manual): `{entries: 5, synthetic: 2, low_confidence: 1, clusters: 3, filed: 1, linked_existing: 0, closed: 2, upgrade_filed: 3}`.
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
  /** Entries below this enrichment confidence never file or join an upgrade (default 0.5). */
  minConfidence?: number;
}

/** The default confidence an entry needs to count towards an upgrade. */
export const DEFAULT_MIN_CONFIDENCE = 0.5;

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

/** A short excerpt of an entry's words for the owner's report: redacted, one line, control bytes dropped. */
export function excerpt(text: string, max = 100): string {
  // Control bytes in a pasted complaint would redraw the owner's terminal when the report is cat-ed.
  return oneLine(redactSecrets(text).text.replace(/[\u0000-\u001f\u007f]/g, " "), max).replace(/"/g, "'");
}

function isConfident(e: Erratum, minConfidence: number): boolean {
  return (e.enrichment?.confidence ?? 0) >= minConfidence;
}

/** How many entries a triage rests on, how many of them are synthetic and how many are below the confidence bar. */
export function restsOn(entries: readonly Erratum[], minConfidence: number): { entries: number; synthetic: number; low_confidence: number } {
  return {
    entries: entries.length,
    synthetic: entries.filter((e) => e.synthetic === true).length,
    low_confidence: entries.filter((e) => !isConfident(e, minConfidence)).length,
  };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function renderTriage(
  clusters: readonly Cluster[],
  nowMs: number,
  mode: "daily" | "manual",
  filedIds: ReadonlyMap<string, string>,
  opts: { minConfidence?: number; alreadyListed?: ReadonlySet<string> } = {},
): string {
  const minConfidence = opts.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const listed = new Set(opts.alreadyListed ?? []);
  const lines: string[] = [];
  const all = clusters.flatMap((c) => c.members);
  const r = restsOn(all, minConfidence);
  lines.push(`## Triage ${new Date(nowMs).toISOString().slice(0, 16).replace("T", " ")} UTC (${mode})`, "");
  lines.push(`${plural(r.entries, "entry", "entries")} in ${plural(clusters.length, "cluster", "clusters")} (system x class).`);
  lines.push(
    `Rests on ${plural(r.entries, "entry", "entries")}: ${r.synthetic} SYNTHETIC (mined from generated sessions, not people), ` +
      `${r.low_confidence} below enrichment confidence ${minConfidence} (listed, never used to file an upgrade).`,
    "",
  );
  for (const c of clusters) {
    const upgrade = filedIds.get(clusterKey(c.system, c.class));
    const cr = restsOn(c.members, minConfidence);
    lines.push(
      `### ${c.system} / ${c.class ?? "unclassified"}: ${plural(cr.entries, "entry", "entries")} (${cr.synthetic} synthetic, ${cr.low_confidence} low-confidence), max how_upset ${c.maxHowUpset}${upgrade ? ` -> ${upgrade}` : ""}`,
      "",
    );
    let earlier = 0;
    for (const e of c.members) {
      if (listed.has(e.id)) {
        earlier++;
        continue;
      }
      listed.add(e.id);
      const conf = e.enrichment?.confidence;
      const tags = [e.kind, e.ts.slice(0, 10), `how_upset ${e.enrichment?.how_upset ?? "?"}`, `confidence ${conf === undefined ? "?" : conf.toFixed(2)}`];
      if (e.synthetic === true) tags.push("SYNTHETIC");
      lines.push(`- ${e.id} (${tags.join(", ")}): "${excerpt(e.complaint)}"`);
    }
    if (earlier > 0) lines.push(`- and ${plural(earlier, "entry", "entries")} listed earlier in this report`);
    lines.push("");
  }
  return lines.join("\n");
}

/** The erratum ids a report file already lists (its `- er-...` lines). */
export function listedIds(text: string): Set<string> {
  return new Set([...text.matchAll(/^- (er-\d{8}-[0-9a-f]{6}) /gm)].map((m) => m[1]!));
}

export async function runTriage(ctx: StageContext, opts: TriageOptions): Promise<StageOutput> {
  const { errata } = await ctx.ledger.readAll();
  const statuses = opts.file ? new Set(["enriched", "triaged"]) : new Set(["enriched"]);
  const since = opts.triagedSinceMs ?? -Infinity;
  const minConfidence = opts.minConfidence ?? ctx.cfg.config.triage?.min_confidence ?? DEFAULT_MIN_CONFIDENCE;
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
  const rests = restsOn(entries, minConfidence);
  const counts = { ...rests, clusters: clusters.length, filed: 0, linked_existing: 0, closed: 0, upgrade_filed: 0, refused: 0 };
  const filedIds = new Map<string, string>();
  if (opts.file) {
    const queue = readUpgrades(ctx.files.upgrades);
    // Only confident entries file an upgrade or join one: a cluster is judged on those alone.
    const confident = clusters
      .map((c) => {
        const members = c.members.filter((e) => isConfident(e, minConfidence));
        return { ...c, members, maxHowUpset: Math.max(0, ...members.map((e) => e.enrichment?.how_upset ?? 0)) };
      })
      .filter((c) => c.members.length > 0);
    const toFile = confident.filter(shouldFile);
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
    const filedHere = filedIds.has(clusterKey(c.system, c.class));
    for (const e of c.members) {
      if (e.status !== "enriched") continue;
      // Members of a filed cluster were linked above, unless too unsure to be.
      if (filedHere && isConfident(e, minConfidence)) continue;
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
    const before = existsSync(reportPath) ? readFileSync(reportPath, "utf8") : null;
    const body = redactTextForWrite(renderTriage(clusters, now, opts.file ? "manual" : "daily", filedIds, { minConfidence, alreadyListed: before === null ? new Set() : listedIds(before) }));
    if (!ctx.dryRun) {
      mkdirSync(ctx.files.reportsDir, { recursive: true });
      if (before !== null) writeFileSync(reportPath, `${before.replace(/\n*$/, "\n\n")}${body}`);
      else writeFileSync(reportPath, `${FRONT_MATTER}\n# Errata triage ${dayOf(now)}\n\n${body}`);
    }
    wrote["report"] = reportPath;
  }
  const notes =
    entries.length > 0
      ? [`rests on ${plural(rests.entries, "entry", "entries")}: ${rests.synthetic} synthetic, ${rests.low_confidence} below confidence ${minConfidence}${opts.file ? " (not used to file)" : ""}`]
      : [];
  return stageOutput(counts, notes, wrote);
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
