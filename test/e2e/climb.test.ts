// The climb that edits a rule file, in the real Claude Code client: the owner's rule lives at
// rung 1, in a path-scoped file (`.claude/rules/tools.md`, `paths: package.json`) that the
// client loads when the model reads the project's package.json. In two sessions the model reads
// package.json (the rule loads: InstructionsLoaded), runs npm anyway, and the owner corrects it
// (each session one client process taking both prompts) -> `errata daily` -> two incidents on
// that rule, in view -> diagnosis "climb" -> a proposal 1 -> 2, "a line appended to CLAUDE.md"
// -> `errata rules approve` -> CLAUDE.md carries the line -> the next session's request carries
// it to the model (the client sends instruction files in the first user message as `Contents of
// <path>`). Then `errata rules undo` takes it back and the session after that no longer carries
// it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { askThenCorrect, clientReady, CLAUDE_CODE_VERSION, errataCli as errata, errataJson, HANG_GUARD_MS, installErrata, readmeHooks, readPayloads, runClient, workspace, type Workspace } from "./client.js";
import { contentText, startModelServer, type ModelServer, type RecordedRequest } from "./model-server.js";

const ready = clientReady();
const CLAUDE_MD = "# Project\n\n- Keep commits small and focused on one change.\n";
const RULE = "Use pnpm, never npm.";
const RULES_MD = `---\npaths:\n  - "package.json"\n---\n\n# Packages\n\n- ${RULE}\n`;
const jsonl = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);

/** The text of the first main request of a session: the user message the client built (instruction files included). */
const firstUserText = (q: RecordedRequest): string => (q.body.messages ?? []).filter((m) => m.role === "user").map((m) => contentText(m.content)).join("\n");

type Stage = { name: string; ok: boolean; counts: Record<string, number> };

describe.skipIf(!ready)(`a climb that edits a rule file, in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let ws: Workspace;
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-climb-");
    const bin = await installErrata();
    server = await startModelServer();
    ws = workspace(tmp.dir, bin, { hooks: readmeHooks({ record: true }), claudeMd: CLAUDE_MD });
    mkdirSync(join(ws.project, ".claude", "rules"), { recursive: true });
    writeFileSync(join(ws.project, ".claude", "rules", "tools.md"), RULES_MD);
    writeFileSync(join(ws.project, "package.json"), `${JSON.stringify({ name: "demo", version: "1.0.0" }, null, 2)}\n`);
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("a rung-1 rule broken twice in view -> climb 1 -> 2 -> approve -> the next session's request carries the line; undo takes it back", async () => {
    const built = errataJson<{ ok: boolean; units: number }>(ws, ["rules", "build"]);
    expect(built).toMatchObject({ ok: true, units: 2 });

    const sessions: string[] = [];
    const before = server.requests.length;
    for (let s = 0; s < 2; s++) {
      server.script([
        { tool: "Read", input: { file_path: join(ws.project, "package.json") } },
        { tool: "Bash", input: { command: "npm ls --depth=0", description: "List the packages" } },
        { text: "The project has no dependencies (listed with npm)." },
        { tool: "Bash", input: { command: "pnpm ls --depth=0 || true", description: "List the packages" } },
        { text: "Sorry: listed again with pnpm." },
      ]);
      // The question and the owner's correction: two turns of one session, in one client process.
      sessions.push(await askThenCorrect(ws, server, "Which packages does the project have?", "No, that's wrong. I told you to use pnpm, not npm."));
    }
    // Before the climb, a session starts without the rule: CLAUDE.md is carried, the path-scoped file is not.
    const opening = firstUserText(server.requests.slice(before).find((q) => q.main)!);
    expect(opening).toContain(`Contents of ${join(ws.project, "CLAUDE.md")}`);
    expect(opening).not.toContain(RULE);
    // The path-scoped file loaded in each session, after the read of package.json.
    const loaded = readPayloads(ws).filter((p) => p.event === "InstructionsLoaded" && String(p.payload["file_path"]).endsWith(join(".claude", "rules", "tools.md")));
    expect(new Set(loaded.map((p) => p.payload["session_id"]))).toEqual(new Set(sessions));

    const night = errataJson<{ ok: boolean; stages: Stage[] }>(ws, ["daily", "--root", join(ws.home, ".claude", "projects")]);
    expect(night.ok).toBe(true);
    // The ladder's rule lines (written by the night's ladder stage): the rule at rung 1.
    const rules = jsonl(join(ws.ledger, "ladder", "rules.jsonl")).filter((l) => l["kind"] === "rule");
    const rule = rules.find((l) => String(l["text"]).includes(RULE))!;
    expect(rule, JSON.stringify(rules)).toBeDefined();
    const ruleId = String(rule["rule_id"]);
    const incidents = jsonl(join(ws.ledger, "ladder", "rules.jsonl")).filter((l) => l["kind"] === "incident");
    expect(incidents.map((i) => [i["rule_id"], i["session_id"], i["in_view"]]).sort()).toEqual(sessions.map((s) => [ruleId, s, true]).sort());

    const proposals = errataJson<{ proposals: Array<Record<string, any>> }>(ws, ["rules", "approvals"]).proposals;
    const climb = proposals.find((p) => p["rule_id"] === ruleId)!;
    expect(climb, JSON.stringify(proposals)).toMatchObject({ type: "climb", diagnosis: "climb", from_rung: 1, to_rung: 2, status: "pending" });

    // The owner's yes: one line appended to CLAUDE.md, a backup kept.
    const approved = errata(ws, ["rules", "approve", String(climb["id"])]);
    expect(approved.code, approved.err).toBe(0);
    const edited = readFileSync(join(ws.project, "CLAUDE.md"), "utf8");
    expect(edited.startsWith(CLAUDE_MD.trimEnd())).toBe(true);
    expect(edited.slice(CLAUDE_MD.length)).toContain(RULE);

    // The next session: the client carries the edited CLAUDE.md to the model before any file is read.
    server.script([{ text: "Noted." }]);
    let from = server.requests.length;
    expect((await runClient(ws, server.url, "What are the project's rules?")).code).toBe(0);
    let main = server.requests.slice(from).filter((q) => q.main);
    let carried = firstUserText(main[0]!);
    expect(carried).toContain(`Contents of ${join(ws.project, "CLAUDE.md")}`);
    expect(carried).toContain(RULE);

    // Undo: the backup back; the session after that no longer carries the line.
    const undone = errata(ws, ["rules", "undo", String(climb["id"])]);
    expect(undone.code, undone.err).toBe(0);
    expect(readFileSync(join(ws.project, "CLAUDE.md"), "utf8")).toBe(CLAUDE_MD);
    server.script([{ text: "Noted." }]);
    from = server.requests.length;
    expect((await runClient(ws, server.url, "What are the project's rules?")).code).toBe(0);
    main = server.requests.slice(from).filter((q) => q.main);
    carried = firstUserText(main[0]!);
    expect(carried).toContain(`Contents of ${join(ws.project, "CLAUDE.md")}`);
    expect(carried).not.toContain(RULE);
  });
});
