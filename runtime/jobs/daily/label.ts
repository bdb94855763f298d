import { AuditLabelSchema, ProposalSchema, type AuditLabel, type Proposal } from "../../../schemas/daily.js";
import type { Erratum } from "../../../schemas/erratum.js";
import type { StageContext, StageOutput } from "./context.js";
import { stageOutput } from "./context.js";
import type { ClassJudge } from "./enrich-embedded.js";
import { newestFirst } from "./enrich.js";
import { erratumToExchange } from "./erratum-exchange.js";
import { appendJsonl, readJsonl } from "./jsonl.js";

/**
 * The label stage: audit labels (`audit/labels-v3.jsonl`, the v3 single-choice class of
 * each enriched erratum, from the class judge) and fix proposals
 * (`audit/proposals-v3.jsonl`, from the enrichment), stored apart from the ledger and never
 * written into it. Keyed by (erratum id, label version): a re-run appends nothing; a new
 * `label_version` in the config labels everything again.
 *
 * Example counts: `{candidates: 5, labelled: 5, unscored: 1, proposals: 3, already: 12}`.
 */
export async function runLabel(ctx: StageContext, judge: ClassJudge | null): Promise<StageOutput> {
  const version = ctx.cfg.config.label_version;
  const done = new Set(readJsonl(ctx.files.auditLabels, AuditLabelSchema).rows.filter((r) => r.label_version === version).map((r) => r.erratum_id));
  const proposed = new Set(readJsonl(ctx.files.auditProposals, ProposalSchema).rows.filter((r) => r.label_version === version).map((r) => r.erratum_id));
  const { errata } = await ctx.ledger.readAll();
  const withEnrichment = errata.filter((e) => e.enrichment !== null && e.status !== "duplicate");
  const candidates = withEnrichment.filter((e) => !done.has(e.id)).sort(newestFirst);
  // Without a judge nothing is labelled, so the entries wait for a run that has one.
  const batch = judge ? candidates.slice(0, ctx.cfg.config.label_max_entries) : [];
  const ts = new Date(ctx.nowMs()).toISOString();
  const verdicts = judge ? await judge(batch.map(erratumToExchange)) : [];
  const labels: AuditLabel[] = [];
  let unscored = 0;
  batch.forEach((e, i) => {
    const v = verdicts[i];
    // A judge that could not answer writes no label: the entry waits for a run that can.
    if (!v || v.class === null) {
      unscored++;
      return;
    }
    labels.push(
      AuditLabelSchema.parse({
        schema: "audit-label/1",
        erratum_id: e.id,
        ts,
        label_version: version,
        class: v.class,
        confidence: v.confidence,
        labeler: v.labeler,
      }),
    );
  });
  const proposals: Proposal[] = [];
  for (const e of withEnrichment) {
    if (proposed.has(e.id) || !hasProposal(e)) continue;
    const en = e.enrichment!;
    proposals.push(
      ProposalSchema.parse({
        schema: "proposal/1",
        erratum_id: e.id,
        ts,
        label_version: version,
        class: en.class,
        proposed_fix: en.proposed_fix,
        root_cause_hypothesis: en.root_cause_hypothesis === "" ? null : en.root_cause_hypothesis,
        model: en.model,
      }),
    );
  }
  if (!ctx.dryRun) {
    appendJsonl(ctx.files.auditLabels, labels);
    appendJsonl(ctx.files.auditProposals, proposals);
  }
  return stageOutput(
    {
      candidates: candidates.length,
      labelled: labels.length,
      unscored,
      deferred: candidates.length - batch.length,
      proposals: proposals.length,
      already: done.size,
    },
    judge ? (unscored > 0 ? [`${unscored} unscored by the judge: they wait for the next run`] : []) : ["no class judge available: audit labels wait"],
    {
      ...(labels.length > 0 ? { labels: ctx.files.auditLabels } : {}),
      ...(proposals.length > 0 ? { proposals: ctx.files.auditProposals } : {}),
    },
  );
}

function hasProposal(e: Erratum): boolean {
  return e.enrichment !== null && e.enrichment.proposed_fix.trim().length > 0;
}
