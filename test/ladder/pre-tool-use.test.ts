// The PreToolUse contract: every stdin field the hook reads and every output field it writes,
// pinned; hookify's rule files imported (its examples and its own tests' cases); faults allow.
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runToolHook, type ToolHookRunIo } from "../../runtime/hooks/tool-hook.js";
import { hookifyCheck } from "../../runtime/ladder-formats/hookify.js";
import { tempDir } from "../helpers/io.js";

const fixtures = fileURLToPath(new URL("./fixtures/hookify", import.meta.url));

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ptu-")));
afterEach(() => tmp.cleanup());

function run(event: string, payload: unknown, env: Record<string, string | undefined>) {
  let out = "";
  let err = "";
  const io: ToolHookRunIo = {
    readStdin: () => (typeof payload === "string" ? payload : JSON.stringify(payload)),
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    cwd: tmp.dir,
    now: () => Date.parse("2026-11-30T12:00:00.000Z"),
  };
  return runToolHook([event], io).then((code) => ({ code, out, err, json: out.trim() === "" ? null : (JSON.parse(out) as Record<string, unknown>) }));
}

function envWith(checks: unknown[] | null): Record<string, string> {
  const ledger = join(tmp.dir, "ledger");
  const home = join(tmp.dir, "home");
  mkdirSync(home, { recursive: true });
  if (checks !== null) {
    mkdirSync(join(ledger, "ladder"), { recursive: true });
    writeFileSync(join(ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks }));
  }
  return { ERRATA_DIR: ledger, HOME: home };
}

const check = (over: Record<string, unknown>): Record<string, unknown> => ({
  id: "no-npm",
  rule_id: "claude.tools.1a2b3c",
  tools: ["Bash"],
  conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }],
  action: "deny",
  message: "Use pnpm, not npm.",
  mode: "active",
  ...over,
});
const bash = (command: string, extra: Record<string, unknown> = {}) => ({
  session_id: "s1",
  transcript_path: "/t.jsonl",
  cwd: "/nowhere",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command, description: "d", ...extra },
  tool_use_id: "toolu_01",
});
const events = (env: Record<string, string>) => {
  const f = join(env["ERRATA_DIR"]!, "ladder", "tool-events.jsonl");
  return existsSync(f) ? readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};

describe("errata hook pre-tool-use: the output contract", () => {
  it("deny: permissionDecision deny with a permissionDecisionReason naming the check and rule; never systemMessage", async () => {
    const env = envWith([check({})]);
    const r = await run("pre-tool-use", bash("npm install left-pad"), env);
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "[errata check no-npm, rule claude.tools.1a2b3c] Use pnpm, not npm." },
    });
    expect(r.err).toBe("");
  });

  it("ask: permissionDecision ask with the reason", async () => {
    const env = envWith([check({ action: "ask", message: "Pushing to main: are you sure?", conditions: [{ field: "command", operator: "contains", pattern: "git push origin main" }] })]);
    const r = await run("pre-tool-use", bash("git push origin main"), env);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "[errata check no-npm, rule claude.tools.1a2b3c] Pushing to main: are you sure?" } });
  });

  it("rewrite: updatedInput is the whole input with the field rewritten; ask by default, allow when the check says so", async () => {
    const rw = check({ action: "rewrite", message: "npm rewritten to pnpm.", rewrite: { field: "command", pattern: "^npm\\b", replacement: "pnpm" } });
    let r = await run("pre-tool-use", bash("npm install x", { timeout: 5000 }), envWith([rw]));
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "[errata check no-npm, rule claude.tools.1a2b3c] npm rewritten to pnpm.",
        updatedInput: { command: "pnpm install x", description: "d", timeout: 5000 },
      },
    });
    r = await run("pre-tool-use", bash("npm test"), envWith([{ ...rw, rewrite: { ...(rw["rewrite"] as object), decision: "allow" } }]));
    expect((r.json?.["hookSpecificOutput"] as Record<string, unknown>)["permissionDecision"]).toBe("allow");
    expect((r.json?.["hookSpecificOutput"] as Record<string, unknown>)["updatedInput"]).toEqual({ command: "pnpm test", description: "d" });
  });

  it("warn: additionalContext (it reaches the model) and no permission decision, so the normal permission flow goes on", async () => {
    const env = envWith([check({ action: "warn", message: "Prefer pnpm." })]);
    const r = await run("pre-tool-use", bash("npm ci"), env);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: 'The owner set a check on calls like this one (errata check no-npm, rule claude.tools.1a2b3c): "Prefer pnpm."' } });
  });

  it("deny beats ask and rewrite; warnings ride along", async () => {
    const env = envWith([
      check({ id: "a", action: "ask", message: "ask" }),
      check({ id: "w", action: "warn", message: "warn" }),
      check({ id: "d", action: "deny", message: "deny", rule_id: null }),
    ]);
    const r = await run("pre-tool-use", bash("npm i"), env);
    const out = r.json?.["hookSpecificOutput"] as Record<string, unknown>;
    expect(out["permissionDecision"]).toBe("deny");
    expect(out["permissionDecisionReason"]).toBe("[errata check d] deny");
    expect(out["additionalContext"]).toBe('The owner set a check on calls like this one (errata check w, rule claude.tools.1a2b3c): "warn"');
  });

  it("nothing fires: no output at all (the call goes on as if no hook ran)", async () => {
    const r = await run("pre-tool-use", bash("pnpm i"), envWith([check({})]));
    expect(r.out).toBe("");
    expect(r.err).toBe("");
  });

  it("reads each tool_input field it names: file_path, content (Write), new_string and old_string (Edit), tool_name", async () => {
    const env = envWith([
      check({ id: "fp", tools: ["Write", "Edit"], conditions: [{ field: "file_path", operator: "ends_with", pattern: ".lock" }], message: "lock files are generated" }),
      check({ id: "ct", tools: "*", conditions: [{ field: "content", operator: "contains", pattern: "TODO" }], action: "warn", message: "a TODO" }),
      check({ id: "ns", tools: ["Edit"], conditions: [{ field: "new_string", operator: "equals", pattern: "x" }, { field: "old_string", operator: "starts_with", pattern: "y" }], message: "x for y" }),
      check({ id: "tn", tools: "*", conditions: [{ field: "tool_name", operator: "regex_match", pattern: "^mcp__" }], action: "ask", message: "an MCP tool" }),
    ]);
    const decision = async (p: unknown) => ((await run("pre-tool-use", p, env)).json?.["hookSpecificOutput"] as Record<string, unknown> | undefined) ?? null;
    expect((await decision({ tool_name: "Write", tool_input: { file_path: "/p/pnpm.lock", content: "a" } }))?.["permissionDecisionReason"]).toMatch(/check fp/);
    expect((await decision({ tool_name: "Write", tool_input: { file_path: "/p/a.ts", content: "// TODO" } }))?.["additionalContext"]).toMatch(/check ct/);
    expect((await decision({ tool_name: "Edit", tool_input: { file_path: "/p/a.ts", old_string: "yes", new_string: "x" } }))?.["permissionDecisionReason"]).toMatch(/check ns/);
    expect(await decision({ tool_name: "Edit", tool_input: { file_path: "/p/a.ts", old_string: "no", new_string: "x" } })).toBeNull();
    expect((await decision({ tool_name: "mcp__db__query", tool_input: { sql: "select 1" } }))?.["permissionDecision"]).toBe("ask");
  });

  it("the not flag negates an operator; a condition on a field the tool does not send never holds", async () => {
    const env = envWith([check({ tools: "*", conditions: [{ field: "command", operator: "contains", pattern: "--dry-run", not: true }], message: "no dry run" })]);
    expect((await run("pre-tool-use", bash("terraform apply"), env)).json).not.toBeNull();
    expect((await run("pre-tool-use", bash("terraform apply --dry-run"), env)).out).toBe("");
    expect((await run("pre-tool-use", { tool_name: "Read", tool_input: { file_path: "/x" } }, env)).out).toBe("");
  });
});

describe("errata hook pre-tool-use: logging and shadow", () => {
  it("logs one line per eligible check (session_id, tool_use_id read from stdin); a shadow check logs its would-be fire and never acts", async () => {
    const env = envWith([check({}), check({ id: "sh", mode: "shadow", action: "deny", conditions: [{ field: "command", operator: "contains", pattern: "install" }] })]);
    const r = await run("pre-tool-use", bash("pnpm install"), env);
    expect(r.out).toBe("");
    expect(events(env)).toEqual([
      { v: 1, ts: "2026-11-30T12:00:00.000Z", session_id: "s1", tool_use_id: "toolu_01", tool_name: "Bash", check: "no-npm", rule_id: "claude.tools.1a2b3c", mode: "active", fired: false, decision: null },
      { v: 1, ts: "2026-11-30T12:00:00.000Z", session_id: "s1", tool_use_id: "toolu_01", tool_name: "Bash", check: "sh", rule_id: "claude.tools.1a2b3c", mode: "shadow", fired: true, decision: null },
    ]);
  });

  it("the decision is written before the log: a log that cannot be written never turns a deny into an allow", async () => {
    const env = envWith([check({})]);
    mkdirSync(join(env["ERRATA_DIR"]!, "ladder", "tool-events.jsonl")); // a folder where the log file should be
    const r = await run("pre-tool-use", bash("npm i"), env);
    expect((r.json?.["hookSpecificOutput"] as Record<string, unknown>)["permissionDecision"]).toBe("deny");
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/^errata hook: the decision stands, but its log line was not written/);
  });
});

describe("errata hook pre-tool-use: faults allow", () => {
  it("a malformed check file is refused at load: the call is allowed and stderr names the file and what was expected", async () => {
    const env = envWith([check({ conditions: [{ field: "command", operator: "looks_like", pattern: "npm" }] })]);
    const r = await run("pre-tool-use", bash("npm i"), env);
    expect(r.out).toBe("");
    expect(r.err).toContain(join(env["ERRATA_DIR"]!, "ladder", "checks.json"));
    expect(r.err).toMatch(/refused: expected checks\[0\]: conditions\[0\]\.operator, one of regex_match/);
  });

  it("a bad regex refuses its file; the other files' checks still run", async () => {
    const env = envWith([check({ conditions: [{ field: "command", operator: "regex_match", pattern: "(npm" }] })]);
    mkdirSync(join(tmp.dir, "proj", ".claude"), { recursive: true });
    cpSync(join(fixtures, "hookify.dangerous-rm.local.md"), join(tmp.dir, "proj", ".claude", "hookify.dangerous-rm.local.md"));
    const r = await run("pre-tool-use", { ...bash("rm -rf build"), cwd: join(tmp.dir, "proj") }, env);
    expect((r.json?.["hookSpecificOutput"] as Record<string, unknown>)["permissionDecision"]).toBe("deny");
    expect(r.err).toMatch(/checks\.json refused: expected a valid regular expression/);
  });

  it("an internal fault allows with one stderr line; so do empty and non-JSON stdin", async () => {
    const env = envWith(null);
    mkdirSync(join(env["ERRATA_DIR"]!, "ladder", "checks.json"), { recursive: true }); // unreadable as a file
    for (const stdin of [bash("npm i"), "", "not json", "[1]"]) {
      const r = await run("pre-tool-use", stdin, env);
      expect(r.code).toBe(0);
      expect(r.out).toBe("");
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("hookify rule files", () => {
  const load = (name: string) => hookifyCheck(readFileSync(join(fixtures, name), "utf8"), name);

  it("reads hookify's examples as checks", () => {
    expect(load("hookify.dangerous-rm.local.md")).toMatchObject({ id: "hookify:block-dangerous-rm", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "rm\\s+-rf" }], action: "deny" });
    expect(load("hookify.console-log-warning.local.md")).toMatchObject({ tools: ["Edit", "Write", "MultiEdit"], conditions: [{ field: "new_text", pattern: "console\\.log\\(" }], action: "warn" });
    expect(load("hookify.sensitive-files-warning.local.md")).toMatchObject({ conditions: [{ field: "file_path", operator: "regex_match", pattern: "\\.env$|\\.env\\.|credentials|secrets" }] });
    expect(load("hookify.env-api-key.local.md")?.conditions).toHaveLength(2);
    expect(load("hookify.require-tests-stop.local.md")).toBeNull(); // disabled, and a stop rule
  });

  it("runs them in the hook: project rules from the payload's cwd, a warn reaches the model, Write's content counts as new_text", async () => {
    const proj = join(tmp.dir, "proj");
    mkdirSync(join(proj, ".claude"), { recursive: true });
    for (const f of readdirSync(fixtures).filter((n) => n.endsWith(".local.md"))) cpSync(join(fixtures, f), join(proj, ".claude", f));
    const env = envWith(null);
    const rm = await run("pre-tool-use", { ...bash("sudo rm -RF /tmp/x"), cwd: proj }, env);
    expect((rm.json?.["hookSpecificOutput"] as Record<string, unknown>)["permissionDecisionReason"]).toMatch(/^\[errata check hookify:block-dangerous-rm\] Dangerous rm/);
    const write = await run("pre-tool-use", { tool_name: "Write", cwd: proj, tool_input: { file_path: "/p/.env", content: "API_KEY=1\nconsole.log(1)" } }, env);
    const ctx = (write.json?.["hookSpecificOutput"] as Record<string, unknown>)["additionalContext"] as string;
    expect(ctx).toContain("hookify:warn-console-log");
    expect(ctx).toContain("hookify:warn-sensitive-files");
    expect(ctx).toContain("hookify:warn-env-file-edits");
    expect(write.json?.["hookSpecificOutput"]).not.toHaveProperty("permissionDecision");
    // A file rule never fires on Bash (hookify's event filtering).
    expect((await run("pre-tool-use", { ...bash("echo console.log("), cwd: proj }, env)).out).toBe("");
  });

  it("hookify's own test cases: block -> deny with the rule's name and message; warn does not deny; no match -> nothing", async () => {
    const proj = join(tmp.dir, "proj");
    mkdirSync(join(proj, ".claude"), { recursive: true });
    writeFileSync(join(proj, ".claude", "hookify.demo-block.local.md"), "---\nname: demo-block\nenabled: true\nevent: bash\naction: block\nconditions:\n  - field: command\n    operator: regex_match\n    pattern: hookify-demo-marker\n---\n\nDemo rule: this command is blocked on purpose.\n");
    writeFileSync(join(proj, ".claude", "hookify.demo-warn.local.md"), "---\nname: demo-warn\nenabled: true\nevent: bash\naction: warn\nconditions:\n  - field: command, operator: contains, pattern: rm -rf\n---\n\nPlease be careful with rm -rf.\n");
    const env = { ...envWith(null), CLAUDE_PROJECT_DIR: proj };
    const block = await run("pre-tool-use", bash("echo hookify-demo-marker"), env);
    expect(block.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "[errata check hookify:demo-block] Demo rule: this command is blocked on purpose." } });
    const warn = await run("pre-tool-use", bash("rm -rf /tmp/scratch"), env);
    expect(warn.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: 'The owner set a check on calls like this one (errata check hookify:demo-warn): "Please be careful with rm -rf."' } });
    expect((await run("pre-tool-use", bash("ls -la"), env)).out).toBe("");
  });

  it("hookify's loader cases: disabled rules excluded, a project rule hides a global one of the same file name, a file without frontmatter is refused by name", async () => {
    const proj = join(tmp.dir, "proj");
    const env = envWith(null);
    mkdirSync(join(proj, ".claude"), { recursive: true });
    mkdirSync(join(env["HOME"]!, ".claude"), { recursive: true });
    const rule = (name: string, enabled: boolean, pattern: string) => `---\nname: ${name}\nenabled: ${enabled}\nevent: bash\npattern: "${pattern}"\naction: block\n---\n\nno ${pattern}\n`;
    writeFileSync(join(env["HOME"]!, ".claude", "hookify.shared.local.md"), rule("global-shared", true, "curl"));
    writeFileSync(join(env["HOME"]!, ".claude", "hookify.wget.local.md"), rule("global-wget", true, "wget"));
    writeFileSync(join(proj, ".claude", "hookify.shared.local.md"), rule("project-shared", false, "curl"));
    writeFileSync(join(proj, ".claude", "hookify.invalid.local.md"), "Just raw text without frontmatter");
    const p = (c: string) => ({ ...bash(c), cwd: proj });
    const curl = await run("pre-tool-use", p("curl x"), env);
    expect(curl.out).toBe(""); // the disabled project rule hides the global one
    expect(curl.err).toContain(join(proj, ".claude", "hookify.invalid.local.md"));
    expect(curl.err).toMatch(/expected YAML frontmatter/);
    expect(((await run("pre-tool-use", p("wget x"), env)).json?.["hookSpecificOutput"] as Record<string, unknown>)["permissionDecisionReason"]).toBe("[errata check hookify:global-wget] no wget");
  });

  it("refuses what hookify would skip or never match: no pattern or conditions, an unknown operator, an unknown event", () => {
    expect(() => hookifyCheck("---\nname: x\nevent: bash\n---\nmsg", "f")).toThrow(/a pattern or a non-empty conditions list/);
    expect(() => hookifyCheck("---\nname: x\nevent: bash\nconditions:\n  - field: command\n    operator: fuzzy\n    pattern: a\n---\nm", "f")).toThrow(/operator/);
    expect(() => hookifyCheck("---\nname: x\nevent: tool\npattern: a\n---\nm", "f")).toThrow(/event bash, file/);
    expect(hookifyCheck("---\nname: x\nevent: prompt\nconditions:\n  - field: user_prompt\n    operator: contains\n    pattern: deploy\n---\nm", "f")).toBeNull();
  });
});

describe("errata hook instructions-loaded", () => {
  it("records file_path, memory_type, load_reason (and globs, trigger and parent when sent) and prints nothing", async () => {
    const env = envWith(null);
    const r = await run("instructions-loaded", { session_id: "s1", hook_event_name: "InstructionsLoaded", file_path: "/p/.claude/rules/api.md", memory_type: "Project", load_reason: "path_glob_match", globs: ["src/api/**"], trigger_file_path: "/p/src/api/a.ts" }, env);
    expect(r.out).toBe("");
    expect(r.err).toBe("");
    const rows = readFileSync(join(env["ERRATA_DIR"]!, "ladder", "instructions-loaded.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as unknown);
    expect(rows).toEqual([
      { v: 1, ts: "2026-11-30T12:00:00.000Z", session_id: "s1", file_path: "/p/.claude/rules/api.md", memory_type: "Project", load_reason: "path_glob_match", globs: ["src/api/**"], trigger_file_path: "/p/src/api/a.ts", parent_file_path: null },
    ]);
  });

  it("without file_path records nothing and says so", async () => {
    const env = envWith(null);
    const r = await run("instructions-loaded", { session_id: "s1" }, env);
    expect(r.err).toMatch(/no file_path/);
    expect(existsSync(join(env["ERRATA_DIR"]!, "ladder", "instructions-loaded.jsonl"))).toBe(false);
  });
});
