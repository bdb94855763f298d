import { z } from "zod";

/**
 * The rule index (`<v4 dir>/rules.json`): every rule unit of the instruction files the
 * assistant loads, with stable ids, and the history of ids carried across edits and of units
 * that vanished. Versioned: `schema` names the layout; a reader refuses another.
 */
export const RULE_INDEX_SCHEMA = "errata-rules/1";

export const RuleSourceKindSchema = z.enum([
  "managed",
  "user",
  "user-rules",
  "project",
  "project-rules",
  "local",
  "subfolder",
  "agents",
  "hookify",
  "import",
  "config",
]);
export type RuleSourceKind = z.infer<typeof RuleSourceKindSchema>;

/**
 * How Claude Code reads a source: every turn (`always`), when files under its folder are read
 * (`on-demand`), when files matching its `paths:` globs are touched (`path-scoped`), as a check
 * run before a tool call and not as text (`check`: hookify rules), or not at all (`not-loaded`:
 * e.g. an AGENTS.md nothing imports, or a file over the size limit).
 */
export const RuleLoadSchema = z.enum(["always", "on-demand", "path-scoped", "check", "not-loaded"]);
export type RuleLoad = z.infer<typeof RuleLoadSchema>;

export const RuleSourceSchema = z.object({
  /** Id part: a slug of the file's path (see runtime/rules/sources.ts). */
  source: z.string().min(1),
  /** Path for people: relative to the project root, or `~/...` under home, else as given. */
  path: z.string().min(1),
  kind: RuleSourceKindSchema,
  load: RuleLoadSchema,
  /** `paths:` globs, or the subfolder a nested CLAUDE.md governs; null = everywhere. */
  scope: z.array(z.string()).nullable(),
  /** The source that imported this one (by `@path`), or null. */
  imported_by: z.string().nullable(),
  /** The working folder of the project the source belongs to; null for the user's and managed files, which apply everywhere. */
  project: z.string().nullable(),
  lines: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  units: z.number().int().nonnegative(),
  /** Why the file is not indexed or only partly (missing, unreadable, over the size limit, circular import, ...). */
  problems: z.array(z.string()),
});
export type RuleSource = z.infer<typeof RuleSourceSchema>;

export const RuleUnitSchema = z.object({
  id: z.string().min(1),
  source: z.string().min(1),
  kind: z.enum(["bullet", "numbered", "table-row", "paragraph", "quote", "code", "hookify"]),
  heading_path: z.array(z.string()),
  text: z.string().min(1),
  /** A table row's header row, else null. */
  context: z.string().nullable(),
  /** Content hash of the current text (6 hex); differs from the id's when the id was carried. */
  hash: z.string().regex(/^[0-9a-f]{6}$/),
  line_start: z.number().int().nonnegative(),
  line_end: z.number().int().nonnegative(),
  /** 0-based order of the unit in its file. */
  position: z.number().int().nonnegative(),
  file_lines: z.number().int().nonnegative(),
  /** ISO dates (YYYY-MM-DD). */
  first_seen: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  last_changed: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Where the dates came from. */
  dates_from: z.enum(["git", "index"]),
  /**
   * Whether `first_seen` is when the rule was written (git's date, or a build that found it
   * in a file an earlier build had read without it), not only when the index first looked
   * (a first build without git). Only a known date can say a failure came before the rule.
   */
  first_seen_known: z.boolean(),
  scope: z.array(z.string()).nullable(),
});
export type RuleUnit = z.infer<typeof RuleUnitSchema>;

export const RuleCarrySchema = z.object({
  id: z.string(),
  from_hash: z.string(),
  to_hash: z.string(),
  overlap: z.number().min(0).max(1),
  at: z.string(),
});
export type RuleCarry = z.infer<typeof RuleCarrySchema>;

export const VanishedRuleSchema = z.object({
  id: z.string(),
  source: z.string(),
  text: z.string(),
  at: z.string(),
});
export type VanishedRule = z.infer<typeof VanishedRuleSchema>;

export const RuleIndexSchema = z.object({
  schema: z.literal(RULE_INDEX_SCHEMA),
  /** Date of the last build that changed anything. */
  updated: z.string(),
  /** The working folders of the projects indexed. */
  projects: z.array(z.string()),
  sources: z.array(RuleSourceSchema),
  units: z.array(RuleUnitSchema),
  carries: z.array(RuleCarrySchema),
  vanished: z.array(VanishedRuleSchema),
});
export type RuleIndex = z.infer<typeof RuleIndexSchema>;

/** One candidate rule of a failure and the judge's answer to `rules.rule_covers` about it. */
export const CoverageCandidateSchema = z.object({
  rule_id: z.string(),
  rank: z.number().int().positive(),
  score: z.number().nonnegative(),
  status: z.enum(["scored", "unscored"]),
  p_yes: z.number().min(0).max(1).nullable(),
  reason: z.string().nullable(),
});
export type CoverageCandidate = z.infer<typeof CoverageCandidateSchema>;

/**
 * Coverage of one diagnosed failure (`<v4 dir>/coverage.jsonl`): its candidate rules, the
 * rule that covers it (the scored candidate with the highest P(yes) at or over the cut) and
 * the fix type that follows: `enforce_rule` when a rule covers it, `add_rule` when every
 * candidate was judged and none does, null when some answer is missing (never a guess).
 * `before_rule`: dated on or before its covering rule's first-seen date, so it broke no rule.
 */
export const CoverageRecordSchema = z.object({
  schema: z.literal("rule-coverage/1"),
  exchange_id: z.string(),
  session_id: z.string(),
  /** The failure's date (YYYY-MM-DD), from the prompt's time. */
  date: z.string().nullable(),
  failure_class: z.string().nullable(),
  severity: z.number().int().min(0).max(3).nullable(),
  component: z.string(),
  synthetic: z.boolean(),
  candidates: z.array(CoverageCandidateSchema).max(4),
  covering: z.string().nullable(),
  fix: z.enum(["enforce_rule", "add_rule"]).nullable(),
  before_rule: z.boolean(),
  cut: z.number().min(0).max(1),
  cut_origin: z.string(),
  judge: z.object({ lane: z.string(), model: z.string() }),
});
export type CoverageRecord = z.infer<typeof CoverageRecordSchema>;

/** A cluster of failures with one root cause (`<v4 dir>/clusters.json`). */
export const RuleClusterSchema = z.object({
  id: z.string(),
  bucket: z.string(),
  kind: z.enum(["rule", "gap"]),
  rule_id: z.string().nullable(),
  failure_class: z.string().nullable(),
  component: z.string().nullable(),
  exchange_ids: z.array(z.string()).min(1),
  sessions: z.number().int().positive(),
  mean_severity: z.number().nullable(),
});
export type RuleCluster = z.infer<typeof RuleClusterSchema>;

const NoulModelSchema = z.object({
  features: z.array(z.string()).min(1),
  coef: z.array(z.number().finite()),
  intercept: z.number().finite(),
}).refine((m) => m.coef.length === m.features.length, { message: "one coefficient per feature" });

/** The offline rules model (`datasets/weights/rules-nouls.json`) with its training record. */
export const RuleNoulWeightsSchema = z.object({
  schema: z.literal("errata-rule-nouls/1"),
  rule_covers: NoulModelSchema,
  same_root_cause: NoulModelSchema,
  record: z.object({
    data: z.literal("synthetic rule scenarios (runtime/corpora/synthetic/rules.ts)"),
    seeds: z.array(z.number().int()),
    projects: z.number().int().positive(),
    failures_per_project: z.number().int().positive(),
    pairs: z.object({ rule_covers: z.number().int(), same_root_cause: z.number().int() }),
    positives: z.object({ rule_covers: z.number().int(), same_root_cause: z.number().int() }),
    l2: z.number().nonnegative(),
  }),
});
export type RuleNoulWeights = z.infer<typeof RuleNoulWeightsSchema>;
