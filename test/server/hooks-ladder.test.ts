// A developer whose hooks are http hooks, end to end against a real database: the hooks run on
// the server (captures and ladder logs in hooks/<tenant>/<label>/), the ladder runs on the
// developer's machine (their transcripts never leave it), and `errata sync --hooks` carries
// each side's files to the other: the capture and the instruction loads down, the audit's
// proposal approved there, the check it installs up, enforced (in shadow: logged) by the
// http PreToolUse hook, its log line down again for the shadow judge; the rule ledger's lines
// up for the team's most-broken rules, each incident on its developer and the project its
// correction happened in. Another developer's folder and another tenant's are never read.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { run } from "../../cli/main.js";
import { incidentId, openRuleLedger } from "../../runtime/ladder/index.js";
import { buildServer, developerLadderDir } from "../../runtime/server/index.js";
import { readHookLog } from "../../runtime/server/developer.js";
import { openJsonlStore, openPostgresStore, type ErrataStore } from "../../runtime/stores/index.js";
import type { RuleLedgerLine } from "../../schemas/rule-ledger.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { POSTGRES_BIN, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { pnpm, writeSession } from "../ladder/helpers.js";

const NOW = Date.parse("2026-11-26T03:00:00Z");
const AT = "2026-11-25T10:00:00.000Z";

interface TeamRules {
  rules: Array<{ rule_id: string; incidents: number; developers: number; by: Array<{ developer: string; project: string | null; incidents: number }> }>;
  developers: number;
}

/** `errata ...` on a developer's machine: their ledger, their home, the token for the server. */
async function on(machine: string, token: string, argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(machine, "ledger"), HOME: machine, ERRATA_SYNC_TOKEN: token }, cwd: machine, now: NOW });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

const incident = (rule_id: string, exchange_id: string, project: string): RuleLedgerLine => ({
  kind: "incident", v: 1, incident_id: incidentId(rule_id, exchange_id), rule_id, exchange_id, session_id: `s-${exchange_id}`, date: "2026-11-25",
  severity: 2, signal: "correction", in_view: true, rung: 2, cause: null, project,
});

async function serve(store: ErrataStore, dir: string): Promise<{ app: FastifyInstance; url: string; tokens: Record<string, string> }> {
  const tokens: Record<string, string> = {};
  for (const [tenant, label] of [["acme", "ana"], ["acme", "bob"], ["acme", "lead"], ["globex", "carol"]] as const) tokens[label] = (await store.addToken(tenant, label, AT)).token;
  const app = await buildServer({ store, dir, now: () => NOW });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, url, tokens };
}

const post = (url: string, token: string, path: string, body: unknown, method = "POST") =>
  fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
const get = async (url: string, token: string, path: string) => (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<Record<string, unknown>>;

describe.skipIf(POSTGRES_BIN === null)("a developer's ladder with http hooks, on the Postgres store", () => {
  let pgc: TestPostgres;
  let store: ErrataStore;
  let tmp: { dir: string; cleanup: () => void };
  let srv: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    pgc = await startPostgres();
    store = await openPostgresStore(pgc.database("hooks_ladder"));
    tmp = tempDir("errata-hooks-ladder-");
    srv = await serve(store, join(tmp.dir, "srv"));
  });
  afterAll(async () => {
    await srv?.app.close();
    await store?.close();
    pgc?.stop();
    tmp?.cleanup();
  });

  it("carries captures and logs down, checks and rule lines up; the team view ties each incident to its developer's project", async () => {
    const { url, tokens } = srv;
    const ana = join(tmp.dir, "ana");
    const project = join(ana, "app");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "CLAUDE.md"), "- Use pnpm, never npm.\n");
    const claudeMd = join(project, "CLAUDE.md");

    // 1. The hooks run on the server: a correction captured, CLAUDE.md loaded in two sessions.
    const captured = await post(url, tokens["ana"]!, "/v1/hooks/user-prompt-submit", { session_id: "b", hook_event_name: "UserPromptSubmit", cwd: project, prompt: "No, that's wrong. I told you to use pnpm, not npm." });
    expect(((await captured.json()) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext).toMatch(/captured this prompt as a correction \(er-/);
    for (const s of ["a", "b"]) {
      const r = await post(url, tokens["ana"]!, "/v1/hooks/instructions-loaded", { session_id: s, hook_event_name: "InstructionsLoaded", cwd: project, file_path: claudeMd, memory_type: "Project", load_reason: "session_start" });
      expect(r.status).toBe(200);
    }

    // 2. ana pulls them onto her machine.
    const first = await on(ana, tokens["ana"]!, ["sync", "--hooks", "--from", url, "--json"]);
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ pulled: 1, written: 1, ladder: { logs: { "instructions-loaded.jsonl": 2, "tool-events.jsonl": 0 }, inputs: [], removed: [], rule_lines: { written: 0, already_here: 0 } } });
    const local = readFileSync(join(ana, "ledger", "errata-2026-11.jsonl"), "utf8");
    expect(local).toContain("I told you to use pnpm, not npm.");
    expect(JSON.parse(local.split("\n")[0]!)).toMatchObject({ source: "owner", channel: "hook", context: { cwd: project, session_id: "b" } });
    const ladder = join(ana, "ledger", "ladder");
    expect(readFileSync(join(ladder, "instructions-loaded.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { session_id: string }).session_id)).toEqual(["a", "b"]);
    // bob's folder is his own: ana's capture is not in it.
    expect((await get(url, tokens["bob"]!, "/v1/hooks/errata"))["errata"]).toEqual([]);

    // 3. ana's ladder on her machine: the nightly audit over her transcripts drafts the climb to a check; she approves it.
    openRuleLedger(ladder).append([{ ...pnpm, text: "Use pnpm, never npm.", location: { kind: "text", file: claudeMd, section: null } }]);
    const slip = [
      { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed with npm." },
      { prompt: "No, that's wrong. I told you to use pnpm, not npm.", reply: "Redone." },
    ];
    const t1 = writeSession(ana, "a", "2026-11-20T10:00:00Z", slip, project);
    const t2 = writeSession(ana, "b", "2026-11-24T10:00:00Z", slip, join(ana, "api"));
    const audit = await on(ana, tokens["ana"]!, ["rules", "audit", "--transcript", t1, t2, "--json"]);
    expect(audit.code, audit.err).toBe(0);
    const [proposal] = (JSON.parse(audit.out) as { proposals: string[] }).proposals;
    expect(proposal).toMatch(/^pr-[0-9a-f]{10}$/);
    expect((await on(ana, tokens["ana"]!, ["rules", "approve", proposal!])).code).toBe(0);
    const checks = JSON.parse(readFileSync(join(ladder, "checks.json"), "utf8")) as { checks: Array<{ id: string; mode: string }> };
    expect(checks.checks.map((c) => c.mode)).toEqual(["shadow"]);

    // 4. Before the push, the http hook knows no check: a tool call logs nothing.
    const tool = { session_id: "c", hook_event_name: "PreToolUse", cwd: project, tool_name: "Bash", tool_input: { command: "npm install left-pad" }, tool_use_id: "tu-1" };
    expect(await (await post(url, tokens["ana"]!, "/v1/hooks/pre-tool-use", tool)).json()).toEqual({});
    expect(existsSync(join(developerLadderDir(join(tmp.dir, "srv"), "acme", "ana"), "tool-events.jsonl"))).toBe(false);

    // 5. The push: the check reaches the server's folder, the rule lines the database.
    const second = await on(ana, tokens["ana"]!, ["sync", "--hooks", "--from", url, "--json"]);
    expect(second.code, second.err).toBe(0);
    const ruleLines = readFileSync(join(ladder, "rules.jsonl"), "utf8").trim().split("\n").length;
    expect(JSON.parse(second.out)).toMatchObject({ pulled: 0, written: 0, ladder: { inputs: [{ file: "checks.json", entries: 1 }], rule_lines: { written: ruleLines, already_here: 0 } } });
    expect(JSON.parse(readFileSync(join(developerLadderDir(join(tmp.dir, "srv"), "acme", "ana"), "checks.json"), "utf8"))).toEqual(JSON.parse(readFileSync(join(ladder, "checks.json"), "utf8")));

    // 6. The http hook now runs the check (in shadow: it answers nothing and logs the firing)
    // for a call in the project the check was drafted for (the latest correction's, on ana's
    // machine: the payload's cwd says it), not for a call in her other project; the log comes down.
    const checkProject = join(ana, "api");
    expect(checks.checks.map((c) => (c as { project?: string }).project)).toEqual([checkProject]);
    expect(await (await post(url, tokens["ana"]!, "/v1/hooks/pre-tool-use", { ...tool, tool_use_id: "tu-2" })).json()).toEqual({});
    expect(await (await post(url, tokens["ana"]!, "/v1/hooks/pre-tool-use", { ...tool, cwd: checkProject, tool_use_id: "tu-3" })).json()).toEqual({});
    const third = await on(ana, tokens["ana"]!, ["sync", "--hooks", "--from", url, "--json"]);
    expect(JSON.parse(third.out)).toMatchObject({ ladder: { logs: { "tool-events.jsonl": 1, "instructions-loaded.jsonl": 0 }, rule_lines: { written: 0, already_here: ruleLines } } });
    const events = readFileSync(join(ladder, "tool-events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toEqual([expect.objectContaining({ tool_use_id: "tu-3", check: checks.checks[0]!.id, rule_id: pnpm.rule_id, mode: "shadow", fired: true })]);
    // Undone on the machine, gone from the server at the next sync: the hook stops running it.
    expect((await on(ana, tokens["ana"]!, ["rules", "undo", proposal!])).code).toBe(0);
    expect(existsSync(join(ladder, "checks.json"))).toBe(false);
    const undone = await on(ana, tokens["ana"]!, ["sync", "--hooks", "--from", url, "--json"]);
    expect(JSON.parse(undone.out)).toMatchObject({ ladder: { inputs: [], removed: ["checks.json"] } });
    expect(existsSync(join(developerLadderDir(join(tmp.dir, "srv"), "acme", "ana"), "checks.json"))).toBe(false);
    expect(await (await post(url, tokens["ana"]!, "/v1/hooks/pre-tool-use", { ...tool, cwd: checkProject, tool_use_id: "tu-4" })).json()).toEqual({});
    expect(JSON.parse((await on(ana, tokens["ana"]!, ["sync", "--hooks", "--from", url, "--json"])).out)).toMatchObject({ ladder: { logs: { "tool-events.jsonl": 0 }, removed: [] } });
    // A lost cursor re-reads and appends nothing twice.
    const syncState = join(ana, "ledger", ".state", "sync");
    for (const f of (await import("node:fs")).readdirSync(syncState)) writeFileSync(join(syncState, f), JSON.stringify({ schema: "sync-cursor/1", source: url.replace(/\/$/, ""), after: 0 }));
    const fourth = await on(ana, tokens["ana"]!, ["sync", "--hooks", "--from", url, "--json"]);
    expect(JSON.parse(fourth.out)).toMatchObject({ pulled: 1, written: 0, already_here: 1, ladder: { logs: { "tool-events.jsonl": 0, "instructions-loaded.jsonl": 0 } } });
    expect(readFileSync(join(ladder, "tool-events.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);

    // 7. bob, on his machine, pushes his own ledger: the same rule broken once in another project.
    const bob = join(tmp.dir, "bob");
    mkdirSync(join(bob, "ledger", "ladder"), { recursive: true });
    openRuleLedger(join(bob, "ledger", "ladder")).append([pnpm, incident(pnpm.rule_id, "y1", "/src/billing")]);
    expect(JSON.parse((await on(bob, tokens["bob"]!, ["sync", "--hooks", "--from", url, "--json"])).out)).toMatchObject({ ladder: { rule_lines: { written: 2 } } });

    // 8. The team view: ana's two incidents each in the project its session ran in, bob's in his.
    const team = (await get(url, tokens["lead"]!, "/v1/team/rules")) as unknown as TeamRules;
    expect(team.developers).toBe(2);
    expect(team.rules.map((r) => [r.rule_id, r.incidents, r.developers])).toEqual([[pnpm.rule_id, 3, 2]]);
    expect(team.rules[0]!.by).toEqual([
      { developer: "ana", project, incidents: 1 },
      { developer: "ana", project: join(ana, "api"), incidents: 1 },
      { developer: "bob", project: "/src/billing", incidents: 1 },
    ]);
    // Another tenant sees none of it, and its developer's folder is empty.
    expect(await get(url, tokens["carol"]!, "/v1/team/rules")).toEqual({ rules: [], developers: 0, problems: 0 });
    expect((await get(url, tokens["carol"]!, "/v1/hooks/errata"))["errata"]).toEqual([]);
  });

  it("refuses without a token and refuses bad files and lines with 4xx, writing nothing", async () => {
    const { url, tokens } = srv;
    for (const [method, path] of [["GET", "/v1/hooks/errata"], ["GET", "/v1/hooks/ladder/tool-events.jsonl"], ["PUT", "/v1/hooks/ladder/checks.json"], ["DELETE", "/v1/hooks/ladder/checks.json"], ["POST", "/v1/team/rule-lines"]] as const) {
      const r = await fetch(`${url}${path}`, { method, headers: { "content-type": "application/json", authorization: "Bearer et_not-a-token" }, ...(method === "GET" ? {} : { body: "{}" }) });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
    const dev = developerLadderDir(join(tmp.dir, "srv"), "acme", "lead");
    const bad = await post(url, tokens["lead"]!, "/v1/hooks/ladder/checks.json", { version: 1, checks: [{ id: "x", rule_id: "r", tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "npm" }], action: "deny", message: "m", mode: "live" }] }, "PUT");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "bad-file", expected: expect.stringContaining("checks file"), found: expect.stringContaining("mode") });
    expect(existsSync(join(dev, "checks.json"))).toBe(false);
    const other = await post(url, tokens["lead"]!, "/v1/hooks/ladder/settings.json", {}, "PUT");
    expect(other.status).toBe(404);
    expect((await fetch(`${url}/v1/hooks/ladder/..%2F..%2Ftokens.jsonl`, { headers: { authorization: `Bearer ${tokens["lead"]!}` } })).status).toBe(404);
    expect((await fetch(`${url}/v1/hooks/ladder/tool-events.jsonl?after=-1`, { headers: { authorization: `Bearer ${tokens["lead"]!}` } })).status).toBe(400);
    const lines = await post(url, tokens["lead"]!, "/v1/team/rule-lines", { lines: [incident(pnpm.rule_id, "z1", "/p"), { kind: "incident" }] });
    expect(lines.status).toBe(400);
    expect(await lines.json()).toMatchObject({ error: "bad-rule-lines", found: expect.stringMatching(/^line 1:/) });
    expect((await store.ruleLines!("acme")).byDeveloper.has("lead")).toBe(false);
  });
});

describe("a developer's rule lines on the JSONL store", () => {
  it("are held once each in the developer's folder, read by the team view", async () => {
    const tmp = tempDir("errata-hooks-ladder-jsonl-");
    const store = openJsonlStore(join(tmp.dir, "srv"));
    const srv = await serve(store, join(tmp.dir, "srv"));
    try {
      const lines = [pnpm, incident(pnpm.rule_id, "x1", "/src/app"), incident(pnpm.rule_id, "x2", "/src/api")];
      const first = await post(srv.url, srv.tokens["ana"]!, "/v1/team/rule-lines", { lines });
      expect(await first.json()).toEqual({ developer: "ana", written: 3, already_here: 0 });
      const again = await post(srv.url, srv.tokens["ana"]!, "/v1/team/rule-lines", { lines: [...lines, incident(pnpm.rule_id, "x3", "/src/app")] });
      expect(await again.json()).toEqual({ developer: "ana", written: 1, already_here: 3 });
      expect(readFileSync(join(developerLadderDir(join(tmp.dir, "srv"), "acme", "ana"), "rules.jsonl"), "utf8").trim().split("\n")).toHaveLength(4);
      const team = (await get(srv.url, srv.tokens["lead"]!, "/v1/team/rules")) as unknown as TeamRules;
      expect(team.rules[0]!.by).toEqual([
        { developer: "ana", project: "/src/app", incidents: 2 },
        { developer: "ana", project: "/src/api", incidents: 1 },
      ]);
      expect((await get(srv.url, srv.tokens["carol"]!, "/v1/team/rules"))["developers"]).toBe(0);
    } finally {
      await srv.app.close();
      await store.close();
      tmp.cleanup();
    }
  });
});

describe("a hook log read from a byte cursor", () => {
  it("answers whole lines only, moves past a line longer than one slice, and starts again when the file shrank", () => {
    const tmp = tempDir("errata-hook-log-");
    try {
      const ladder = developerLadderDir(tmp.dir, "acme", "ana");
      mkdirSync(ladder, { recursive: true });
      const long = JSON.stringify({ v: 1, pad: "x".repeat(700_000) });
      writeFileSync(join(ladder, "tool-events.jsonl"), `{"a":1}\n${long}\n{"b":"é"}\n{"partial":`);
      // One slice (512 KB) an answer: the first holds one whole line and the start of the long one.
      const head = readHookLog(tmp.dir, "acme", "ana", "tool-events.jsonl", 0);
      expect(head.lines).toEqual(['{"a":1}']);
      expect(head.next).toBe(8);
      // From there, the slice holds no whole line until the long one ends: it is read on.
      const first = readHookLog(tmp.dir, "acme", "ana", "tool-events.jsonl", head.next);
      expect(first.lines.map((l) => l.length)).toEqual([long.length, 9]);
      expect(first.next).toBe(Buffer.byteLength(`{"a":1}\n${long}\n{"b":"é"}\n`));
      expect(first.size).toBe(first.next + Buffer.byteLength('{"partial":'));
      expect(readHookLog(tmp.dir, "acme", "ana", "tool-events.jsonl", first.next)).toEqual({ lines: [], next: first.next, size: first.size });
      writeFileSync(join(ladder, "tool-events.jsonl"), `{"c":3}\n`);
      expect(readHookLog(tmp.dir, "acme", "ana", "tool-events.jsonl", first.next)).toEqual({ lines: ['{"c":3}'], next: 8, size: 8 });
      expect(() => readHookLog(tmp.dir, "acme", "ana", "../../tokens.jsonl", 0)).toThrow(/no log/);
    } finally {
      tmp.cleanup();
    }
  });
});
