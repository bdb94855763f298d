// A warning about a tool's output, at PostToolUse (errata-tool-hook post-tool-use): a check whose
// conditions read `output` fires after the tool ran, its warning a fact the model reads beside the
// result (hookSpecificOutput.additionalContext); it never fires before the tool (no output yet);
// any action but warn on output is refused, by the hook's validator and the zod schema alike.
// The payload's shape is the real client's (docs/claude-code-hooks.md, PostToolUse).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { outputText } from "../../runtime/hooks/post-tool-use.js";
import { runToolHook } from "../../runtime/hooks/tool-hook.js";
import { CheckFileError, evaluateChecks, validateCheck, type Check } from "../../runtime/ladder-formats/checks.js";
import { handlersFor } from "../../runtime/ladder/index.js";
import { CheckSchema } from "../../schemas/ladder-checks.js";
import { tempDir } from "../helpers/io.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-post-tool-use-")));
afterEach(() => tmp.cleanup());

const SKIPPED: Check = { id: "tests-skipped", rule_id: "tests.noskip01", tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "test" }, { field: "output", operator: "regex_match", pattern: "\\b[1-9]\\d* skipped\\b" }], action: "warn", message: "Skipped tests count as failures here.", mode: "active" };
const payload = (stdout: string, command = "npm test") => ({ session_id: "s1", tool_use_id: "tu1", cwd: join(tmp.dir, "app"), hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command, description: "Run the tests" }, tool_response: { stdout, stderr: "", interrupted: false, isImage: false, noOutputExpected: false } });

async function hook(event: string, f: unknown) {
  let out = "";
  let err = "";
  await runToolHook([event], {
    readStdin: () => JSON.stringify(f),
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir },
    cwd: join(tmp.dir, "app"),
    now: () => Date.parse("2026-12-06T07:00:00Z"),
  });
  return { out, err };
}
function install(checks: Check[]): void {
  mkdirSync(join(tmp.dir, "ledger", "ladder"), { recursive: true });
  mkdirSync(join(tmp.dir, "app"), { recursive: true });
  writeFileSync(join(tmp.dir, "ledger", "ladder", "checks.json"), JSON.stringify({ version: 1, checks }));
}
const events = () => {
  const f = join(tmp.dir, "ledger", "ladder", "tool-events.jsonl");
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};

describe("errata-tool-hook post-tool-use", () => {
  it("warns after the tool ran when its output matches, in the PostToolUse shape, phrased as a fact; logs the check's line", async () => {
    install([SKIPPED]);
    const r = await hook("post-tool-use", payload("Tests: 40 passed, 3 skipped, 43 total"));
    expect(r.err).toBe("");
    expect(JSON.parse(r.out)).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: 'The owner set a check on calls like this one (errata check tests-skipped, rule tests.noskip01): "Skipped tests count as failures here."' } });
    expect(events().map((e) => [e["check"], e["fired"], e["decision"], e["tool_use_id"]])).toEqual([["tests-skipped", true, "warn", "tu1"]]);
  });

  it("an output that does not match: nothing said, the check's opportunity logged; a check on the input alone is not run here", async () => {
    install([SKIPPED, { id: "no-npm", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "npm" }], action: "deny", message: "No npm.", mode: "active" }]);
    const r = await hook("post-tool-use", payload("Tests: 43 passed, 0 skipped, 43 total"));
    expect([r.out, r.err]).toEqual(["", ""]);
    expect(events().map((e) => [e["check"], e["fired"]])).toEqual([["tests-skipped", false]]);
  });

  it("before the tool (PreToolUse) an output check is not even eligible: no answer, no line", async () => {
    install([SKIPPED]);
    const r = await hook("pre-tool-use", { ...payload(""), hook_event_name: "PreToolUse", tool_response: undefined });
    expect([r.out, r.err]).toEqual(["", ""]);
    expect(events()).toEqual([]);
    expect(evaluateChecks([SKIPPED], { tool_name: "Bash", tool_input: { command: "npm test" } }).outcomes[0]).toMatchObject({ eligible: false, fired: false });
    // The per-check PreToolUse handlers leave it out (it runs at PostToolUse).
    expect(handlersFor([SKIPPED])).toEqual([]);
  });

  it("a check that reads output and would deny, ask or rewrite is refused, by the hook's validator and the schema alike", () => {
    for (const action of ["deny", "ask"] as const) {
      const bad = { ...SKIPPED, action };
      expect(() => validateCheck(bad, "checks.json", "checks[0]")).toThrow(CheckFileError);
      expect(() => validateCheck(bad, "checks.json", "checks[0]")).toThrow(/action warn for a check that reads output/);
      expect(CheckSchema.safeParse(bad).success).toBe(false);
    }
    expect(CheckSchema.safeParse(SKIPPED).success).toBe(true);
  });

  it("outputText: Bash's streams, a file's content, MCP text blocks; null when there is none", () => {
    expect(outputText({ stdout: "a", stderr: "b" })).toBe("a\nb");
    expect(outputText({ type: "text", file: { filePath: "/x", content: "hello" } })).toBe("hello");
    expect(outputText([{ type: "text", text: "one" }, { type: "image" }, { type: "text", text: "two" }])).toBe("one\ntwo");
    expect(outputText("plain")).toBe("plain");
    expect(outputText({ stdout: "", stderr: "" })).toBeNull();
    expect(outputText(undefined)).toBeNull();
  });
});
