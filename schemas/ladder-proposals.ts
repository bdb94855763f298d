/**
 * The owner's approval table (`<ERRATA_DIR>/ladder/proposals.jsonl`, append-only): a
 * `proposal` line drafted by the nightly auditor, then `decision` lines (approved, rejected,
 * applied, undone) folded at read. And the loops' receipts (`receipts.jsonl`): one line per
 * run of each loop, empty runs included.
 */
import { z } from "zod";
import { CheckSchema } from "./ladder-checks.js";
import { RuleLocationSchema, RuleRowSchema, RungSchema } from "./rule-ledger.js";

export const PROPOSAL_KINDS = ["climb", "new_rule", "new_check", "leave_shadow", "loosen", "repair"] as const;

/** One edit of one rule unit: `before` replaced by `after` in `file` (before null: `after` appended). */
export const TextEditSchema = z.object({
  kind: z.literal("text"),
  file: z.string(),
  /** sha256 of the file when the proposal was drafted (null: the file did not exist). */
  file_hash: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().min(1),
});
export const CheckEditSchema = z.object({
  kind: z.literal("check"),
  file: z.string(),
  file_hash: z.string().nullable(),
  /** The check to install (mode shadow for a new check), or the id whose mode becomes active. */
  check: CheckSchema.nullable(),
  activate: z.string().nullable(),
  /** A loosening: the id whose mode goes back to shadow (it watches, never acts), or the id removed. */
  deactivate: z.string().nullable().optional(),
  uninstall: z.string().nullable().optional(),
});
/** A loosening of a written rule: `unit` (its line, newline included) removed from `file`, found there exactly once. */
export const RemoveEditSchema = z.object({
  kind: z.literal("remove"),
  file: z.string(),
  file_hash: z.string().nullable(),
  unit: z.string().min(1),
});
export const EditSchema = z.discriminatedUnion("kind", [TextEditSchema, CheckEditSchema, RemoveEditSchema]);
export type Edit = z.infer<typeof EditSchema>;

export const ProposalSchema = z.object({
  kind: z.literal("proposal"),
  v: z.literal(1),
  id: z.string(),
  at: z.string(),
  type: z.enum(PROPOSAL_KINDS),
  rule_id: z.string(),
  from_rung: RungSchema,
  to_rung: RungSchema,
  diagnosis: z.string(),
  why: z.string(),
  evidence: z.array(z.string()),
  edit: EditSchema.nullable(),
  /** What the reviewer lane argued against it, or why it did not run. */
  review: z.string(),
  /** new_rule: the ledger row the approval adds (the rule as written). */
  rule: RuleRowSchema.optional(),
  /** Where the rule lives after the apply, and before it (undo puts it back); absent: as the edit says. */
  location_after: RuleLocationSchema.optional(),
  /** A drafted check's replay before it was proposed: the corrected calls it fires on, and the project's other recorded calls. */
  replay: z
    .object({
      corrected: z.object({ fired: z.number().int(), of: z.number().int() }),
      others: z.object({ fired: z.number().int(), of: z.number().int() }),
      examples: z.array(z.string()),
    })
    .optional(),
  location_before: RuleLocationSchema.optional(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

/** The native permission deny rules an approve with --native-deny wrote (only those the file lacked), for undo. */
export const NativeDenyRecordSchema = z.object({
  file: z.string(),
  /** The check the rules stand for. */
  check: z.string().optional(),
  rules: z.array(z.string()),
  backup: z.string(),
  /** sha256 of the settings file after the write (null: nothing was written). */
  after_hash: z.string().nullable(),
});
export type NativeDenyRecord = z.infer<typeof NativeDenyRecordSchema>;

export const DecisionSchema = z.object({
  kind: z.literal("decision"),
  v: z.literal(1),
  id: z.string(),
  at: z.string(),
  status: z.enum(["approved", "rejected", "applied", "undone"]),
  why: z.string().nullable(),
  /** For applied: the backup of the file as it was, and its hash after the edit. */
  backup: z.string().nullable(),
  after_hash: z.string().nullable(),
  native_deny: NativeDenyRecordSchema.optional(),
});
export type Decision = z.infer<typeof DecisionSchema>;

export const ProposalLineSchema = z.discriminatedUnion("kind", [ProposalSchema, DecisionSchema]);

export const LOOPS = ["reflection", "audit", "shadow", "morning"] as const;
export const ReceiptSchema = z.object({
  v: z.literal(1),
  loop: z.enum(LOOPS),
  at: z.string(),
  /** The night (UTC date) the run belongs to. */
  night: z.string(),
  ok: z.boolean(),
  counts: z.record(z.string(), z.number()),
  note: z.string().nullable(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
