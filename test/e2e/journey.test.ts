// The seed's journey, whole, in the real Claude Code client: the owner's CLAUDE.md says "Use
// pnpm, never npm."; in two sessions the scripted model runs npm and the owner corrects it ->
// `errata daily` (exchanges, v4, the ladder stage) -> two incidents on that rule -> diagnosis
// "climb" -> a proposal -> `errata rules approve` -> the check in shadow (a clean session logs
// it, the model sees nothing) -> enough sessions replayed to pass the gate -> a leave_shadow
// proposal -> approved, active -> in a later session the model's npm call is blocked and the
// model receives why. Each step's artifact is asserted. The commands are the installed
// tarball's `errata`, run in the project with the scratch HOME, as the owner would type them.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { askThenCorrect, clientReady, CLAUDE_CODE_VERSION, errataCli as errata, errataJson, HANG_GUARD_MS, installErrata, ledgerRows, readmeHooks, runClient, transcripts, workspace, type Workspace } from "./client.js";
import { contentText, startModelServer, toolResultFor, toolUseIdOf, type ModelServer } from "./model-server.js";

const ready = clientReady();
const CLAUDE_MD = "# Project\n\n## Tools\n\n- Use pnpm, never npm.\n- Keep commits small and focused on one change.\n";
const jsonl = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);


type Stage = { name: string; ok: boolean; counts: Record<string, number> };
const stage = (daily: { stages: Stage[] }, name: string) => daily.stages.find((s) => s.name === name)!;

/**
 * Copies of a session the client wrote, each a new session (its id, tool call ids and file
 * renamed) started `hoursBack` hours earlier: the past week's clean sessions, replayed through
 * the check by the auditor as the gate asks (88 clean sessions, 7 days).
 */
function replaySessions(file: string, n: number, spanHours: number): void {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  const session = basename(file, ".jsonl");
  for (let k = 0; k < n; k++) {
    const id = `${session.slice(0, 24)}${String(k).padStart(12, "0")}`;
    const shift = Math.round(((k + 1) * spanHours * 3_600_000) / n);
    const out = lines.map((l) => {
      const rec = JSON.parse(l) as Record<string, unknown>;
      if (typeof rec["timestamp"] === "string") rec["timestamp"] = new Date(Date.parse(rec["timestamp"]) - shift).toISOString();
      return JSON.stringify(rec).replaceAll(session, id).replaceAll("toolu_e2e", `toolu_r${k}_`);
    });
    writeFileSync(join(dirname(file), `${id}.jsonl`), `${out.join("\n")}\n`);
  }
}

describe.skipIf(!ready)(`the journey in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let ws: Workspace;
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-journey-");
    const bin = await installErrata();
    server = await startModelServer();
    ws = workspace(tmp.dir, bin, { hooks: readmeHooks({ record: true }), claudeMd: CLAUDE_MD });
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("broken twice -> daily -> incidents -> climb proposal -> approve -> shadow -> gate -> active -> the model told why", async () => {
    // The owner indexes the project's rules once.
    expect(errataJson(ws, ["rules", "build"])).toMatchObject({ ok: true, units: 2 });

    // Two sessions: the model runs npm, the owner corrects it, the model redoes it with pnpm.
    const sessions: string[] = [];
    for (let s = 0; s < 2; s++) {
      server.script([
        { tool: "Bash", input: { command: "npm ls --depth=0", description: "List the packages" } },
        { text: "The project has no packages yet (listed with npm)." },
        { tool: "Bash", input: { command: "pnpm ls --depth=0 || true", description: "List the packages" } },
        { text: "Sorry: listed again with pnpm." },
      ]);
      // The question and the owner's correction: two turns of one session, in one client process.
      sessions.push(await askThenCorrect(ws, server, "Which packages does the project have?", "No, that's wrong. I told you to use pnpm, not npm."));
    }
    expect(new Set(sessions).size).toBe(2);
    // The capture: one correction row per session.
    expect(ledgerRows(ws).map((r) => [r["kind"], (r["context"] as { session_id: string }).session_id])).toEqual(sessions.map((s) => ["correction", s]));
    // The Stop hook's reflection sorted each correction by cause, from the client's transcript.
    const sorted = jsonl(join(ws.ledger, "ladder", "sorted.jsonl"));
    expect(sorted.map((x) => [x["session_id"], x["cause"], x["by"]])).toEqual(sessions.map((s) => [s, "rule_gap", "reflection"]));

    // Night 1: errata daily on the transcripts the client wrote.
    const night1 = errataJson<{ ok: boolean; stages: Stage[] }>(ws, ["daily", "--root", join(ws.home, ".claude", "projects")]);
    expect(night1.ok).toBe(true);
    expect(stage(night1, "mine").counts).toMatchObject({ root_files: 2, prompts: 4, already_captured: 2, written: 0 });
    expect(stage(night1, "v4").counts).toMatchObject({ transcript_files: 2, new_exchanges: 4, exchanges: 4 });
    expect(stage(night1, "ladder").counts).toMatchObject({ rules_added: 2, transcripts: 2, turns: 4, incidents: 2, proposals: 1 });
    const exchanges = jsonl(join(ws.ledger, "v4", "exchanges.jsonl"));
    expect(exchanges).toHaveLength(4);

    // The incidents are on the pnpm rule, one per session, the rule in view (InstructionsLoaded).
    const ruleLines = jsonl(join(ws.ledger, "ladder", "rules.jsonl"));
    const pnpmRule = ruleLines.find((l) => l["kind"] === "rule" && String(l["text"]).includes("Use pnpm, never npm."))!;
    const ruleId = String(pnpmRule["rule_id"]);
    const incidents = ruleLines.filter((l) => l["kind"] === "incident");
    expect(incidents.map((i) => [i["rule_id"], i["session_id"], i["in_view"], i["cause"]]).sort()).toEqual(sessions.map((s) => [ruleId, s, true, "rule_gap"]).sort());

    // The diagnosis and the proposal: climb 2 -> 3, a check in shadow drafted from "never npm".
    const pending = errataJson<{ proposals: Array<Record<string, any>> }>(ws, ["rules", "approvals"]).proposals;
    expect(pending).toHaveLength(1);
    const climb = pending[0]!;
    expect(climb).toMatchObject({ type: "climb", rule_id: ruleId, diagnosis: "climb", from_rung: 2, to_rung: 3, status: "pending" });
    expect(climb["edit"]["check"]).toMatchObject({ rule_id: ruleId, tools: ["Bash"], action: "deny", mode: "shadow", message: "Use pnpm, never npm.", conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|(]\\s*)npm\\b" }] });
    expect(climb["evidence"].filter((e: string) => e.startsWith("inc-"))).toHaveLength(2);

    // The owner's yes: the check is installed in shadow; CLAUDE.md is untouched.
    const approved = errata(ws, ["rules", "approve", climb["id"]]);
    expect(approved.code, approved.err).toBe(0);
    const checksFile = join(ws.ledger, "ladder", "checks.json");
    const checkId = String(climb["edit"]["check"]["id"]);
    expect((JSON.parse(readFileSync(checksFile, "utf8")) as { checks: Array<{ id: string; mode: string }> }).checks.map((c) => [c.id, c.mode])).toEqual([[checkId, "shadow"]]);
    expect(readFileSync(join(ws.project, "CLAUDE.md"), "utf8")).toBe(CLAUDE_MD);

    // A clean session with the check in shadow: logged as eligible, not fired; the model sees the plain result.
    server.script([{ tool: "Bash", input: { command: "pnpm ls --depth=0 || true", description: "List the packages" } }, { text: "Listed with pnpm." }]);
    const asked = server.requests.length;
    expect((await runClient(ws, server.url, "List the packages again, please.")).code).toBe(0);
    const cleanMain = server.requests.slice(asked).filter((q) => q.main);
    expect(contentText([toolResultFor(cleanMain[1]!.body, toolUseIdOf(cleanMain[0]!)!)!])).not.toContain("errata");
    const events = jsonl(join(ws.ledger, "ladder", "tool-events.jsonl")).filter((e) => e["check"] === checkId);
    expect(events.map((e) => [e["mode"], e["fired"], e["tool_use_id"]])).toEqual([["shadow", false, toolUseIdOf(cleanMain[0]!)]]);

    // The past week's clean sessions, replayed: 90 copies of that session over nine days.
    const clean = transcripts(ws).find((f) => readFileSync(f, "utf8").includes("List the packages again, please."))!;
    replaySessions(clean, 90, 9 * 24);

    // Night 2: the gate passes, and the check may leave shadow only with the owner's yes.
    const night2 = errataJson<{ ok: boolean; stages: Stage[] }>(ws, ["daily", "--root", join(ws.home, ".claude", "projects")]);
    expect(stage(night2, "ladder").counts).toMatchObject({ shadow_checks: 1 });
    // Nothing else waits: the corrections named the pnpm rule only, never the file's other rule
    // ("Keep commits small ...", which the keyword naming and the first naming model also took).
    const waiting = errataJson<{ proposals: Array<Record<string, any>> }>(ws, ["rules", "approvals"]).proposals;
    expect(waiting.map((p) => [p["type"], p["rule_id"]])).toEqual([["leave_shadow", ruleId]]);
    expect(jsonl(join(ws.ledger, "ladder", "rules.jsonl")).filter((l) => l["kind"] === "incident").map((l) => l["rule_id"])).toEqual([ruleId, ruleId]);
    const leave = waiting.filter((p) => p["type"] === "leave_shadow");
    expect(leave.map((p) => [p["type"], p["rule_id"]])).toEqual([["leave_shadow", ruleId]]);
    const verdict = (leave[0]!["evidence"] as string[]).find((e) => e.startsWith(`${checkId}:`))!;
    expect(verdict).toMatch(/: (9\d) sessions, 0 with a false alarm, .* gate passed$/);
    const receipts = jsonl(join(ws.ledger, "ladder", "receipts.jsonl")).map((r) => r["loop"]);
    expect(receipts).toEqual(expect.arrayContaining(["audit", "shadow"]));
    // Still in shadow until then.
    expect((JSON.parse(readFileSync(checksFile, "utf8")) as { checks: Array<{ mode: string }> }).checks[0]!.mode).toBe("shadow");
    expect(errata(ws, ["rules", "approve", leave[0]!["id"]]).code).toBe(0);
    expect((JSON.parse(readFileSync(checksFile, "utf8")) as { checks: Array<{ mode: string }> }).checks[0]!.mode).toBe("active");

    // A later session: the model's npm call is blocked, and the model receives why.
    server.script([{ tool: "Bash", input: { command: "npm install lodash", description: "Add lodash" } }, { text: "Blocked; I will use pnpm." }]);
    const later = server.requests.length;
    const r = await runClient(ws, server.url, "Add lodash to the project.");
    expect(r.code, r.stderr).toBe(0);
    const main = server.requests.slice(later).filter((q) => q.main);
    const result = toolResultFor(main[1]!.body, toolUseIdOf(main[0]!)!)!;
    expect(result.is_error).toBe(true);
    expect(contentText([result])).toContain(`[errata check ${checkId}, rule ${ruleId}] Use pnpm, never npm.`);
    expect(readdirSync(ws.project)).not.toContain("node_modules");
    const fired = jsonl(join(ws.ledger, "ladder", "tool-events.jsonl")).filter((e) => e["check"] === checkId && e["fired"] === true);
    expect(fired.map((e) => [e["mode"], e["decision"], e["tool_use_id"]])).toEqual([["active", "deny", toolUseIdOf(main[0]!)]]);
  });
});
