/**
 * The rule index file: read with its schema, written whole (temp file + rename, so a crash
 * leaves the old index or the new one, never half of either) and only when a build changed
 * something.
 *
 * Example: `readRuleIndex("/x/v4/rules.json")` -> `null` when there is none yet.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ErrataError } from "../../core/errors.js";
import { writeFileAtomic } from "../files/index.js";
import { RULE_INDEX_SCHEMA, RuleIndexSchema, type RuleIndex } from "../../schemas/rules.js";

export const RULE_INDEX_FILE = "rules.json";

export function ruleIndexPath(v4Dir: string): string {
  return join(v4Dir, RULE_INDEX_FILE);
}

export function readRuleIndex(file: string): RuleIndex | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw new ErrataError("IO", `cannot read the rule index ${file}`, { found: code ?? (err as Error).message });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ErrataError("BAD_INPUT", `the rule index ${file} is not JSON`, { expected: `a ${RULE_INDEX_SCHEMA} file`, found: (err as Error).message });
  }
  const parsed = RuleIndexSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ErrataError("BAD_INPUT", `the rule index ${file} is not a rule index`, {
      expected: `schema "${RULE_INDEX_SCHEMA}"`,
      found: `${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}`,
    });
  }
  return parsed.data;
}

export function writeRuleIndex(file: string, index: RuleIndex): void {
  try {
    writeFileAtomic(file, `${JSON.stringify(index, null, 1)}\n`, { mode: 0o600 });
  } catch (err) {
    throw new ErrataError("IO", `cannot write the rule index ${file}`, { found: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
  }
}
