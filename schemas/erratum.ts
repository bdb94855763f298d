import { z } from "zod";
import {
  ERRATUM_ID_PATTERN,
  KINDS,
  MACHINE_SOURCES,
  RATING_MAX,
  RATING_MIN,
  REPORTER_ID_PATTERN,
  SOURCES,
  STATUSES,
  SYSTEM_NAME_PATTERN,
} from "./erratum-constants.js";

export * from "./erratum-constants.js";

/**
 * The erratum: one moment a person was unhappy with an assistant (or the assistant caught
 * itself failing them), as one JSON line in `errata-YYYY-MM.jsonl`. Preserved verbatim
 * first (secrets redacted), enriched later by a model; never rewritten in place: changes
 * are patch lines folded on by id at read time.
 *
 * Example line:
 * `{"schema":"erratum/1","id":"er-20261130-3fa9c1","ts":"2026-11-30T12:00:00.000Z",
 *   "system":"assistant","instance":"i-5d41402abc4b","target":"instance","source":"owner",
 *   "channel":"terminal","kind":"bug","rating":null,"frustration":null,
 *   "complaint":"it pushed to main without asking", "context":{...},"reporter":
 *   {"id":"rp-9f86d081884c7d65","role":"owner"},"enrichment":null,"status":"new","links":{}}`
 */

const isoTs = z.iso.datetime({ offset: false });

export const SourceSchema = z.enum(SOURCES);
export const KindSchema = z.enum(KINDS);
export const StatusSchema = z.enum(STATUSES);
export const TargetSchema = z.enum(["instance", "product"]);
export const MachineSourceSchema = z.enum(MACHINE_SOURCES);

/** A system name: `assistant`, `other`, or a name from `errata-systems.json` (checked by the validator). */
export const SystemNameSchema = z.string().regex(SYSTEM_NAME_PATTERN);

/** A number the person actually typed, on the 1-10 scale; never inferred. */
export const RatingSchema = z.number().min(RATING_MIN).max(RATING_MAX);

/** What the assistant was doing and what it said when the person reacted. */
export const ContextSchema = z.strictObject({
  /** The ask in flight (the person's previous prompt), secrets redacted. */
  requested: z.string().nullable(),
  /** The last tool calls, one per line as "Name: short summary of input". */
  doing: z.string().nullable(),
  /** The end of the reply the person reacted to (at most ~2,000 characters). */
  response_preview: z.string().nullable(),
  /** "sha256:" + hex of the whole reply, so a reply can be matched without storing it. */
  response_hash: z.string().nullable(),
  session_id: z.string().nullable(),
  /** Outputs delivered since the previous typed prompt (ids from the host's outputs.jsonl). */
  output_ids: z.array(z.string().min(1)),
  /** The hook, skill, tool, subsystem or file the complaint is about, when known. */
  component: z.string().nullable(),
  cwd: z.string().nullable(),
  /** Version of the host (e.g. Claude Code "2.0.31"). */
  version: z.string().nullable(),
  /** The assistant model that produced the reply. */
  model: z.string().nullable(),
});
export type ErratumContext = z.infer<typeof ContextSchema>;

/** Who reported: a stable keyed-hash pseudonym (never an e-mail) and a role. */
export const ReporterSchema = z.strictObject({
  id: z.string().regex(REPORTER_ID_PATTERN).describe("rp- + 16 hex of a keyed hash; never an e-mail"),
  /** owner, team, customer, user, or the machine role (hook, agent, job, ...). */
  role: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
});
export type Reporter = z.infer<typeof ReporterSchema>;

/**
 * What a model filled in later. `model` is required: an enrichment nobody can attribute to
 * a model is refused (the lesson of fabricated ratings poisoning an analysis).
 */
export const EnrichmentSchema = z.strictObject({
  schema: z.literal("enrichment/1"),
  /** 0 calm .. 3 furious, as the model reads it. */
  how_upset: z.number().int().min(0).max(3),
  /** Which part of the reply or behaviour the person objected to. */
  which_part: z.string(),
  /** What upset them, in one sentence. */
  what_upset: z.string(),
  /** Whether the reporter was right about the assistant failing; null when it cannot be told. */
  reporter_right: z.boolean().nullable(),
  reporter_right_reason: z.string(),
  root_cause_hypothesis: z.string(),
  /** A v3 failure class name (questions/taxonomy.ts), or null when none fits. */
  class: z.string().nullable(),
  proposed_fix: z.string(),
  /** The model's confidence in [0, 1]. */
  confidence: z.number().min(0).max(1),
  /** The model that wrote this enrichment, e.g. "gpt-5-mini". Required. */
  model: z.string().min(1).describe("the model that wrote this enrichment; required"),
  /** Version of the enrichment prompt/procedure, e.g. "enrich/3". */
  enrichment_version: z.string().min(1),
});
export type Enrichment = z.infer<typeof EnrichmentSchema>;

/** Links from an erratum to the rest of the world. Every key is optional. */
export const LinksSchema = z.strictObject({
  upgrade_id: z.string().min(1).optional(),
  incident_id: z.string().min(1).optional(),
  issue: z.string().min(1).optional(),
  commit: z.string().min(1).optional(),
  /** A deep-context folder (e.g. a FAILURES directory). */
  failure_dir: z.string().min(1).optional(),
  /** Attachment files, relative to the attachments folder: "<id>/<file>". */
  attachments: z.array(z.string().min(1)).optional(),
  /** The erratum this one duplicates (status duplicate). */
  duplicate_of: z.string().regex(ERRATUM_ID_PATTERN).optional(),
});
export type Links = z.infer<typeof LinksSchema>;

export const ErratumSchema = z.strictObject({
  schema: z.literal("erratum/1"),
  /** "er-YYYYMMDD-" + 6 hex; the date is the UTC day of `ts`. */
  id: z.string().regex(ERRATUM_ID_PATTERN).describe("er-YYYYMMDD- + 6 hex; the date is the UTC day of ts"),
  /** When it was captured, UTC ISO-8601. The month of `ts` names its file. */
  ts: isoTs.describe("capture time, UTC; its month names the file errata-YYYY-MM.jsonl"),
  system: SystemNameSchema.describe("assistant, other, or a name listed in errata-systems.json"),
  /** Which install or tenant it came from (a hostname hash, a tenant id). */
  instance: z.string().min(1).describe("which install or tenant it came from"),
  /** `instance`: about this install; `product`: feedback for the product itself. */
  target: TargetSchema.describe("instance: about this install; product: feedback about the product itself"),
  source: SourceSchema.describe("who reported; hook, agent, job, backfill and detected are machine sources"),
  /** The door it came through: terminal, hook, feedback-command, backfill, mine, api, ... */
  channel: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/).describe("the door it came through: terminal, hook, web-form, backfill, ..."),
  kind: KindSchema,
  /** A number the person gave (1-10), else null. Machine sources never carry one. */
  rating: RatingSchema.nullable().describe("a number a person gave on the scale 1-10, else null; never on a machine source"),
  /** 0-3 from countable signals at capture; null when not computed. */
  frustration: z.number().int().min(0).max(3).nullable().describe("0-3 from countable signals at capture; null when not computed"),
  /** The person's verbatim words, secrets redacted. */
  complaint: z.string().min(1).describe("the verbatim words, secrets replaced by [REDACTED:<kind>] markers"),
  context: ContextSchema,
  reporter: ReporterSchema,
  enrichment: EnrichmentSchema.nullable().describe("null until a model fills it"),
  status: StatusSchema.describe("new -> enriched -> triaged | upgrade-filed -> fixed | wontfix | duplicate"),
  links: LinksSchema,
  /**
   * True when the words came from a generated session (a transcript line marked
   * `"errataSynthetic": true` by the synthetic generator), absent for people. Set from that
   * structured mark only, never guessed from the text; every report counts these apart.
   */
  synthetic: z.literal(true).optional().describe("true when mined from a generated (synthetic) transcript; absent otherwise"),
});
export type Erratum = z.infer<typeof ErratumSchema>;

/** Fields a patch may set. The verbatim words, id, time and origin are never rewritten. */
export const PatchSetSchema = z.strictObject({
  status: StatusSchema.optional(),
  enrichment: EnrichmentSchema.nullable().optional(),
  /** Merged key by key into the erratum's links. */
  links: LinksSchema.optional(),
  kind: KindSchema.optional(),
  system: SystemNameSchema.optional(),
  target: TargetSchema.optional(),
  frustration: z.number().int().min(0).max(3).nullable().optional(),
});
export type PatchSet = z.infer<typeof PatchSetSchema>;

/**
 * A patch line: `{"schema":"erratum-patch/1","id":"er-20261130-3fa9c1",
 * "ts":"2026-12-01T08:00:00.000Z","set":{"status":"enriched","enrichment":{...}}}`.
 * Written to the month of its own `ts`; folded onto the erratum by id at read time.
 */
export const PatchSchema = z.strictObject({
  schema: z.literal("erratum-patch/1"),
  id: z.string().regex(ERRATUM_ID_PATTERN),
  ts: isoTs,
  set: PatchSetSchema,
});
export type Patch = z.infer<typeof PatchSchema>;

/** Either kind of ledger line. */
export const LedgerLineSchema = z.discriminatedUnion("schema", [ErratumSchema, PatchSchema]);
export type LedgerLine = z.infer<typeof LedgerLineSchema>;

/**
 * One row of the record stream (`record.jsonl`): ids and enums only, never the complaint,
 * the context text or enrichment prose.
 *
 * Example: `{"schema":"record/1","ts":"2026-11-30T12:00:00.000Z","event":"append",
 * "id":"er-20261130-3fa9c1","kind":"bug","system":"assistant","status":"new",
 * "session_id":"0b7c…","output_ids":[]}`
 */
export const RecordRowSchema = z.strictObject({
  schema: z.literal("record/1"),
  ts: isoTs,
  event: z.enum(["append", "patch"]),
  id: z.string().regex(ERRATUM_ID_PATTERN),
  kind: KindSchema,
  system: SystemNameSchema,
  /** The status after the change. */
  status: StatusSchema.describe("the status after the change"),
  session_id: z.string().nullable(),
  output_ids: z.array(z.string()),
});
export type RecordRow = z.infer<typeof RecordRowSchema>;

/** The systems config file `errata-systems.json` in the ledger folder. */
export const SystemsConfigSchema = z.strictObject({
  schema: z.literal("errata-systems/1").optional(),
  systems: z.array(SystemNameSchema),
});
export type SystemsConfig = z.infer<typeof SystemsConfigSchema>;
