/**
 * Recommendations: which clusters get one, what the writer reads, and what code writes when
 * no writer is there. Clusters rank by distinct sessions x (1 + mean severity), the two fix
 * types apart (`top` is per fix type), so one large rule bucket cannot crowd out every
 * missing-rule gap; only clusters of five or more failures with no open upgrade already
 * carrying their bucket or rule id get one. The writer (the engine's generative lane) reads
 * five to eight redacted exemplars, the rule, related upgrades and the installed checks, and
 * replies `{target, change, falsifier}` (schemas/recommendations.ts); a reply that does not
 * parse is a drop with its reason. Offline, code writes what it knows (the target, the
 * computed falsifier, the next rung for a covered rule) with `change: null` and says why.
 *
 * Example: clusters rule:A (9 failures, 6 sessions, severity 2) and gap:fabrication×api (5, 5,
 * 1) with top 1 -> both chosen, each rank 1 of its own fix type.
 */
import { createHash } from "node:crypto";
import type { Exchange } from "../../schemas/exchange.js";
import type { RuleCluster, RuleIndex, RuleUnit } from "../../schemas/rules.js";
import { WriterReplySchema, type Recommendation, type RateWindow, type Rung, type WriterReply } from "../../schemas/recommendations.js";
import type { ChatMessage } from "../engine/index.js";
import { redactSecrets } from "../privacy/index.js";
import { PLACEMENT_RULES, SELF_HEALING_DOCTRINE } from "./doctrine.js";

export const MIN_FAILURES = 5;
export const MIN_EXEMPLARS = 5;
export const MAX_EXEMPLARS = 8;

export interface RankedCluster {
  cluster: RuleCluster;
  fix: "enforce_rule" | "add_rule";
  score: number;
  rank: number;
}

export interface OpenUpgrade {
  id: string;
  /** Its claim, bucket and rule id, where a cluster's bucket or rule id would appear. */
  text: string;
}

export function clusterScore(c: RuleCluster): number {
  return Math.round(c.sessions * (1 + (c.mean_severity ?? 0)) * 1000) / 1000;
}

/** The clusters that get a recommendation, and why each other one does not. */
export function rankClusters(clusters: readonly RuleCluster[], open: readonly OpenUpgrade[], top: number): { chosen: RankedCluster[]; skipped: Array<{ cluster_id: string; reason: string }> } {
  const skipped: Array<{ cluster_id: string; reason: string }> = [];
  const eligible: RuleCluster[] = [];
  for (const c of clusters) {
    const carrier = open.find((u) => u.text.includes(c.bucket) || (c.rule_id !== null && u.text.includes(c.rule_id)));
    if (c.exchange_ids.length < MIN_FAILURES) skipped.push({ cluster_id: c.id, reason: `${c.exchange_ids.length} failures (fewer than ${MIN_FAILURES})` });
    else if (carrier !== undefined) skipped.push({ cluster_id: c.id, reason: `open upgrade ${carrier.id} already carries it` });
    else eligible.push(c);
  }
  const chosen: RankedCluster[] = [];
  for (const kind of ["rule", "gap"] as const) {
    const ranked = eligible
      .filter((c) => c.kind === kind)
      .sort((a, b) => clusterScore(b) - clusterScore(a) || b.exchange_ids.length - a.exchange_ids.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    ranked.forEach((c, i) => {
      if (i < top) chosen.push({ cluster: c, fix: kind === "rule" ? "enforce_rule" : "add_rule", score: clusterScore(c), rank: i + 1 });
      else skipped.push({ cluster_id: c.id, reason: `rank ${i + 1} of its fix type, beyond --top ${top}` });
    });
  }
  return { chosen, skipped };
}

/** Five to eight exemplars (fewer only when the cluster has fewer): highest severity first, one per session before a second. */
export function pickExemplars(ids: readonly string[], exchanges: ReadonlyMap<string, Exchange>, severity: ReadonlyMap<string, number | null>): Exchange[] {
  const members = ids.map((id) => exchanges.get(id)).filter((e): e is Exchange => e !== undefined);
  members.sort((a, b) => (severity.get(b.id) ?? 0) - (severity.get(a.id) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: Exchange[] = [];
  const sessions = new Set<string>();
  for (const e of members) if (out.length < MAX_EXEMPLARS && !sessions.has(e.session_id)) (out.push(e), sessions.add(e.session_id));
  for (const e of members) if (out.length < MAX_EXEMPLARS && !out.includes(e)) out.push(e);
  return out;
}

export function recommendationId(bucket: string, exchangeIds: readonly string[], target: string | null, change: string | null): string {
  const h = createHash("sha256").update(JSON.stringify([bucket, [...exchangeIds].sort(), target, change])).digest("hex");
  return `rec-${h.slice(0, 12)}`;
}

export function falsifierOf(bucket: string, baseline: RateWindow, days: number): Recommendation["falsifier"] {
  const rate = baseline.rate === null ? "its rate (nothing judged yet)" : `${baseline.rate} (${baseline.complaints} of ${baseline.denominator} judged exchanges, ${baseline.since} to ${baseline.until})`;
  return { statement: `wrong if the rate of ${bucket} over the ${days} days after it is applied is not shown below ${rate} by the sequential permutation test on sessions (one look a week, 5% bounded however often it is read; docs/causal.md)`, window_days: days, baseline };
}

export interface WriterInput {
  ranked: RankedCluster;
  rule: RuleUnit | null;
  rulePath: string | null;
  rung: Rung | null;
  exemplars: readonly Exchange[];
  related: readonly string[];
  catalogue: readonly string[];
}

function exemplarText(e: Exchange, i: number): string {
  const r = (t: string | null): string => (t === null ? "(none)" : redactSecrets(t).text);
  const tools = e.tool_calls.map((t) => `${t.name}: ${redactSecrets(t.summary).text}`).join("; ");
  return `${i + 1}. The assistant's reply ended: ${r(e.reply_end)}\n   Tool calls: ${tools || "(none)"}\n   The owner typed next: ${r(e.prompt)}`;
}

/** What the writer reads. The doctrine is given for a covered rule; every prompt asks for negative constraints. */
export function writerMessages(w: WriterInput): ChatMessage[] {
  const covered = w.ranked.fix === "enforce_rule";
  const system = [
    "You write one recommendation that would stop a cluster of failures of an AI coding assistant from happening again.",
    'Reply with ONE JSON object and nothing else, with exactly these keys: "target" (where the change goes: a rule id, a file and section, or a check; null for none), "change" (the change itself; null when target is null), "falsifier" (what observation would show the change did not work).',
    "Prefer negative constraints (\"Do not ...\") in the change.",
    ...(covered ? ["The owner already has a rule for this; follow this doctrine:", ...SELF_HEALING_DOCTRINE.map((d) => `- ${d}`)] : ["No rule covers these failures: write the missing rule, short and checkable."]),
  ].join("\n");
  const user = [
    `## Fix type\n${w.ranked.fix} (cluster ${w.ranked.cluster.bucket}: ${w.ranked.cluster.exchange_ids.length} failures in ${w.ranked.cluster.sessions} sessions)`,
    `## The rule\n${w.rule === null ? "(none: no rule covers these failures)" : `${w.rule.text}\n(from ${w.rulePath ?? w.rule.source}, id ${w.rule.id}${w.rung ? `; now ${w.rung.current_name}${w.rung.next_name ? `, next rung: ${w.rung.next_name}` : ""}` : ""})`}`,
    `## Exemplars (redacted)\n${w.exemplars.map(exemplarText).join("\n")}`,
    `## Related upgrades\n${w.related.length === 0 ? "(none)" : w.related.map((r) => `- ${r}`).join("\n")}`,
    `## Installed hooks and checks\n${w.catalogue.length === 0 ? "(none)" : w.catalogue.map((r) => `- ${r}`).join("\n")}`,
    `## Placement rules\n${PLACEMENT_RULES.map((r) => `- ${r}`).join("\n")}`,
  ].join("\n\n");
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}

/** The writer's reply read by its schema: the reply, or why it cannot be used. */
export function parseWriterReply(text: string): { ok: true; reply: WriterReply } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    return { ok: false, reason: `malformed reply: not JSON (${JSON.stringify(text.slice(0, 60))})` };
  }
  const r = WriterReplySchema.safeParse(json);
  if (r.success) return { ok: true, reply: r.data };
  const i = r.error.issues[0];
  return { ok: false, reason: `malformed reply: ${i?.path.join(".") || "value"}: ${i?.message ?? "invalid"} (expected {target, change, falsifier})` };
}

/** The installed checks of the index (hookify files), for the writer and the already-done check. */
export function installedChecks(index: RuleIndex): string[] {
  return index.units.filter((u) => u.kind === "hookify").map((u) => `${u.source}: ${u.text.replace(/\s+/g, " ").slice(0, 200)}`);
}
