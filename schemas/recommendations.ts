import { z } from "zod";

/**
 * The rules wing's recommendations and filings (docs/rules.md, part 2): what the writer must
 * reply, a recommendation with its checks (`<v4 dir>/recommendations-<date>.jsonl` for the
 * survivors, `recommendations-dropped-<date>.jsonl` for the drops), the rule upgrades filed in
 * the upgrades queue, and the filing log (`<v4 dir>/filed.jsonl`).
 */

/**
 * The writer's reply, as the generative lane must give it: one JSON object with exactly these
 * keys. `target: null` says there is nothing to change (the self-healing doctrine's "otherwise
 * no target"); then `change` is null too. A reply that does not parse is a dropped
 * recommendation with the reason, never a guess.
 *
 * Example: `{"target": "CLAUDE.md#Tools", "change": "Do not run npm; ...", "falsifier": "..."}`.
 */
export const WriterReplySchema = z
  .strictObject({
    target: z.string().trim().min(1).max(300).nullable(),
    change: z.string().trim().min(1).max(2000).nullable(),
    falsifier: z.string().trim().min(1).max(600),
  })
  .refine((r) => r.target !== null || r.change === null, { message: "a change needs a target" });
export type WriterReply = z.infer<typeof WriterReplySchema>;

/**
 * One check's verdict. `role`: `drop` checks remove a recommendation that fails them; `flag`
 * checks (the placement rules, a model call inside a hook) only mark it. `scope` says what the
 * question was asked over: "recommendation", an exemplar's exchange id, "together" (the
 * nearest rules at once), a rule id (one rule read whole), or "placement".
 */
export const CheckResultSchema = z.object({
  check: z.string(),
  scope: z.string(),
  role: z.enum(["drop", "flag"]),
  status: z.enum(["pass", "fail", "unscored", "skipped"]),
  p_yes: z.number().min(0).max(1).nullable(),
  reason: z.string().nullable(),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

/** A rate of a cluster over a window: its failures per judged exchange (or per delivered output). */
export const RateWindowSchema = z.object({
  since: z.string(),
  until: z.string(),
  complaints: z.number().int().nonnegative(),
  denominator: z.number().int().nonnegative(),
  per: z.enum(["judged_exchange", "delivered_output"]),
  rate: z.number().nonnegative().nullable(),
  /** Session-block bootstrap percentile interval (95%); null bounds when nothing was judged. */
  low: z.number().nonnegative().nullable(),
  high: z.number().nonnegative().nullable(),
  sessions: z.number().int().nonnegative(),
});
export type RateWindow = z.infer<typeof RateWindowSchema>;

/**
 * The falsifier code computes for every recommendation: the recommendation is wrong if the
 * cluster's rate over the `window_days` after it is applied is not shown below its rate over the
 * `window_days` before (`baseline`, measured when it was written) by the group-sequential
 * permutation test on sessions (runtime/rules/rates.ts, docs/causal.md).
 */
export const FalsifierSchema = z.object({
  statement: z.string(),
  window_days: z.number().int().positive(),
  baseline: RateWindowSchema,
});

export const RungSchema = z.object({
  current: z.number().int().min(0).max(3),
  current_name: z.string(),
  next: z.number().int().min(0).max(3).nullable(),
  next_name: z.string().nullable(),
});
export type Rung = z.infer<typeof RungSchema>;

export const RecommendationSchema = z.object({
  schema: z.literal("rule-recommendation/1"),
  id: z.string().regex(/^rec-[0-9a-f]{12}$/),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  cluster_id: z.string(),
  bucket: z.string(),
  fix: z.enum(["enforce_rule", "add_rule"]),
  /** 1-based rank within its fix type; `score` = distinct sessions x (1 + mean severity). */
  rank: z.number().int().positive(),
  score: z.number().nonnegative(),
  rule_id: z.string().nullable(),
  failures: z.number().int().positive(),
  sessions: z.number().int().positive(),
  mean_severity: z.number().nullable(),
  exchange_ids: z.array(z.string()).min(1),
  exemplar_ids: z.array(z.string()).max(8),
  target: z.string().nullable(),
  change: z.string().nullable(),
  /** Why `change` is null, in plain words (offline; or the writer named no target). */
  change_reason: z.string().nullable(),
  falsifier: FalsifierSchema,
  /** The writer's own falsifier, when a writer wrote one. */
  writer_falsifier: z.string().nullable(),
  /** A covered rule's place on the binding ladder and the next rung; null for a missing rule. */
  rung: RungSchema.nullable(),
  writer: z.object({ lane: z.enum(["openai", "offline"]), model: z.string().nullable(), service_tier: z.string().nullable() }),
  checks: z.array(CheckResultSchema),
  flags: z.array(z.string()),
  /** Why it was dropped (empty for a survivor). */
  dropped: z.array(z.string()),
  synthetic: z.boolean(),
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

/**
 * A rule upgrade in the upgrades queue (`<ledgerDir>/upgrades.jsonl`, beside `upgrade/1`
 * records, whose reader passes other schemas through). It names ids only: the text of the
 * change stays in the v4 folder's recommendations file (`recommendation_id`). Status changes
 * come as `upgrade-status/1` lines by id, as for every upgrade.
 */
export const RuleUpgradeRecordSchema = z.object({
  schema: z.literal("rule-upgrade/1"),
  id: z.string().regex(/^up-[0-9]{8}-[0-9a-f]{6}$/),
  ts: z.string(),
  source: z.literal("errata"),
  fix: z.enum(["enforce_rule", "add_rule"]),
  claim: z.string().max(300),
  claim_hash: z.string().regex(/^[0-9a-f]{16}$/),
  bucket: z.string(),
  rule_id: z.string().nullable(),
  recommendation_id: z.string(),
  exchange_ids: z.array(z.string()).min(5),
  status: z.enum(["open", "applied", "verified", "rejected"]),
});
export type RuleUpgradeRecord = z.infer<typeof RuleUpgradeRecordSchema>;

/** One filing (`<v4 dir>/filed.jsonl`): which cluster, which upgrade, when. */
export const FilingSchema = z.object({
  schema: z.literal("rule-filing/1"),
  ts: z.string(),
  upgrade_id: z.string(),
  claim_hash: z.string(),
  recommendation_id: z.string(),
  cluster_id: z.string(),
  bucket: z.string(),
  exchange_ids: z.array(z.string()).min(5),
});
export type Filing = z.infer<typeof FilingSchema>;

/**
 * Any upgrade line of the queue as the rules wing reads it: an id, its source and status, and
 * the exchange ids it cites (an `exchange_ids` field, or `ex-` ids in its claim). Lines of
 * every schema are read this way; a hand-filed `source: errata` upgrade that cites exchange
 * ids gets a before/after row.
 */
export const QueueLineSchema = z.looseObject({
  schema: z.string(),
  id: z.string(),
  ts: z.string().optional(),
  source: z.string().optional(),
  status: z.string().optional(),
  claim: z.string().optional(),
  bucket: z.string().optional(),
  rule_id: z.string().nullable().optional(),
  exchange_ids: z.array(z.string()).optional(),
  applied_at: z.string().nullable().optional(),
});
export type QueueLine = z.infer<typeof QueueLineSchema>;
