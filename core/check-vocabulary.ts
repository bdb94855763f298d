/**
 * The words of a rung-3 check (the ladder's deterministic checks): the fields a condition
 * may read, its operators, a check's actions and the fields a rewrite may replace. In core/
 * because both the zod schema (schemas/ladder-checks.ts) and the zod-free hook
 * check language (runtime/ladder-formats/checks.ts) need the same lists.
 *
 * Example: CHECK_OPERATORS.includes("starts_with") -> true.
 */
/** `output`: the tool's response as text, read only after the tool ran (PostToolUse), by a warn. */
export const CHECK_FIELDS = ["tool_name", "command", "file_path", "content", "new_string", "old_string", "new_text", "old_text", "output"] as const;
export type CheckField = (typeof CHECK_FIELDS)[number];
export const CHECK_OPERATORS = ["regex_match", "contains", "equals", "starts_with", "ends_with", "not_contains"] as const;
export type CheckOperator = (typeof CHECK_OPERATORS)[number];
export const CHECK_ACTIONS = ["deny", "ask", "rewrite", "warn"] as const;
export type CheckAction = (typeof CHECK_ACTIONS)[number];
/** The fields a rewrite may replace (strings of tool_input). */
export const REWRITE_FIELDS = ["command", "file_path", "content", "new_string", "old_string"] as const;
export type RewriteField = (typeof REWRITE_FIELDS)[number];
