import { z } from "zod";

/**
 * Records the daily loop writes outside the ledger: run receipts, events, the state file,
 * audit labels, fix proposals and upgrade records. None of them carries entry text: only
 * counts, ids, closed-union names and hashes (the privacy tests read every line back).
 *
 * Example run receipt:
 * `{schema: "run/1", run_id: "run-20261130-1200-3f2a9c", loop: "daily", stage: "enrich",
 *   started_at: "2026-11-30T12:00:00.000Z", ended_at: "…", duration_ms: 412, ok: true,
 *   error_code: null, error: null, counts: {eligible: 3, enriched: 3, malformed: 0}, dry_run: false}`
 */

/** A loop is one scheduled job; a stage is one step of it. */
export const LoopSchema = z.enum(["daily", "weekly", "manual"]);
export type Loop = z.infer<typeof LoopSchema>;

export const StageNameSchema = z.enum(["mine", "enrich", "label", "triage", "report", "v4", "rules", "ladder", "team", "misses", "run"]);
export type StageName = z.infer<typeof StageNameSchema>;

/** Counts only: finite, non-negative integers keyed by a stable name. */
export const CountsSchema = z.record(z.string(), z.number().int().nonnegative());
export type Counts = z.infer<typeof CountsSchema>;

/**
 * One line of `<stateDir>/runs.jsonl`: every run of every loop and every stage writes one,
 * empty runs included, so a night that found nothing and a night that never ran differ.
 * `stage: "run"` is the loop's own receipt (written last, after its stages).
 */
export const RunReceiptSchema = z.object({
  schema: z.literal("run/1"),
  run_id: z.string().regex(/^run-[0-9]{8}-[0-9]{4}-[0-9a-f]{6}$/),
  loop: LoopSchema,
  stage: StageNameSchema,
  started_at: z.string(),
  ended_at: z.string(),
  duration_ms: z.number().nonnegative(),
  ok: z.boolean(),
  /** For a stage: "skipped" when the loop was told to skip it. */
  skipped: z.boolean().default(false),
  /** A stable code (ErrataError code or the error's class name); never entry text. */
  error_code: z.string().nullable(),
  /** The error message, cut to 200 characters. Library errors only: they name paths and counts. */
  error: z.string().max(200).nullable(),
  counts: CountsSchema,
  dry_run: z.boolean(),
});
export type RunReceipt = z.infer<typeof RunReceiptSchema>;

export const SeveritySchema = z.enum(["low", "medium", "high"]);
export type Severity = z.infer<typeof SeveritySchema>;

export const EventKindSchema = z.enum([
  /** The report's one roll-up a day: medium while anything is stuck, low otherwise. */
  "errata.rollup",
  /** A landed fix raised its skill's complaint rate (high, once per fix). */
  "errata.fix-regressed",
  /** A day in the window has no receipt of the daily loop (medium). */
  "errata.run-missing",
]);
export type EventKind = z.infer<typeof EventKindSchema>;

/** One line of the events file (`<stateDir>/events.jsonl`, or ERRATA_EVENTS_FILE). */
export const EventSchema = z.object({
  schema: z.literal("event/1"),
  ts: z.string(),
  source: z.literal("errata"),
  kind: EventKindSchema,
  severity: SeveritySchema,
  counts: CountsSchema,
  /** Erratum, upgrade or run ids, and day strings (YYYY-MM-DD); never text. */
  ids: z.array(z.string().regex(/^[A-Za-z0-9._:-]{1,80}$/)).max(200),
});
export type Event = z.infer<typeof EventSchema>;

/** Counts keyed "system/kind". */
export const ReportCountsSchema = z.object({
  window_days: z.number().int().positive(),
  since: z.string(),
  until: z.string(),
  total: z.number().int().nonnegative(),
  by_system_kind: CountsSchema,
  by_status: CountsSchema,
  detected_excluded: z.number().int().nonnegative(),
});
export type ReportCounts = z.infer<typeof ReportCountsSchema>;

/** The report's part of `<stateDir>/state.json` (other keys in that file are kept as they are). */
export const ReportStateSchema = z.object({
  schema: z.literal("errata-state/1"),
  generated_at: z.string(),
  counts: ReportCountsSchema,
  stuck: z.object({ count: z.number().int().nonnegative(), ids: z.array(z.string()).max(200) }),
  missing_run_days: z.array(z.string()),
  last_daily_run: z.string().nullable(),
  /** Upgrade ids whose regression event has been emitted (so it fires on the first day only). */
  regressions_alerted: z.array(z.string()),
  ledger_warnings: z.number().int().nonnegative(),
});
export type ReportState = z.infer<typeof ReportStateSchema>;

/**
 * One line of `audit/labels-v3.jsonl`: the v3 single-choice class for one erratum, stored
 * apart from the ledger. Keyed by (erratum_id, label_version); a re-run appends nothing.
 */
export const AuditLabelSchema = z.object({
  schema: z.literal("audit-label/1"),
  erratum_id: z.string(),
  ts: z.string(),
  label_version: z.number().int().positive(),
  /** A v3 class name (a judge that could not answer writes no label). */
  class: z.string().min(1),
  confidence: z.number().min(0).max(1).nullable(),
  /** Who labelled: "engine:<lane>/<model>", "class-head:<bank hash prefix>", "enrichment". */
  labeler: z.string(),
});
export type AuditLabel = z.infer<typeof AuditLabelSchema>;

/** One line of `audit/proposals-v3.jsonl`: a fix proposal for one erratum (from its enrichment). */
export const ProposalSchema = z.object({
  schema: z.literal("proposal/1"),
  erratum_id: z.string(),
  ts: z.string(),
  label_version: z.number().int().positive(),
  class: z.string().nullable(),
  proposed_fix: z.string().nullable(),
  root_cause_hypothesis: z.string().nullable(),
  model: z.string(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const UpgradeKindSchema = z.enum(["cluster", "false-pass"]);
export const UpgradeStatusSchema = z.enum(["open", "applied", "verified", "rejected"]);
export type UpgradeStatus = z.infer<typeof UpgradeStatusSchema>;

/**
 * One record of the upgrades queue (`<ledgerDir>/upgrades.jsonl`). The claim is a short
 * machine sentence built from ids and closed-union names (never complaint text);
 * `claim_hash` (sha256 of the claim, 16 hex) deduplicates: a re-run files nothing twice.
 *
 * Example: `{schema: "upgrade/1", id: "up-20261130-8c1d2e", source: "errata", kind: "cluster",
 *   claim: "cluster system=assistant class=ignored-instruction", claim_hash: "…",
 *   erratum_ids: ["er-20261129-0a1b2c", …], status: "open", …}`
 */
export const UpgradeRecordSchema = z.object({
  schema: z.literal("upgrade/1"),
  id: z.string().regex(/^up-[0-9]{8}-[0-9a-f]{6}$/),
  ts: z.string(),
  source: z.literal("errata"),
  kind: UpgradeKindSchema,
  claim: z.string().max(300),
  claim_hash: z.string().regex(/^[0-9a-f]{16}$/),
  system: z.string().nullable(),
  class: z.string().nullable(),
  /** For a false pass: the output and the skill that produced it. */
  skill: z.string().nullable(),
  output_id: z.string().nullable(),
  erratum_ids: z.array(z.string()).min(1),
  max_how_upset: z.number().int().min(0).max(3).nullable(),
  status: UpgradeStatusSchema,
});
export type UpgradeRecord = z.infer<typeof UpgradeRecordSchema>;

/**
 * A later line that changes an upgrade's status (a fix applied or verified), folded onto
 * the record by id at read time. `applied_at` is when the fix landed: `impact --landed`
 * compares the skill's complaint rate before and after it.
 */
export const UpgradeStatusLineSchema = z.object({
  schema: z.literal("upgrade-status/1"),
  id: z.string(),
  ts: z.string(),
  status: UpgradeStatusSchema,
  applied_at: z.string().nullable(),
  /** The skill the fix changed, when the filing did not name one. */
  skill: z.string().nullable().default(null),
});
export type UpgradeStatusLine = z.infer<typeof UpgradeStatusLineSchema>;

/** An upgrade folded with its status lines. */
export interface Upgrade extends UpgradeRecord {
  applied_at: string | null;
}

/**
 * The daily loop's settings: `<ledgerDir>/daily.json` (every key optional), then the
 * environment (ERRATA_HOST_DIR, ERRATA_TRANSCRIPTS_ROOT) over it.
 *
 * Tenants: an erratum is a tenant row when its `instance` starts with "tenant:" or its
 * source is `customer` or `user` (it came from an app, not this install). A tenant row is
 * enriched only when its instance is listed in `authorized_tenants`; the report's
 * stuck count never includes tenant rows.
 *
 * Example `daily.json`: `{"schema": "daily-config/1", "enrich": {"max_entries": 50},
 *   "authorized_tenants": ["tenant:acme"], "host_dir": "../host"}`
 */
export const DailyConfigSchema = z.strictObject({
  schema: z.literal("daily-config/1").optional(),
  enrich: z
    .strictObject({
      max_entries: z.number().int().positive().default(150),
      max_minutes: z.number().positive().default(10),
      /** Kinds worth enriching (praise and questions are not complaints). */
      kinds: z.array(z.string()).default(["complaint", "bug", "correction", "directive", "incident"]),
      enrichment_version: z.string().default("enrich-daily/1"),
      /** Model calls in flight at once on the OpenAI lane. */
      concurrency: z.number().int().positive().max(64).default(4),
    })
    .default({ max_entries: 150, max_minutes: 10, kinds: ["complaint", "bug", "correction", "directive", "incident"], enrichment_version: "enrich-daily/1", concurrency: 4 }),
  /** The OpenAI-compatible lane for prose fields; absent or without a key: offline only. */
  openai: z
    .strictObject({
      base_url: z.string().optional(),
      model: z.string().default("gpt-5-mini"),
      /** Name of the environment variable holding the key (never the key itself). */
      api_key_env: z.string().default("OPENAI_API_KEY"),
      timeout_ms: z.number().int().positive().default(60_000),
      service_tier: z.enum(["auto", "default", "flex"]).optional(),
    })
    .optional(),
  /**
   * Without an `openai` section: the lane of the engine config (`errata-engine.json`) whose
   * prose fills enrichments. Default: the engine's default lane when it is an OpenAI lane,
   * else a lane named "openai" (e.g. made from ERRATA_OPENAI_* variables), else none.
   */
  enrich_lane: z.string().nullable().default(null),
  authorized_tenants: z.array(z.string()).default([]),
  /** The host folder holding outputs.jsonl and receipts.jsonl (relative to the ledger folder). */
  host_dir: z.string().nullable().default(null),
  /** The transcripts folder for mine and exchanges (relative to the ledger folder). */
  transcripts_root: z.string().nullable().default(null),
  stuck_hours: z.number().positive().default(48),
  report_days: z.number().int().positive().default(7),
  label_version: z.number().int().positive().default(1),
  /** At most this many entries get audit labels per run (newest first); the rest wait. */
  label_max_entries: z.number().int().positive().default(1000),
  /** Triage: entries below this enrichment confidence are listed but never file or join an upgrade. */
  triage: z.strictObject({ min_confidence: z.number().min(0).max(1).default(0.5) }).optional(),
  /**
   * The rule index's inputs when `errata rules build` is given no `--root`: project roots
   * (relative to the ledger folder, each with the working folder its sessions ran in when the
   * files are a copy) and more instruction files to index.
   */
  rules: z
    .strictObject({
      roots: z.array(z.strictObject({ root: z.string().min(1), project: z.string().min(1).optional() })).default([]),
      sources: z.array(z.string().min(1)).default([]),
    })
    .optional(),
});
export type DailyConfig = z.infer<typeof DailyConfigSchema>;

/**
 * One line of `audit/enrichment-sources.jsonl`: which lane filled each field of one
 * erratum's enrichment ("embedded/<model>", "rule:capture+…", "openai:<model>", or "none"
 * when no lane could). Kept beside the ledger because the enrichment record has no place
 * for it.
 *
 * Example: `{schema: "enrichment-sources/1", erratum_id: "er-…", ts: "…", enrichment_version:
 *   "enrich-daily/1", sources: {how_upset: "rule:capture+embedded/m1", what_upset: "openai:gpt-5-mini", …}}`
 */
export const EnrichmentSourcesSchema = z.object({
  schema: z.literal("enrichment-sources/1"),
  erratum_id: z.string(),
  ts: z.string(),
  enrichment_version: z.string(),
  sources: z.record(z.string(), z.string()),
});
export type EnrichmentSources = z.infer<typeof EnrichmentSourcesSchema>;
