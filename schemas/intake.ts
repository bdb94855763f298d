import { z } from "zod";
import { ContextSchema, EnrichmentSchema, KindSchema, LinksSchema, RatingSchema, SourceSchema, SystemNameSchema, TargetSchema } from "./erratum.js";

/**
 * The intake contract (docs/intake.md), version 1: what an app posts to `POST /v1/errata`.
 * The server fills the rest of the erratum: a fresh id, `instance` = the token's tenant,
 * status `new` (or `enriched` when a model's enrichment comes along), and the reporter as a
 * keyed-hash pseudonym of the id given here (an e-mail or the app's user id; never stored).
 *
 * Example body: `{"complaint":"the invoice total is wrong","source":"customer",
 * "reporter":{"id":"ana@example.com"},"rating":2}`, or `{"errata":[{…},{…}]}` (1-100).
 */
export const INTAKE_VERSION = "intake/1" as const;
export const MAX_BATCH = 100;

export const IntakeReporterSchema = z.strictObject({
  /** The app's own id of the person: an e-mail, a user id. Pseudonymised before anything is written. */
  id: z.string().min(1).max(320),
  role: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/).optional(),
});

export const IntakeErratumSchema = z.strictObject({
  complaint: z.string().min(1).max(100_000),
  ts: z.iso.datetime({ offset: false }).optional(),
  system: SystemNameSchema.optional(),
  target: TargetSchema.optional(),
  source: SourceSchema.optional(),
  channel: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/).optional(),
  kind: KindSchema.optional(),
  rating: RatingSchema.nullable().optional(),
  frustration: z.number().int().min(0).max(3).nullable().optional(),
  context: ContextSchema.partial().optional(),
  reporter: IntakeReporterSchema,
  enrichment: EnrichmentSchema.nullable().optional(),
  links: LinksSchema.optional(),
});
export type IntakeErratum = z.infer<typeof IntakeErratumSchema>;

export const IntakeBatchSchema = z.strictObject({
  errata: z.array(IntakeErratumSchema).min(1).max(MAX_BATCH),
});
