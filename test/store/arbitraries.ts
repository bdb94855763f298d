/** fast-check arbitraries for ledger records (valid by construction). */
import fc from "fast-check";
import type { Enrichment, Erratum, Links, Patch, RecordRow } from "../../schemas/erratum.js";
import { KINDS, MACHINE_SOURCES, SOURCES, STATUSES } from "../../schemas/erratum-constants.js";

const MIN = Date.parse("2024-01-01T00:00:00Z");
const MAX = Date.parse("2027-12-31T23:59:59Z");

export const isoTs = fc.integer({ min: MIN, max: MAX }).map((ms) => new Date(ms).toISOString());
export const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n });
export const erratumId = fc.tuple(isoTs, hex(6)).map(([ts, h]) => `er-${ts.slice(0, 10).replaceAll("-", "")}-${h}`);
const text = fc.string({ minLength: 1, maxLength: 80, unit: "binary" }).filter((s) => s.trim().length > 0);
const nullableText = fc.option(fc.string({ maxLength: 60, unit: "binary" }), { nil: null });
const system = fc.constantFrom("assistant", "other", "billing-bot");

export const enrichmentArb: fc.Arbitrary<Enrichment> = fc.record({
  schema: fc.constant("enrichment/1" as const),
  how_upset: fc.integer({ min: 0, max: 3 }),
  which_part: fc.string({ maxLength: 40 }),
  what_upset: fc.string({ maxLength: 40 }),
  reporter_right: fc.option(fc.boolean(), { nil: null }),
  reporter_right_reason: fc.string({ maxLength: 40 }),
  root_cause_hypothesis: fc.string({ maxLength: 40 }),
  class: fc.option(fc.constantFrom("ignored-instruction", "false-success", "stopped-short"), { nil: null }),
  proposed_fix: fc.string({ maxLength: 40 }),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  model: fc.constantFrom("gpt-5-mini", "local-llama"),
  enrichment_version: fc.constantFrom("enrich/1", "enrich/2"),
});

export const linksArb: fc.Arbitrary<Links> = fc.record(
  {
    upgrade_id: fc.constantFrom("up-1", "up-2"),
    issue: fc.constantFrom("https://github.com/o/r/issues/1"),
    commit: hex(40),
    failure_dir: fc.constantFrom("FAILURES/2026-11-30-a"),
    attachments: fc.array(fc.constantFrom("x/context.json", "x/reply.txt"), { maxLength: 2 }),
    duplicate_of: erratumId,
  },
  { requiredKeys: [] },
);

export const erratumArb: fc.Arbitrary<Erratum> = fc
  .record({
    ts: isoTs,
    h: hex(6),
    system,
    source: fc.constantFrom(...SOURCES),
    kind: fc.constantFrom(...KINDS),
    rating: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
    frustration: fc.option(fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, { nil: null }),
    complaint: text,
    requested: nullableText,
    doing: nullableText,
    response_preview: nullableText,
    session_id: fc.option(hex(8), { nil: null }),
    output_ids: fc.array(hex(6), { maxLength: 3 }),
    enrichment: fc.option(enrichmentArb, { nil: null }),
    status: fc.constantFrom(...STATUSES),
    links: linksArb,
    target: fc.constantFrom("instance" as const, "product" as const),
  })
  .map((r) => ({
    schema: "erratum/1" as const,
    id: `er-${r.ts.slice(0, 10).replaceAll("-", "")}-${r.h}`,
    ts: r.ts,
    system: r.system,
    instance: "i-0123456789ab",
    target: r.target,
    source: r.source,
    channel: "terminal",
    kind: r.kind,
    rating: (MACHINE_SOURCES as readonly string[]).includes(r.source) ? null : r.rating,
    frustration: r.frustration,
    complaint: r.complaint,
    context: {
      requested: r.requested,
      doing: r.doing,
      response_preview: r.response_preview,
      response_hash: null,
      session_id: r.session_id,
      output_ids: r.output_ids,
      component: null,
      cwd: null,
      version: null,
      model: null,
    },
    reporter: { id: "rp-0123456789abcdef", role: "owner" },
    enrichment: r.enrichment,
    status: r.status,
    links: r.links,
  }));

export const patchArb: fc.Arbitrary<Patch> = fc.record({
  schema: fc.constant("erratum-patch/1" as const),
  id: erratumId,
  ts: isoTs,
  set: fc.record(
    {
      status: fc.constantFrom(...STATUSES),
      enrichment: fc.option(enrichmentArb, { nil: null }),
      links: linksArb,
      kind: fc.constantFrom(...KINDS),
      system,
      target: fc.constantFrom("instance" as const, "product" as const),
      frustration: fc.option(fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, { nil: null }),
    },
    { requiredKeys: [] },
  ),
});

export const recordRowArb: fc.Arbitrary<RecordRow> = fc.record({
  schema: fc.constant("record/1" as const),
  ts: isoTs,
  event: fc.constantFrom("append" as const, "patch" as const),
  id: erratumId,
  kind: fc.constantFrom(...KINDS),
  system,
  status: fc.constantFrom(...STATUSES),
  session_id: fc.option(hex(8), { nil: null }),
  output_ids: fc.array(hex(6), { maxLength: 3 }),
});
