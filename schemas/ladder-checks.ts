/**
 * The ladder's rung-3 records: a check (as stored in `<ERRATA_DIR>/ladder/checks.json`), the
 * hook's log line per eligible check (`tool-events.jsonl`) and the InstructionsLoaded line
 * (`instructions-loaded.jsonl`; the hooks write these two typed by the types below). The hook
 * validates checks by hand (it cannot load zod: runtime/ladder-formats/checks.ts
 * `validateCheck`); test/ladder/check-shape.test.ts keeps the two in agreement on generated
 * inputs.
 */
import { z } from "zod";
import { CHECK_ACTIONS, CHECK_FIELDS, CHECK_OPERATORS, REWRITE_FIELDS } from "../core/check-vocabulary.js";

export const CheckConditionSchema = z.object({
  field: z.enum(CHECK_FIELDS),
  operator: z.enum(CHECK_OPERATORS),
  pattern: z.string(),
  not: z.boolean().optional(),
});

export const CheckSchema = z
  .object({
    id: z.string().min(1),
    rule_id: z.string().nullable().optional(),
    tools: z.union([z.literal("*"), z.array(z.string().min(1)).min(1)]),
    conditions: z.array(CheckConditionSchema).min(1),
    action: z.enum(CHECK_ACTIONS),
    message: z.string().refine((s) => s.trim() !== "", "a non-empty message"),
    rewrite: z
      .object({
        field: z.enum(REWRITE_FIELDS),
        pattern: z.string().min(1),
        replacement: z.string(),
        decision: z.enum(["ask", "allow"]).optional(),
      })
      .optional(),
    mode: z.enum(["active", "shadow"]),
    source: z.string().optional(),
    /** The project folder the check belongs to; absent: every project. */
    project: z.string().min(1).optional(),
    /** The randomised holdout (runtime/ladder-formats/holdout.ts): one session in one_in runs the check in shadow. */
    holdout: z.object({ one_in: z.number().int().min(2).max(1000), seed: z.number().int() }).optional(),
  })
  .refine((c) => (c.action === "rewrite") === (c.rewrite !== undefined), { message: "action rewrite needs a rewrite, and only it has one" })
  .refine((c) => c.action === "warn" || !c.conditions.some((x) => x.field === "output"), { message: "a check that reads output is a warn (it runs after the tool, at PostToolUse)" });
export type StoredCheck = z.infer<typeof CheckSchema>;

export const ChecksFileSchema = z.object({ version: z.literal(1), checks: z.array(CheckSchema) });

export const ToolEventSchema = z.object({
  v: z.literal(1),
  ts: z.string(),
  session_id: z.string().nullable(),
  tool_use_id: z.string().nullable(),
  tool_name: z.string(),
  check: z.string(),
  rule_id: z.string().nullable(),
  mode: z.enum(["active", "shadow"]),
  fired: z.boolean(),
  decision: z.string().nullable(),
  /** The session is held out from this active check (the randomised holdout): it ran in shadow. */
  held_out: z.boolean().optional(),
});
export type ToolEvent = z.infer<typeof ToolEventSchema>;

export const InstructionsLoadedSchema = z.object({
  v: z.literal(1),
  ts: z.string(),
  session_id: z.string().nullable(),
  file_path: z.string(),
  memory_type: z.string().nullable(),
  load_reason: z.string().nullable(),
  globs: z.array(z.string()).nullable(),
  trigger_file_path: z.string().nullable(),
  parent_file_path: z.string().nullable(),
  /**
   * The rule ids the Errata mod left out of this file's text for this session (a line holdout,
   * docs/causal.md); absent on a plain load. Written by the mod only: the client's own event
   * has no such field.
   */
  withheld: z.array(z.string()).optional(),
});
export type InstructionsLoadedRow = z.infer<typeof InstructionsLoadedSchema>;
