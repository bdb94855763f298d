/**
 * A check whose conditions the owner gives at approval (`errata rules approve <id>
 * --command-regex RE | --path-glob GLOB | --hookify FILE`), for a `new_check` proposal code could
 * not draft. Without conditions the approval is refused and nothing is written (the proposal
 * stays offered). With them, a check in shadow is proposed in the owner's words and applied at
 * once, replayed like a drafted one; the `new_check` is recorded as carried by it.
 *
 * Example: ownerCheck(rule, {commandRegex: "\\bgit\\s+push\\b.*--force"}, "/src/app") -> {id: "ladder-r", tools: ["Bash"],
 * conditions: [{field: "command", operator: "regex_match", pattern: "\\bgit\\s+push\\b.*--force"}], mode: "shadow", project: "/src/app", ...}.
 */
import { readFileSync } from "node:fs";
import picomatch from "picomatch";
import { hookifyCheck } from "../ladder-formats/index.js";
import { compileChecks, type Check } from "../ladder-formats/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { checkMessage } from "./checks-draft.js";
import { LadderError } from "./errors.js";

export interface OwnerConditions {
  commandRegex?: string;
  pathGlob?: string;
  /** A hookify rule file (`.claude/hookify.*.local.md` form) whose conditions the check takes. */
  hookify?: string;
}

export const NEEDS_CONDITIONS = "code could not draft this check: approve it with --command-regex <re> (a Bash command), --path-glob <glob> (a file written or edited) or --hookify <file>";

/**
 * `ruleText` is the rule the check carries: its message (what the model reads on a deny) is the
 * rule, as a drafted check's is, never the proposal's reasoning ("a check would carry this rule,
 * but code could not draft one ..."). A rule the ledger no longer holds is named by its id.
 */
export function ownerCheck(p: Proposal, given: OwnerConditions, project: string | null, ruleText: string | null = null): Check {
  const n = [given.commandRegex, given.pathGlob, given.hookify].filter((x) => x !== undefined).length;
  if (n === 0) throw new LadderError("BAD_INPUT", `proposal ${p.id}: ${NEEDS_CONDITIONS}`, { expected: "one of --command-regex, --path-glob, --hookify", found: "none" });
  if (n > 1) throw new LadderError("BAD_INPUT", `proposal ${p.id}: one kind of condition at a time`, { expected: "one of --command-regex, --path-glob, --hookify", found: `${n} given` });
  const id = `ladder-${p.rule_id}`.replace(/[^A-Za-z0-9_.:-]/g, "-");
  const base = { id, rule_id: p.rule_id, action: "deny" as const, message: ruleText !== null && ruleText.trim() !== "" ? checkMessage(ruleText) : `rule ${p.rule_id}`, mode: "shadow" as const, ...(project !== null ? { project } : {}) };
  let check: Check;
  if (given.commandRegex !== undefined) {
    check = { ...base, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: given.commandRegex }] };
  } else if (given.pathGlob !== undefined) {
    // picomatch writes the glob as the regex the check runner reads (anchored, as a whole path or its tail).
    const re = picomatch.makeRe(given.pathGlob, { dot: true }).source;
    check = { ...base, tools: ["Edit", "Write", "MultiEdit"], conditions: [{ field: "file_path", operator: "regex_match", pattern: given.pathGlob.startsWith("/") ? re : `(?:^|/)${re.replace(/^\^/, "")}` }] };
  } else {
    let text: string;
    try {
      text = readFileSync(given.hookify!, "utf8");
    } catch (err) {
      throw new LadderError("BAD_INPUT", `--hookify ${given.hookify}: unreadable`, { expected: "a hookify rule file", found: (err as NodeJS.ErrnoException).code ?? String(err) });
    }
    const h = hookifyCheck(text, given.hookify!);
    if (h === null) throw new LadderError("BAD_INPUT", `--hookify ${given.hookify}: no check in it`, { expected: "a hookify rule with an event, a pattern or conditions", found: "a file hookify would skip" });
    check = { ...base, tools: h.tools, conditions: h.conditions };
  }
  try {
    compileChecks([check]);
  } catch (err) {
    throw new LadderError("BAD_INPUT", `proposal ${p.id}: the condition does not compile`, { expected: "a regular expression", found: (err as Error).message });
  }
  return check;
}
