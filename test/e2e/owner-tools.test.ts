// The owner's side of the tool path in the real client (Claude Code, pinned), Errata installed
// from its packed tarball:
// 1. the per-check handlers `errata rules hooks --write` puts in the project's settings: a tool
//    call no check can match starts no process (a wrapper around errata-tool-hook marks every
//    start), a matching one starts its check's handler and is denied, the reason reaching the model;
// 2. the owner refusing a call in the permission dialog (the owner-answer stand-in, as
//    rung3.test.ts) becomes a correction signal the nightly run counts: an incident of the rule
//    the owner's words name, signal `rejected`;
// 3. a warning about a tool's output from `errata-tool-hook post-tool-use` (PostToolUse): it
//    reaches the model beside the tool's result, phrased as a fact, and only when the output matches;
// 4. `/errata pane` in `claude -p` with the mod: answered by the mod without a model turn (the
//    scripted model is asked nothing), the pane's text (the morning report, the approval table)
//    reaching the owner on stdout.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { clientReady, CLAUDE_CODE_VERSION, errataCli, errataJson, HANG_GUARD_MS, installErrata, repoRoot, runClient, workspace } from "./client.js";
import { contentText, startModelServer, toolResultFor, toolUseIdOf, type ModelServer, type RecordedRequest } from "./model-server.js";

const ready = clientReady();
const jsonl = (file: string): Array<Record<string, unknown>> => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>) : []);

function resultAfter(main: RecordedRequest[], k: number): { text: string; isError: boolean | undefined } {
  const block = toolResultFor(main[k + 1]!.body, toolUseIdOf(main[k]!)!);
  expect(block, `a tool_result after tool call ${k}`).toBeDefined();
  return { text: contentText([block!]), isError: block!.is_error };
}

describe.skipIf(!ready)(`the owner's side of the tool path in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let bin: string;

  beforeAll(async () => {
    tmp = tempDir("errata-e2e-owner-tools-");
    bin = await installErrata();
    server = await startModelServer();
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("per-check handlers: a call no check can match starts no process; a matching one starts its check's handler and is denied", async () => {
    // A bin folder whose errata-tool-hook marks each start, then runs the installed one.
    const wrap = join(tmp.dir, "wrap-bin");
    mkdirSync(wrap, { recursive: true });
    const marker = join(tmp.dir, "tool-hook-starts.txt");
    writeFileSync(join(wrap, "errata-tool-hook"), `#!/bin/sh\necho "$*" >> ${JSON.stringify(marker)}\nexec ${JSON.stringify(join(bin, "errata-tool-hook"))} "$@"\n`);
    chmodSync(join(wrap, "errata-tool-hook"), 0o755);
    symlinkSync(join(bin, "errata"), join(wrap, "errata"));
    // The README's hooks, then the per-check handlers written over its unfiltered PreToolUse one.
    const ws = workspace(join(tmp.dir, "handlers"), wrap, { hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "errata-tool-hook pre-tool-use" }] }] } });
    mkdirSync(join(ws.ledger, "ladder"), { recursive: true });
    const checks = [
      { id: "no-npm", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "active" },
      { id: "env-write", rule_id: null, tools: ["Write"], conditions: [{ field: "file_path", operator: "ends_with", pattern: ".env" }], action: "deny", message: "Not .env.", mode: "active" },
    ];
    writeFileSync(join(ws.ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks }));
    const wrote = errataCli(ws, ["rules", "hooks", "--write"]);
    expect(wrote.code, wrote.err).toBe(0);
    expect(wrote.out).toContain("wrote 2 per-check handlers");
    const settings = JSON.parse(readFileSync(join(ws.project, ".claude", "settings.json"), "utf8")) as { hooks: { PreToolUse: unknown[] } };
    expect(settings.hooks.PreToolUse).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", if: "Bash(npm*)", command: "errata-tool-hook pre-tool-use --check no-npm" }] },
      { matcher: "Write", hooks: [{ type: "command", command: "errata-tool-hook pre-tool-use --check env-write" }] },
    ]);

    server.script([
      { tool: "Bash", input: { command: "ls > listed.txt", description: "list" } },
      { tool: "Bash", input: { command: "git status > status.txt", description: "status" } },
      { tool: "Bash", input: { command: "npm --version > npm-ran.txt", description: "npm version" } },
      { text: "Done." },
    ]);
    const from = server.requests.length;
    const r = await runClient(ws, server.url, "Look around.");
    expect(r.code, r.stderr).toBe(0);
    const main = server.requests.slice(from).filter((q) => q.main);
    // Two calls no check matches ran, and no errata-tool-hook started for them; the npm call started exactly its check's handler.
    expect(existsSync(join(ws.project, "listed.txt"))).toBe(true);
    expect(existsSync(join(ws.project, "status.txt"))).toBe(true);
    expect(readFileSync(marker, "utf8").split("\n").filter((l) => l !== "")).toEqual(["pre-tool-use --check no-npm"]);
    // Denied: nothing ran, and the model read the check's reason.
    expect(existsSync(join(ws.project, "npm-ran.txt"))).toBe(false);
    const denied = resultAfter(main, 2);
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain("Use pnpm, never npm.");
    expect(resultAfter(main, 0).isError).not.toBe(true);
    // Its one tool-event line.
    expect(jsonl(join(ws.ledger, "ladder", "tool-events.jsonl")).map((e) => [e["check"], e["fired"], e["decision"]])).toEqual([["no-npm", true, "deny"]]);
  });

  it("the owner's no in the permission dialog is a correction the nightly run counts: an incident of the rule their words name, signal rejected", async () => {
    const RULE = "Never create files in the project root; put scratch files under tmp/.";
    const ws = workspace(join(tmp.dir, "rejection"), bin, { hooks: {}, claudeMd: `# Project\n\n## Files\n\n- ${RULE}\n` });
    const answer = join(tmp.dir, "answer.txt");
    const mcp = join(tmp.dir, "owner-mcp.json");
    writeFileSync(mcp, JSON.stringify({ mcpServers: { owner: { command: process.execPath, args: [join(repoRoot, "test", "e2e", "owner-answer.cjs")] } } }));
    writeFileSync(answer, "deny No. Never create files in the project root, scratch files go under tmp/.");
    expect(errataJson<{ ok: boolean }>(ws, ["rules", "build"]).ok).toBe(true);
    // Write is not among the allowed tools: the client asks the owner, who says no.
    server.script([{ tool: "Write", input: { file_path: join(ws.project, "notes.txt"), content: "scratch" } }, { text: "Understood." }]);
    const r = await runClient(ws, server.url, "Jot down some notes.", { args: ["--mcp-config", mcp, "--permission-prompt-tool", "mcp__owner__answer"], env: { ERRATA_E2E_ANSWER: answer } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(ws.project, "notes.txt"))).toBe(false);
    const night = errataJson<{ ok: boolean }>(ws, ["daily", "--root", join(ws.home, ".claude", "projects")]);
    expect(night.ok).toBe(true);
    const ledger = jsonl(join(ws.ledger, "ladder", "rules.jsonl"));
    const rule = ledger.find((l) => l["kind"] === "rule" && String(l["text"]).includes("Never create files in the project root"));
    expect(rule, JSON.stringify(ledger.filter((l) => l["kind"] === "rule"))).toBeDefined();
    const incidents = ledger.filter((l) => l["kind"] === "incident");
    expect(incidents.map((i) => [i["rule_id"], i["signal"]]), JSON.stringify(incidents)).toEqual([[rule!["rule_id"], "rejected"]]);
  });

  it("a warning about a tool's output reaches the model beside the result, phrased as a fact, only when the output matches", async () => {
    const ws = workspace(join(tmp.dir, "post"), bin, { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "errata-tool-hook post-tool-use" }] }] } });
    mkdirSync(join(ws.ledger, "ladder"), { recursive: true });
    const check = { id: "tests-skipped", rule_id: null, tools: ["Bash"], conditions: [{ field: "output", operator: "regex_match", pattern: "\\b[1-9]\\d* skipped\\b" }], action: "warn", message: "Skipped tests count as failures here.", mode: "active" };
    writeFileSync(join(ws.ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [check] }));
    server.script([
      { tool: "Bash", input: { command: "echo 'Tests: 40 passed, 0 skipped'", description: "tests" } },
      { tool: "Bash", input: { command: "echo 'Tests: 40 passed, 3 skipped'", description: "tests again" } },
      { text: "Done." },
    ]);
    const from = server.requests.length;
    const r = await runClient(ws, server.url, "Run the tests.");
    expect(r.code, r.stderr).toBe(0);
    const main = server.requests.slice(from).filter((q) => q.main);
    const WARNING = 'The owner set a check on calls like this one (errata check tests-skipped): "Skipped tests count as failures here."';
    const text = (q: RecordedRequest) => (q.body.messages ?? []).map((m) => contentText(m.content)).join("\n");
    // After the first call (0 skipped) the model reads no warning; after the second (3 skipped) it does, once.
    expect(text(main[1]!)).not.toContain(WARNING);
    expect(text(main[2]!).split(WARNING).length - 1).toBe(1);
    expect(resultAfter(main, 1).text).toContain("3 skipped");
    expect(jsonl(join(ws.ledger, "ladder", "tool-events.jsonl")).map((e) => [e["check"], e["fired"], e["decision"]])).toEqual([["tests-skipped", false, null], ["tests-skipped", true, "warn"]]);
  });

  it("/errata pane in claude -p with the mod: answered without a model turn, the pane's text on stdout", async () => {
    const ws = workspace(join(tmp.dir, "pane"), bin, { hooks: {} });
    const modDir = join(dirname(bin), "errata", "mod");
    const from = server.requests.length;
    const r = await runClient(ws, server.url, "/errata pane", { args: ["--plugin-dir", modDir] });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.slice(from).filter((q) => q.main)).toEqual([]);
    expect(r.stdout).toContain("Errata rules, morning of");
    expect(r.stdout).toContain("Approval table:");
    expect(r.stdout).toContain("No proposal waiting.");
    expect(r.stdout).toMatch(/the pane is not drawn here: .*no-surface/);
  });
});
