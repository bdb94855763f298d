// Rung 3 in the real Claude Code client: Errata's PreToolUse answers as the client acts on them.
// One `claude -p` session whose scripted model makes six tool calls in a row: a deny (the model
// receives the reason as that call's tool_result and the command never runs), a rewrite
// (`updatedInput`: the command that ran is the rewritten one), a warning (`additionalContext` in
// the next request, the command runs), a hookify file's block, a check in shadow (the model sees
// the plain result, as with no check at all), and an ask with nobody to answer (print mode). The
// first two tests read that one session (one client start instead of two). Then an ask with the
// owner answering through the client's permission prompt tool (yes, then no).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { clientReady, clientSession, CLAUDE_CODE_VERSION, type ClientRun, HANG_GUARD_MS, installErrata, readmeHooks, repoRoot, runClient, workspace, type Workspace } from "./client.js";
import { contentText, startModelServer, toolResultFor, toolUseIdOf, type ModelServer, type RecordedRequest } from "./model-server.js";

const ready = clientReady();

const checks = [
  { id: "no-npm", rule_id: "claude.tools.pnpm01", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "active" },
  {
    id: "colour-to-color",
    rule_id: null,
    tools: ["Bash"],
    conditions: [{ field: "command", operator: "contains", pattern: "colour" }],
    action: "rewrite",
    message: "American spelling in generated files.",
    rewrite: { field: "command", pattern: "colour", replacement: "color", decision: "allow" },
    mode: "active",
  },
  { id: "push-warning", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "git push" }], action: "warn", message: "Pushing: say which branch first.", mode: "active" },
  { id: "shadow-touch", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "shadowed" }], action: "deny", message: "Never touch shadowed files.", mode: "shadow" },
  { id: "ask-deploy", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "deploy" }], action: "ask", message: "Deploys need the owner's yes.", mode: "active" },
];

/** The tool_result text of the request that followed the model's k-th tool call (0-based). */
function resultAfter(main: RecordedRequest[], k: number): { text: string; isError: boolean | undefined } {
  const block = toolResultFor(main[k + 1]!.body, toolUseIdOf(main[k]!)!);
  expect(block, `a tool_result after tool call ${k}`).toBeDefined();
  return { text: contentText([block!]), isError: block!.is_error };
}

const allText = (q: RecordedRequest) => (q.body.messages ?? []).map((m) => contentText(m.content)).join("\n");

describe.skipIf(!ready)(`rung 3 in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let ws: Workspace;
  let tidy: ClientRun;
  /** The tidy-up session's own requests: one per tool call, then the last reply's. */
  let main: RecordedRequest[];
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-rung3-");
    const bin = await installErrata();
    server = await startModelServer();
    ws = workspace(tmp.dir, bin, { hooks: readmeHooks({ record: true }), claudeMd: "# Project\n\n- Use pnpm, never npm.\n" });
    mkdirSync(join(ws.ledger, "ladder"), { recursive: true });
    writeFileSync(join(ws.ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks }));
    // hookify's own example file, as hookify ships it, in the project's .claude/.
    const hookify = readFileSync(join(repoRoot, "test", "ladder", "fixtures", "hookify", "hookify.dangerous-rm.local.md"), "utf8");
    writeFileSync(join(ws.project, ".claude", "hookify.dangerous-rm.local.md"), hookify);

    // The session the first two tests read: six tool calls, one `claude -p` run.
    mkdirSync(join(ws.project, "build-cache"));
    server.script([
      { tool: "Bash", input: { command: "npm --version > npm-ran.txt", description: "npm version" } },
      { tool: "Bash", input: { command: "echo colour > spelling.txt", description: "write spelling" } },
      { tool: "Bash", input: { command: "echo git push origin main > pushed.txt", description: "note a push" } },
      { tool: "Bash", input: { command: "rm -rf build-cache", description: "clean" } },
      { tool: "Bash", input: { command: "echo shadowed > shadowed.txt", description: "touch" } },
      { tool: "Bash", input: { command: "echo deploy > deployed.txt", description: "deploy" } },
      { text: "All six done." },
    ]);
    const asked = server.requests.length;
    tidy = await runClient(ws, server.url, "Tidy up the workspace.");
    main = server.requests.slice(asked).filter((q) => q.main);
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("deny, rewrite, warn, a hookify block and a shadow check, as the model and the tool see them", () => {
    expect(tidy.code, tidy.stderr).toBe(0);
    expect(tidy.stdout.trim()).toBe("All six done.");
    expect(server.pending()).toBe(0);
    expect(main).toHaveLength(7);

    // deny: the reason is the tool_result, and npm never ran.
    const deny = resultAfter(main, 0);
    expect(deny.text).toContain("[errata check no-npm, rule claude.tools.pnpm01] Use pnpm, never npm.");
    expect(deny.isError).toBe(true);
    expect(existsSync(join(ws.project, "npm-ran.txt"))).toBe(false);

    // rewrite (allow): the command that ran is the rewritten one.
    expect(readFileSync(join(ws.project, "spelling.txt"), "utf8")).toBe("color\n");
    expect(resultAfter(main, 1).isError).not.toBe(true);

    // warn: the command ran, and the warning reached the model in the next request.
    expect(existsSync(join(ws.project, "pushed.txt"))).toBe(true);
    expect(allText(main[3]!)).toContain("Pushing: say which branch first.");
    expect(allText(main[2]!)).not.toContain("Pushing: say which branch first.");

    // hookify's block: denied with hookify's message as the reason.
    const hookify = resultAfter(main, 3);
    expect(hookify.text).toContain("Dangerous rm command detected.");
    expect(hookify.isError).toBe(true);
    expect(existsSync(join(ws.project, "build-cache"))).toBe(true);

    // shadow: the command ran and the model saw only its output; the log says it fired, deciding nothing.
    expect(readFileSync(join(ws.project, "shadowed.txt"), "utf8")).toBe("shadowed\n");
    const shadow = resultAfter(main, 4);
    expect(shadow.isError).not.toBe(true);
    expect(allText(main[5]!)).not.toContain("Never touch shadowed files");
    expect(allText(main[5]!)).not.toContain("shadow-touch");

    const events = readFileSync(join(ws.ledger, "ladder", "tool-events.jsonl"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const fired = events.filter((e) => e["fired"] === true).map((e) => [e["check"], e["mode"], e["decision"]]);
    expect(fired).toEqual([
      ["no-npm", "active", "deny"],
      ["colour-to-color", "active", "allow"],
      ["push-warning", "active", "warn"],
      ["hookify:block-dangerous-rm", "active", "deny"],
      ["shadow-touch", "shadow", null],
      ["ask-deploy", "active", "ask"],
    ]);
    // Each logged line names the tool call the client sent.
    const ids = main.slice(0, 6).map((q) => toolUseIdOf(q));
    expect(events.filter((e) => e["fired"] === true).map((e) => e["tool_use_id"])).toEqual(ids);
  });

  it("ask, in print mode: the client asks nobody, and the model is told the call was not allowed", () => {
    expect(tidy.code, tidy.stderr).toBe(0);
    const result = resultAfter(main, 5);
    expect(existsSync(join(ws.project, "deployed.txt"))).toBe(false);
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Deploys need the owner's yes.");
  });

  it("ask, the owner answering at the permission prompt: yes runs the call, no tells the model the owner's reason", async () => {
    const answer = join(tmp.dir, "answer.txt");
    const asked = join(tmp.dir, "asked.jsonl");
    const mcp = join(tmp.dir, "owner-mcp.json");
    writeFileSync(mcp, JSON.stringify({ mcpServers: { owner: { command: process.execPath, args: [join(repoRoot, "test", "e2e", "owner-answer.cjs")] } } }));
    const args = ["--mcp-config", mcp, "--permission-prompt-tool", "mcp__owner__answer"];
    const env = { ERRATA_E2E_ANSWER: answer, ERRATA_E2E_ASKED: asked };

    // Two turns of one session, in one client process (the owner's answer file changes between them).
    const session = clientSession(ws, server.url, { args, env });
    // Yes: the call runs as the model asked.
    writeFileSync(answer, "allow");
    server.script([{ tool: "Bash", input: { command: "echo deploy > deployed-yes.txt", description: "deploy" } }, { text: "Deployed." }]);
    let from = server.requests.length;
    let r = await session.turn("Deploy it.");
    expect(r).toMatchObject({ subtype: "success", is_error: false, result: "Deployed." });
    let main = server.requests.slice(from).filter((q) => q.main);
    expect(readFileSync(join(ws.project, "deployed-yes.txt"), "utf8")).toBe("deploy\n");
    expect(resultAfter(main, 0).isError).not.toBe(true);
    // The owner was asked about exactly that call.
    const questions = readFileSync(asked, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { tool_name: string; input: { command: string }; tool_use_id?: string });
    expect(questions.map((q) => [q.tool_name, q.input.command])).toEqual([["Bash", "echo deploy > deployed-yes.txt"]]);

    // No: the call does not run, and the model receives the owner's reason.
    writeFileSync(answer, "deny Not on a Friday.");
    server.script([{ tool: "Bash", input: { command: "echo deploy > deployed-no.txt", description: "deploy" } }, { text: "Not deployed." }]);
    from = server.requests.length;
    r = await session.turn("Deploy it again.");
    expect(r).toMatchObject({ subtype: "success", is_error: false, result: "Not deployed." });
    const ended = await session.end();
    expect(ended.code, ended.stderr).toBe(0);
    main = server.requests.slice(from).filter((q) => q.main);
    expect(existsSync(join(ws.project, "deployed-no.txt"))).toBe(false);
    const refused = resultAfter(main, 0);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Not on a Friday.");

    // The check's log: both calls fired the ask; the owner's answer is the client's, not the log's.
    const events = readFileSync(join(ws.ledger, "ladder", "tool-events.jsonl"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const asks = events.filter((e) => e["check"] === "ask-deploy" && e["fired"] === true).slice(-2);
    expect(asks.map((e) => [e["decision"], e["tool_use_id"]])).toEqual([["ask", toolUseIdOf(server.requests.filter((q) => q.main).at(-4)!)], ["ask", toolUseIdOf(main[0]!)]]);
  });
});
