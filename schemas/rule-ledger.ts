/**
 * The rule ledger (`<ERRATA_DIR>/ladder/rules.jsonl`): append-only lines, folded at read.
 * One `rule` line per rule (a unit of the rule index, or a rule the ladder proposes before it
 * is written), `incident` lines (a time the rule was broken: counted), `mention` lines (the
 * owner named the rule but nothing was broken: kept, never counted), and `patch` lines that
 * change a rule's fields (its rung and location after an approved climb, its why/when).
 * See docs/ladder.md.
 */
import { z } from "zod";

export const RUNGS = [0, 1, 2, 3] as const;
export const RungSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
export type Rung = z.infer<typeof RungSchema>;

/** Strongest first (the seed's order); praise and job outcomes are signals, not incidents. */
export const SIGNALS = ["explicit", "rejected", "correction", "undo", "praise", "job"] as const;
export const SignalSchema = z.enum(SIGNALS);
export type Signal = z.infer<typeof SignalSchema>;

export const CAUSES = ["rule_gap", "missing_tool", "environment", "beyond_model", "wrong_fact"] as const;
export const CauseSchema = z.enum(CAUSES);
export type Cause = z.infer<typeof CauseSchema>;

export const RuleLocationSchema = z.union([
  z.object({ kind: z.literal("text"), file: z.string(), section: z.string().nullable() }),
  z.object({ kind: z.literal("check"), check: z.string() }),
  z.object({ kind: z.literal("unwritten") }),
]);
export type RuleLocation = z.infer<typeof RuleLocationSchema>;

/** A condition that tells, from the reply and tool calls before a correction, whether the rule was broken. */
export const WitnessSchema = z.object({
  field: z.enum(["reply", "command", "file_path", "content"]),
  pattern: z.string(),
  /** true: broken when the pattern does NOT match (e.g. "reply in Finnish"). */
  broken_when_absent: z.boolean(),
});
export type Witness = z.infer<typeof WitnessSchema>;

export const RuleRowSchema = z.object({
  kind: z.literal("rule"),
  v: z.literal(1),
  rule_id: z.string().min(1),
  at: z.string(),
  text: z.string().min(1),
  why: z.string().nullable(),
  when: z.string().nullable(),
  when_not: z.string().nullable(),
  rung: RungSchema,
  location: RuleLocationSchema,
  /** "index": a unit of the rule index; "proposed": a rule the ladder drafted, not yet written. */
  origin: z.enum(["index", "proposed"]),
  /** Terms that name the rule in a correction (retrieval falls back to the text's words). */
  keywords: z.array(z.string()),
  witness: WitnessSchema.nullable(),
  /** Rare but critical: never leaves the budget for want of incidents. */
  exempt: z.boolean(),
  /**
   * The project folder the rule belongs to (its sessions run there); null: the user's or
   * managed files, in every project. Absent on rows written before rules carried a project.
   */
  project: z.string().nullable().optional(),
  /** The instruction file as an absolute path, for "in view" (InstructionsLoaded's exact `file_path`). */
  file_abs: z.string().nullable().optional(),
});
export type RuleRow = z.infer<typeof RuleRowSchema>;

export const IncidentRowSchema = z.object({
  kind: z.literal("incident"),
  v: z.literal(1),
  /** A pure function of rule and exchange: the same incident seen twice is one. */
  incident_id: z.string(),
  rule_id: z.string(),
  exchange_id: z.string(),
  session_id: z.string(),
  date: z.string(),
  severity: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  signal: SignalSchema,
  /** Whether the rule was in view then: its file loaded in that session, and its line not withheld there (null: unknown). */
  in_view: z.boolean().nullable(),
  /**
   * The rule's line was withheld in that session (the line holdout: the Errata mod recorded a
   * withholding of it). A held-out slip: kept as evidence for the holdout, never in view, never
   * counted toward a climb. Absent otherwise.
   */
  held_out: z.literal(true).optional(),
  rung: RungSchema,
  cause: CauseSchema.nullable(),
  /** How the correction named the rule: rule_covers' P(yes) and the cut with its origin (absent on older rows and on witness-only rules). */
  named_by: z.object({ p: z.number(), cut: z.number(), origin: z.string() }).optional(),
  /** The project of the correction's session (a climb edits its files). */
  project: z.string().nullable().optional(),
  /** The tool calls the correction answered (tool, field, value; redacted): what a drafted check must fire on. */
  calls: z.array(z.object({ tool: z.string(), field: z.string(), value: z.string() })).optional(),
});
export type IncidentRow = z.infer<typeof IncidentRowSchema>;

export const MentionRowSchema = z.object({
  kind: z.literal("mention"),
  v: z.literal(1),
  rule_id: z.string(),
  exchange_id: z.string(),
  session_id: z.string(),
  date: z.string(),
  why_not_counted: z.string(),
});
export type MentionRow = z.infer<typeof MentionRowSchema>;

export const RulePatchSchema = z.object({
  kind: z.literal("patch"),
  v: z.literal(1),
  rule_id: z.string(),
  at: z.string(),
  set: z
    .object({
      rung: RungSchema,
      location: RuleLocationSchema,
      text: z.string().min(1),
      why: z.string().nullable(),
      when: z.string().nullable(),
      when_not: z.string().nullable(),
      origin: z.enum(["index", "proposed"]),
      project: z.string().nullable(),
      file_abs: z.string().nullable(),
    })
    .partial(),
  /** The approval that made the change (proposal id), or why. */
  because: z.string(),
});
export type RulePatch = z.infer<typeof RulePatchSchema>;

export const RuleLedgerLineSchema = z.discriminatedUnion("kind", [RuleRowSchema, IncidentRowSchema, MentionRowSchema, RulePatchSchema]);
export type RuleLedgerLine = z.infer<typeof RuleLedgerLineSchema>;

/**
 * A rule-gap correction that named no rule of the ledger (`<ERRATA_DIR>/ladder/gaps.jsonl`,
 * append-only, one line per exchange: a retried night finds its exchange id and writes
 * nothing). Repeats of one subject in distinct sessions become a `new_rule` proposal.
 */
export const GapRowSchema = z.object({
  kind: z.literal("gap"),
  v: z.literal(1),
  exchange_id: z.string(),
  session_id: z.string(),
  date: z.string(),
  /** The owner's words, redacted before they are written. */
  text: z.string().min(1),
  signal: SignalSchema,
  severity: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** The tools and file paths of the reply the correction answered (what kind of task it was). */
  tools: z.array(z.string()),
  files: z.array(z.string()),
  /** The project folder of the correction's session (a new rule is written there); absent on older rows. */
  project: z.string().nullable().optional(),
});
export type GapRow = z.infer<typeof GapRowSchema>;
