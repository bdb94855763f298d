/**
 * Rung 3 of the binding ladder: deterministic checks that run before a tool call, stored as
 * data and evaluated here with no model, no network and no zod (this file is in the
 * PreToolUse hook's bundle, which runs on every tool call; the ladder drafts, judges in
 * shadow and simulates checks with the same code).
 *
 * A check names the tools it watches (`tools`: names, or "*"), conditions that must all hold
 * (each on `tool_name` or one field of `tool_input`: command, file_path, content, new_string,
 * old_string, and hookify's aliases new_text/old_text), an operator (regex_match, contains,
 * equals, starts_with, ends_with, not_contains; `not: true` negates any of them; `output`, the
 * tool's response as text, is read only after the tool ran, by a warn: PostToolUse) and an
 * action: deny (the reason reaches the model), ask (the owner is asked), rewrite (the input
 * is replaced: `updatedInput`) or warn (`additionalContext`, which reaches the model). A
 * check in `shadow` mode is evaluated and logged but never acts.
 *
 * A condition on a field the tool does not send does not hold (negated or not): a check
 * about commands never fires on an MCP tool (hookify's rules, which match unknown tools,
 * are narrowed so when imported). Regexes are case-insensitive, as hookify's Python `re`
 * with IGNORECASE.
 *
 * Example: evaluateChecks([{id: "no-npm", tools: ["Bash"], conditions: [{field: "command",
 * operator: "regex_match", pattern: "^npm "}], action: "deny", message: "Use pnpm.", ...}],
 * {tool_name: "Bash", tool_input: {command: "npm i"}}) -> {decision: "deny", fired: ["no-npm"], ...}.
 */

import { holdoutProblem, type Holdout } from "./holdout.js";
import { CHECK_ACTIONS, CHECK_FIELDS, CHECK_OPERATORS, REWRITE_FIELDS, type CheckAction, type CheckField, type CheckOperator, type RewriteField } from "../../core/check-vocabulary.js";

export { CHECK_ACTIONS, CHECK_FIELDS, CHECK_OPERATORS, REWRITE_FIELDS, type CheckAction, type CheckField, type CheckOperator, type RewriteField };

export interface CheckCondition {
  field: CheckField;
  operator: CheckOperator;
  pattern: string;
  not?: boolean;
}

export interface CheckRewrite {
  field: RewriteField;
  /** A regex (case-insensitive, every match replaced) and its replacement ($1 etc.). */
  pattern: string;
  replacement: string;
  /** ask (default: the owner sees the rewritten input) or allow (runs it without asking). */
  decision?: "ask" | "allow";
}

export interface Check {
  id: string;
  /** The rule unit this check carries, when the ladder installed it. */
  rule_id?: string | null;
  tools: string[] | "*";
  conditions: CheckCondition[];
  action: CheckAction;
  message: string;
  rewrite?: CheckRewrite;
  mode: "active" | "shadow";
  /** The file the check came from (set at load). */
  source?: string;
  /** The project folder the check belongs to (the ladder's checks): it runs only for calls in that folder; absent: every project. */
  project?: string;
  /** The owner opted this check into the randomised holdout: a seeded 1-in-N of sessions runs it in shadow (ladder-formats/holdout.ts). */
  holdout?: Holdout;
}

/** True when a check runs for a call whose project folder is `projectDir` (the folder itself or one inside it). */
export function checkApplies(check: Check, projectDir: string): boolean {
  const p = check.project;
  if (p === undefined) return true;
  const base = p.endsWith("/") || p.endsWith("\\") ? p.slice(0, -1) : p;
  return projectDir === base || projectDir.startsWith(`${base}/`) || projectDir.startsWith(`${base}\\`);
}

/** A check compiled once per process: its regexes built. */
interface Compiled {
  check: Check;
  tests: Array<(value: string) => boolean>;
  rewrite: RegExp | null;
}

export class CheckFileError extends Error {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`check file ${file} refused: expected ${expected}, found ${found}`);
  }
}

/**
 * Python's named group `(?P<name>` is JavaScript's `(?<name>`; other Python-only syntax makes
 * the file refused at load (a check that cannot be compiled is never silently off).
 */
export function compileRegex(pattern: string, file: string, where: string): RegExp {
  try {
    return new RegExp(pattern.replace(/\(\?P</g, "(?<"), "i");
  } catch (err) {
    throw new CheckFileError(file, `a valid regular expression at ${where}`, `${JSON.stringify(pattern)} (${err instanceof Error ? err.message : String(err)})`);
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const oneOf = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === "string" && (list as readonly string[]).includes(v);

/**
 * Checks one check's shape (the hook cannot load zod; schemas/ladder.ts holds the same shape
 * as a zod schema for the writers, and test/ladder/check-shape.test.ts keeps the two equal).
 * Throws CheckFileError naming the first problem.
 */
export function validateCheck(v: unknown, file: string, where: string): Check {
  const bad = (expected: string, found: unknown): never => {
    throw new CheckFileError(file, `${where}: ${expected}`, JSON.stringify(found) ?? String(found));
  };
  if (!isObj(v)) return bad("an object", v);
  if (typeof v["id"] !== "string" || v["id"] === "") bad("id, a non-empty string", v["id"]);
  if (v["rule_id"] !== undefined && v["rule_id"] !== null && typeof v["rule_id"] !== "string") bad("rule_id, a string or null", v["rule_id"]);
  const tools = v["tools"];
  if (tools !== "*" && !(Array.isArray(tools) && tools.length > 0 && tools.every((t) => typeof t === "string" && t !== ""))) bad('tools, "*" or a non-empty list of tool names', tools);
  const conds = v["conditions"];
  if (!Array.isArray(conds) || conds.length === 0) bad("conditions, a non-empty list", conds);
  (conds as unknown[]).forEach((c, i) => {
    if (!isObj(c)) return bad(`conditions[${i}], an object`, c);
    if (!oneOf(CHECK_FIELDS, c["field"])) bad(`conditions[${i}].field, one of ${CHECK_FIELDS.join(", ")}`, c["field"]);
    if (!oneOf(CHECK_OPERATORS, c["operator"])) bad(`conditions[${i}].operator, one of ${CHECK_OPERATORS.join(", ")}`, c["operator"]);
    if (typeof c["pattern"] !== "string") bad(`conditions[${i}].pattern, a string`, c["pattern"]);
    if (c["not"] !== undefined && typeof c["not"] !== "boolean") bad(`conditions[${i}].not, a boolean`, c["not"]);
  });
  if (!oneOf(CHECK_ACTIONS, v["action"])) bad(`action, one of ${CHECK_ACTIONS.join(", ")}`, v["action"]);
  // A condition on the tool's output is read after the tool ran: nothing is left to deny, ask or rewrite.
  if ((conds as Array<Record<string, unknown>>).some((c) => c["field"] === "output") && v["action"] !== "warn") bad("action warn for a check that reads output (it runs after the tool, at PostToolUse)", v["action"]);
  if (typeof v["message"] !== "string" || v["message"].trim() === "") bad("message, a non-empty string (it is what the model or the owner reads)", v["message"]);
  if (v["mode"] !== "active" && v["mode"] !== "shadow") bad('mode, "active" or "shadow"', v["mode"]);
  if (v["project"] !== undefined && (typeof v["project"] !== "string" || v["project"] === "")) bad("project, a non-empty folder path", v["project"]);
 if (v["holdout"] !== undefined) {
    const problem = holdoutProblem(v["holdout"]);
    if (problem !== null) bad(problem, v["holdout"]);
  }
  const rw = v["rewrite"];
  if (v["action"] === "rewrite" || rw !== undefined) {
    if (!isObj(rw)) return bad("rewrite, an object {field, pattern, replacement} (action rewrite needs one)", rw);
    if (v["action"] !== "rewrite") bad("rewrite only with action rewrite", v["action"]);
    if (!oneOf(REWRITE_FIELDS, rw["field"])) bad(`rewrite.field, one of ${REWRITE_FIELDS.join(", ")}`, rw["field"]);
    if (typeof rw["pattern"] !== "string" || rw["pattern"] === "") bad("rewrite.pattern, a non-empty string", rw["pattern"]);
    if (typeof rw["replacement"] !== "string") bad("rewrite.replacement, a string", rw["replacement"]);
    if (rw["decision"] !== undefined && rw["decision"] !== "ask" && rw["decision"] !== "allow") bad('rewrite.decision, "ask" or "allow"', rw["decision"]);
  }
  return v as unknown as Check;
}

/** Compiles checks (regexes built once); throws CheckFileError on a pattern that is not a regex. */
export function compileChecks(checks: readonly Check[]): Compiled[] {
  return checks.map((check, i) => {
    const file = check.source ?? "(checks)";
    const tests = check.conditions.map((c, k) => {
      const where = `${check.id} conditions[${k}]`;
      let test: (v: string) => boolean;
      if (c.operator === "regex_match") {
        const re = compileRegex(c.pattern, file, where);
        test = (v) => re.test(v);
      } else if (c.operator === "contains") test = (v) => v.includes(c.pattern);
      else if (c.operator === "not_contains") test = (v) => !v.includes(c.pattern);
      else if (c.operator === "equals") test = (v) => v === c.pattern;
      else if (c.operator === "starts_with") test = (v) => v.startsWith(c.pattern);
      else test = (v) => v.endsWith(c.pattern);
      return c.not === true ? (v: string) => !test(v) : test;
    });
    const rewrite = check.rewrite ? new RegExp(compileRegex(check.rewrite.pattern, file, `${check.id ?? i} rewrite`).source, "gi") : null;
    return { check, tests, rewrite };
  });
}

export interface ToolCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** The tool's response as text: present only after the tool ran (PostToolUse). */
  tool_output?: string;
}

/** Whether a check reads the tool's output (so it runs at PostToolUse, and never before the tool). */
export const readsOutput = (c: Check): boolean => c.conditions.some((x) => x.field === "output");

/**
 * The value a condition reads, or null when the tool does not send it. new_text/old_text
 * follow hookify's meaning but read Write's `content` too (hookify's own rules miss Write,
 * which sends content, not new_string); MultiEdit's edits are joined.
 */
export function fieldValue(field: CheckField, call: ToolCall): string | null {
  const input = call.tool_input;
  const s = (k: string): string | null => (typeof input[k] === "string" ? (input[k] as string) : null);
  const edits = Array.isArray(input["edits"]) ? (input["edits"] as unknown[]).filter(isObj) : null;
  const joined = (k: string): string | null => (edits ? edits.map((e) => (typeof e[k] === "string" ? (e[k] as string) : "")).join("\n") : null);
  switch (field) {
    case "tool_name":
      return call.tool_name;
    case "command":
    case "file_path":
      return s(field);
    case "content":
      return s("content") ?? s("new_string") ?? joined("new_string");
    case "new_string":
    case "new_text":
      return s("new_string") ?? joined("new_string") ?? (field === "new_text" ? s("content") : null);
    case "old_string":
    case "old_text":
      return s("old_string") ?? joined("old_string");
    case "output":
      return call.tool_output ?? null;
  }
}

export interface CheckOutcome {
  check: Check;
  /** The check applies to this call (its tool matches and every field it reads is sent). */
  eligible: boolean;
  fired: boolean;
}

export interface Decision {
  /** What the hook answers: null lets the call through with no output. */
  decision: "deny" | "ask" | "allow" | null;
  reason: string | null;
  updatedInput: Record<string, unknown> | null;
  additionalContext: string | null;
  /** Active checks that fired, in check order. */
  fired: string[];
  outcomes: CheckOutcome[];
}

/** Claude Code caps a hook's output strings at 10,000 characters. */
export const MAX_OUTPUT_CHARS = 10_000;
const cap = (s: string): string => (s.length <= MAX_OUTPUT_CHARS ? s : `${s.slice(0, MAX_OUTPUT_CHARS - 1)}…`);
const label = (c: Check): string => `[errata check ${c.id}${c.rule_id ? `, rule ${c.rule_id}` : ""}] ${c.message.trim()}`;
/**
 * A warning as a fact about the call, the owner's words quoted, not an instruction: it reaches
 * the model as context beside the tool's result, and the client's docs warn that text reading
 * as a system instruction there can trip its prompt-injection defences. (A deny's reason is the
 * call's error result, and keeps the label.)
 */
const warning = (c: Check): string => `The owner set a check on calls like this one (errata check ${c.id}${c.rule_id ? `, rule ${c.rule_id}` : ""}): "${c.message.trim()}"`;

/**
 * Evaluates every check against one call. Precedence follows Claude Code's across hooks:
 * deny > ask > allow; a rewrite applies only when nothing denies or asks for another reason
 * (then its own decision, ask by default); warnings always ride along as additionalContext.
 */
export function evaluateCompiled(compiled: readonly Compiled[], call: ToolCall): Decision {
  const outcomes: CheckOutcome[] = [];
  const deny: Check[] = [];
  const ask: Check[] = [];
  const warn: Check[] = [];
  let updated: Record<string, unknown> | null = null;
  let rewriteDecision: "ask" | "allow" | null = null;
  const rewrites: Check[] = [];
  for (const { check, tests, rewrite } of compiled) {
    const toolOk = check.tools === "*" || check.tools.includes(call.tool_name);
    const values = check.conditions.map((c) => fieldValue(c.field, call));
    const eligible = toolOk && values.every((v) => v !== null);
    const fired = eligible && tests.every((t, i) => t(values[i]!));
    outcomes.push({ check, eligible, fired });
    if (!fired || check.mode === "shadow") continue;
    if (check.action === "deny") deny.push(check);
    else if (check.action === "ask") ask.push(check);
    else if (check.action === "warn") warn.push(check);
    else if (check.rewrite && rewrite) {
      const base: Record<string, unknown> = updated ?? { ...call.tool_input };
      const before = base[check.rewrite.field];
      if (typeof before !== "string") continue;
      base[check.rewrite.field] = before.replace(rewrite, check.rewrite.replacement);
      updated = base;
      rewrites.push(check);
      if (check.rewrite.decision !== "allow") rewriteDecision = "ask";
      else rewriteDecision ??= "allow";
    }
  }
  const fired = outcomes.filter((o) => o.fired && o.check.mode === "active").map((o) => o.check.id);
  const context = warn.length > 0 ? cap(warn.map(warning).join("\n\n")) : null;
  if (deny.length > 0) return { decision: "deny", reason: cap(deny.map(label).join("\n\n")), updatedInput: null, additionalContext: context, fired, outcomes };
  if (ask.length > 0) return { decision: "ask", reason: cap(ask.map(label).join("\n\n")), updatedInput: null, additionalContext: context, fired, outcomes };
  if (updated !== null) {
    return { decision: rewriteDecision ?? "ask", reason: cap(rewrites.map(label).join("\n\n")), updatedInput: updated, additionalContext: context, fired, outcomes };
  }
  return { decision: null, reason: null, updatedInput: null, additionalContext: context, fired, outcomes };
}

export function evaluateChecks(checks: readonly Check[], call: ToolCall): Decision {
  return evaluateCompiled(compileChecks(checks), call);
}
