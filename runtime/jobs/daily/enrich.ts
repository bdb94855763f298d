import type { EnrichmentSources } from "../../../schemas/daily.js";
import { EnrichmentSchema, type Enrichment, type Erratum } from "../../../schemas/erratum.js";
import { appendJsonl } from "./jsonl.js";
import { isAuthorizedTenant } from "./config.js";
import type { StageContext, StageOutput } from "./context.js";
import { patchOne, stageOutput } from "./context.js";
import type { EmbeddedEnricher, EmbeddedFill } from "./enrich-embedded.js";
import type { ProseLane } from "./enrich-openai.js";
import type { ProseReply } from "./enrich-reply.js";

/**
 * The enrich stage: a bounded batch, newest first, of eligible entries whose enrichment is
 * null. Eligible: status new, a complaint-like kind (config `enrich.kinds`), not backfill or
 * detected, and not from an unauthorized tenant. The batch stops at `max_entries` (150) or
 * after `max_minutes` (10) of work; entries not reached are counted as `deferred`.
 *
 * The embedded engine fills how_upset, class and confidence offline; the OpenAI lane, when
 * configured, fills the prose (which_part, what_upset, reporter_right and reason,
 * root_cause_hypothesis, proposed_fix) and whatever the engine left null. Each field's lane
 * is recorded in `audit/enrichment-sources.jsonl` (the enrichment record has no field for
 * it). A malformed model reply leaves the entry null and counts `malformed`.
 *
 * Example counts: `{eligible: 12, batch: 12, enriched: 11, malformed: 1, deferred: 0,
 * excluded_tenant: 2, prose_filled: 11}`.
 */
export interface EnrichOptions {
  limit?: number;
  embedded: EmbeddedEnricher | null;
  prose: ProseLane | null;
}

export const PROSE_FIELDS = ["which_part", "what_upset", "reporter_right_reason", "root_cause_hypothesis", "proposed_fix"] as const;

const NEVER_ENRICHED_SOURCES = new Set(["backfill", "detected"]);

export function isEnrichEligible(e: Erratum, ctx: Pick<StageContext, "cfg">): boolean {
  return (
    e.enrichment === null &&
    e.status === "new" &&
    ctx.cfg.config.enrich.kinds.includes(e.kind) &&
    !NEVER_ENRICHED_SOURCES.has(e.source) &&
    isAuthorizedTenant(e, ctx.cfg.config)
  );
}

/** Newest first; ties by id so the order is total. */
export function newestFirst(a: Erratum, b: Erratum): number {
  return a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Builds the enrichment from the lanes' parts; null when no lane could name a model. */
export function composeEnrichment(
  fill: EmbeddedFill | null,
  embeddedModel: string | null,
  prose: ProseReply | null,
  proseModel: string | null,
  version: string,
): { enrichment: Enrichment; sources: Record<string, string> } | null {
  if (fill === null && prose === null) return null;
  const sources: Record<string, string> = {};
  const pick = <T>(field: string, fromEmbedded: T | null | undefined, fromProse: T | null | undefined, fallback: T): T => {
    if (fromEmbedded !== null && fromEmbedded !== undefined) {
      sources[field] = fill?.sources[field] ?? `embedded:${embeddedModel ?? "?"}`;
      return fromEmbedded;
    }
    if (fromProse !== null && fromProse !== undefined) {
      sources[field] = `openai:${proseModel ?? "?"}`;
      return fromProse;
    }
    sources[field] = "none";
    return fallback;
  };
  const how_upset = pick("how_upset", fill?.how_upset, prose?.how_upset, 0);
  const cls = pick<string | null>("class", fill?.class, prose?.class, null);
  const confidence = pick("confidence", fill && fill.class !== null ? fill.confidence : null, prose?.confidence, fill?.confidence ?? 0);
  const text = (field: (typeof PROSE_FIELDS)[number]): string => pick(field, null, prose?.[field], "");
  const reporter_right = prose ? prose.reporter_right : null;
  sources["reporter_right"] = prose ? `openai:${proseModel ?? "?"}` : "none";
  const models = [...new Set(Object.values(sources).filter((s) => s !== "none").map((s) => (s.startsWith("openai:") ? proseModel : embeddedModel)))].filter(
    (m): m is string => m !== null,
  );
  const enrichment: Enrichment = {
    schema: "enrichment/1",
    how_upset,
    which_part: text("which_part"),
    what_upset: text("what_upset"),
    reporter_right,
    reporter_right_reason: text("reporter_right_reason"),
    root_cause_hypothesis: text("root_cause_hypothesis"),
    class: cls,
    proposed_fix: text("proposed_fix"),
    confidence,
    model: models.join("+") || (embeddedModel ?? proseModel ?? "unknown"),
    enrichment_version: version,
  };
  return { enrichment, sources };
}

type ProseOutcome = { kind: "none" } | { kind: "deferred" } | { kind: "ok"; reply: ProseReply } | { kind: "malformed"; reason: string } | { kind: "failed"; reason: string };

/** Runs `fn` over `items` with at most `n` in flight; results in input order. */
async function inPool<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  return out;
}

export async function runEnrich(ctx: StageContext, opts: EnrichOptions): Promise<StageOutput & { sources: Map<string, Record<string, string>> }> {
  const started = ctx.nowMs();
  const cfg = ctx.cfg.config.enrich;
  const deadline = started + cfg.max_minutes * 60_000;
  const max = Math.min(opts.limit ?? cfg.max_entries, cfg.max_entries);
  const { errata } = await ctx.ledger.readAll();
  let excludedTenant = 0;
  const eligible: Erratum[] = [];
  for (const e of errata) {
    if (e.enrichment !== null || e.status !== "new") continue;
    if (!isAuthorizedTenant(e, ctx.cfg.config)) {
      excludedTenant++;
      continue;
    }
    if (isEnrichEligible(e, ctx)) eligible.push(e);
  }
  eligible.sort(newestFirst);
  const batch = eligible.slice(0, max);
  const counts = { eligible: eligible.length, batch: batch.length, enriched: 0, malformed: 0, deferred: 0, excluded_tenant: excludedTenant, prose_filled: 0, failed: 0, refused: 0 };
  const sourcesById = new Map<string, Record<string, string>>();
  if (!opts.embedded && !opts.prose) {
    return { ...stageOutput({ ...counts, deferred: batch.length }, ["no enrichment lane available: nothing enriched"]), sources: sourcesById };
  }
  const CHUNK = 25;
  for (let start = 0; start < batch.length; start += CHUNK) {
    if (ctx.nowMs() >= deadline) {
      counts.deferred += batch.length - start;
      break;
    }
    const chunk = batch.slice(start, start + CHUNK);
    const fills = opts.embedded ? await opts.embedded.fill(chunk) : new Map<string, EmbeddedFill>();
    // Model calls run a few at a time; none starts after the deadline. Results apply in order.
    const replies = await inPool(chunk, cfg.concurrency, async (e): Promise<ProseOutcome> => {
      if (ctx.nowMs() >= deadline) return { kind: "deferred" };
      if (!opts.prose) return { kind: "none" };
      try {
        const reply = await opts.prose.enrich(e);
        return reply.ok ? { kind: "ok", reply: reply.reply } : { kind: "malformed", reason: reply.reason };
      } catch (err) {
        return { kind: "failed", reason: (err as Error).message.slice(0, 120) };
      }
    });
    for (const [i, e] of chunk.entries()) {
      const r = replies[i]!;
      if (r.kind === "deferred") {
        counts.deferred++;
        continue;
      }
      if (r.kind === "failed") {
        // A transport failure (after the SDK's retries) is not a malformed reply: counted apart.
        counts.failed++;
        ctx.log(`enrich: ${e.id}: model call failed (${r.reason})`);
        continue;
      }
      if (r.kind === "malformed") {
        counts.malformed++;
        ctx.log(`enrich: ${e.id}: malformed reply left unenriched (${r.reason})`);
        continue;
      }
      const prose: ProseReply | null = r.kind === "ok" ? r.reply : null;
      const composed = composeEnrichment(fills.get(e.id) ?? null, opts.embedded?.model ?? null, prose, opts.prose?.model ?? null, cfg.enrichment_version);
      if (composed === null) continue;
      const valid = EnrichmentSchema.safeParse(composed.enrichment);
      if (!valid.success) {
        counts.malformed++;
        continue;
      }
      sourcesById.set(e.id, composed.sources);
      if (prose) counts.prose_filled++;
      if (!ctx.dryRun) {
        if (!(await patchOne(ctx, "enrich", e.id, { enrichment: valid.data, status: "enriched" }))) {
          counts.refused++;
          continue;
        }
        appendJsonl(ctx.files.enrichmentSources, [
          { schema: "enrichment-sources/1", erratum_id: e.id, ts: new Date(ctx.nowMs()).toISOString(), enrichment_version: cfg.enrichment_version, sources: composed.sources } satisfies EnrichmentSources,
        ]);
      }
      counts.enriched++;
    }
  }
  const notes = opts.prose ? [] : ["offline: prose fields left empty (no OpenAI lane configured)"];
  return { ...stageOutput(counts, notes), sources: sourcesById };
}
