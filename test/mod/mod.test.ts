// The Errata mod's handlers as the client calls them, through the bundle the package ships
// (mod/hooks/errata-core.js, built by npm run build) and ports standing for `$`. What the real
// client does with their answers is test/e2e/mod.test.ts's.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve as nodeResolve } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { classify } from "../../runtime/classifier/classify.js";
import { rowKind } from "../../runtime/hooks/row-kind.js";
import { lastReplyFileName } from "../../runtime/hooks/last-reply-key.js";
import { hookStateDir } from "../../runtime/hooks/hook-state.js";
import type { ModApi } from "../../runtime/mod/api.js";
import type * as Core from "../../runtime/mod/core.js";
import { Bytes, fromBase64, utf8 } from "../../runtime/mod/shims/fs.js";
import { join as shimJoin, resolve as shimResolve } from "../../runtime/mod/shims/path.js";
import { readmeHooks, repoRoot } from "../e2e/client.js";

const bundle = join(repoRoot, "mod", "hooks", "errata-core.js");
/** The classifier's files the bundle read through the ports, in order (over every test: the bundle's shim keeps what it was given). */
const dataReads: string[] = [];
let core: typeof Core;
beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
  core = (await import(bundle)) as typeof Core;
});

interface Fake {
  api: ModApi;
  runs: Array<{ argv: readonly string[]; stdin: string | undefined }>;
  writes: Array<{ path: string; text: string }>;
  logs: string[];
}

const CHECKS = [
  { id: "no-npm", rule_id: "claude.tools.pnpm01", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "active" },
  { id: "ask-deploy", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "deploy" }], action: "ask", message: "Deploys need the owner's yes.", mode: "active" },
  { id: "colour", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "colour" }], action: "rewrite", message: "American spelling.", rewrite: { field: "command", pattern: "colour", replacement: "color", decision: "allow" }, mode: "active" },
  { id: "push-warning", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "git push" }], action: "warn", message: "Pushing: say which branch first.", mode: "active" },
  { id: "shadow-touch", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "shadowed" }], action: "deny", message: "Never touch shadowed files.", mode: "shadow" },
];

/** Ports over an in-memory folder tree; `fault` names a port that throws. */
function fake(opts: { settings?: Record<string, unknown>; files?: Record<string, string>; mtimes?: Record<string, number>; stdout?: string; fault?: keyof ModApi } = {}): Fake {
  const runs: Fake["runs"] = [];
  const writes: Fake["writes"] = [];
  const logs: string[] = [];
  const files = new Map(Object.entries(opts.files ?? {}));
  const api: ModApi = {
    log: (t) => void logs.push(t),
    sessionInfo: async () => ({ transcriptPath: "/h/.claude/projects/p/s1.jsonl" }),
    sessionId: async () => "s1",
    sessionCwd: async () => "/p",
    hookEnv: async () => ({ CLAUDE_PLUGIN_ROOT: "/pkg/mod" }),
    read: async (p) => {
      const t = files.get(p);
      if (t === undefined) throw new Error(`ENOENT ${p}`);
      return t;
    },
    write: async (path, text) => void writes.push({ path, text }),
    exists: async (p) => p === "/pkg/bin/errata.cjs",
    // The folder's entries as $.fs.list gives them: name, kind, size and time (a test moves a time to change a file).
    list: async (dir) =>
      [...files.keys()]
        .filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes("/"))
        .map((p) => ({ name: p.slice(dir.length + 1), kind: "file", size: files.get(p)!.length, mtimeMs: opts.mtimes?.[p] ?? 1, isLink: false })),
    run: async (argv, init) => {
      runs.push({ argv, stdin: init?.stdin });
      return { exitCode: 0, stdout: opts.stdout ?? "", stderr: "" };
    },
    settings: async () => opts.settings ?? {},
    env: async () => ({ HOME: "/h" }),
    registerCommand: async () => ({ command: "errata" }),
    readData: async (p) => {
      const name = p.startsWith("/pkg/mod/lang/") ? p.slice("/pkg/mod/lang/".length) : null;
      if (name === null || !existsSync(join(repoRoot, "mod", "lang", name))) throw new Error(`ENOENT ${p}`);
      dataReads.push(name);
      return readFileSync(join(repoRoot, "mod", "lang", name), "utf8");
    },
  };
  if (opts.fault !== undefined) {
    (api as unknown as Record<string, unknown>)[opts.fault] = async () => {
      throw new Error(`injected fault in ${opts.fault}`);
    };
  }
  return { api, runs, writes, logs };
}

const LEDGER_CHECKS = "/h/.local/share/errata/ladder/checks.json";
const passThrough = async <E>(e: E) => e;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("prompt.submit", () => {
  const heldout = readdirSync(join(repoRoot, "test", "classifier", "heldout"))
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(repoRoot, "test", "classifier", "heldout", f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => (JSON.parse(l) as { text: string }).text);

  it("hands over exactly the prompts the hook would capture or read the reply for (the bundled classifier and data agree with the source's, 289 held-out prompts in 8 languages)", async () => {
    expect(heldout.length).toBe(289);
    let handed = 0;
    for (const text of heldout) {
      const f = fake();
      let wantsReply = false;
      const v = classify(text, { previousReply: () => ((wantsReply = true), null) });
      const expected = wantsReply || rowKind(v) !== null;
      await core.createErrataMod().promptSubmit(f.api, { text, wait: false }, async (e) => ({ text: e.text }));
      expect(f.runs.length, text).toBe(expected ? 1 : 0);
      if (expected) handed++;
    }
    // Most of the held-out set is corrections and directives: the hand-over is the rule there.
    expect(handed).toBeGreaterThan(100);
  });

  it("an ordinary prompt runs nothing and passes on unchanged; a capture's host line reaches the model as context", async () => {
    const ordinary = fake();
    const mod = core.createErrataMod();
    expect(await mod.promptSubmit(ordinary.api, { text: "List the files.", wait: false }, passThrough)).toEqual({ text: "List the files.", wait: false });
    expect(ordinary.runs).toEqual([]);
    const line = "Errata captured this prompt as a correction (er-20261206-000001); acceptance pending.";
    const f = fake({ stdout: `${line}\n` });
    const r = await mod.promptSubmit(f.api, { text: "No, that's wrong. Use pnpm, never npm.", wait: false }, passThrough);
    expect(r).toMatchObject({ context: [line] });
    expect(f.runs[0]!.argv).toEqual(["node", "/pkg/bin/errata.cjs", "hook", "user-prompt-submit"]);
    expect(JSON.parse(f.runs[0]!.stdin!)).toEqual({ session_id: "s1", transcript_path: "/h/.claude/projects/p/s1.jsonl", cwd: "/p", prompt: "No, that's wrong. Use pnpm, never npm.", hook_event_name: "UserPromptSubmit" });
  });

  it("a slash command and a meta prompt are not the owner's words: passed on, nothing run", async () => {
    const f = fake();
    const mod = core.createErrataMod();
    await mod.promptSubmit(f.api, { text: "no, wrong", command: { name: "x" }, wait: false }, passThrough);
    await mod.promptSubmit(f.api, { text: "no, wrong", isMeta: true, wait: false }, passThrough);
    expect(f.runs).toEqual([]);
  });
});

describe("the classifier's files, read through $", () => {
  it("session.start reads the index and every rule file at once, each once, and passes on once the classifier is built; a prompt then reads nothing", async () => {
    // A fresh copy of the bundle: its shim holds no file yet.
    const fresh = (await import(`${bundle}?fresh=${Date.now()}`)) as typeof Core;
    const reads: string[] = [];
    const f = fake();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const api: ModApi = {
      ...f.api,
      readData: async (p) => {
        await gate;
        reads.push(p.slice(p.lastIndexOf("/") + 1));
        return readFileSync(join(repoRoot, "mod", "lang", p.slice(p.lastIndexOf("/") + 1)), "utf8");
      },
      list: async (dir) => (dir === "/pkg/mod/lang" ? readdirSync(join(repoRoot, "mod", "lang")).map((name) => ({ name, kind: "file", size: 1, mtimeMs: 1, isLink: false })) : []),
    };
    const mod = fresh.createErrataMod();
    let started = false;
    const pending = mod.sessionStart(api, {}, async (e) => ((started = true), e));
    await settle();
    expect([started, reads]).toEqual([false, []]);
    release();
    expect(await pending).toEqual({});
    expect(started).toBe(true);
    expect(await mod.promptSubmit(api, { text: "Check that the build still works.", wait: false }, passThrough)).toEqual({ text: "Check that the build still works.", wait: false });
    const langs = readdirSync(join(repoRoot, "runtime", "classifier", "lang")).filter((n) => n.endsWith(".rules.tsv"));
    expect(langs.length).toBe(9);
    expect(reads.filter((n) => n === "index.json").length).toBe(1);
    expect([...reads].sort()).toEqual(["index.json", ...langs].sort());
    await mod.promptSubmit(api, { text: "Nein, das ist falsch.", wait: false }, passThrough);
    expect(reads.length).toBe(10);
  });

  it("without a warm-up a prompt reads the index and each rule file it asks for, once, and classifies as the source does", async () => {
    const fresh = (await import(`${bundle}?cold=${Date.now()}`)) as typeof Core;
    const reads: string[] = [];
    const f = fake({ stdout: "captured\n" });
    const api: ModApi = { ...f.api, readData: async (p) => (reads.push(p.slice(p.lastIndexOf("/") + 1)), f.api.readData(p)) };
    const mod = fresh.createErrataMod();
    await mod.promptSubmit(api, { text: "List the files.", wait: false }, passThrough);
    expect(reads).toEqual(["index.json"]);
    // A German correction: the German rule file is read when its rule is first tried, and the hand-over follows.
    await mod.promptSubmit(api, { text: "Nein, das ist falsch. Benutze pnpm.", wait: false }, passThrough);
    expect(reads).toContain("de.rules.tsv");
    expect(reads.filter((n) => n === "index.json").length).toBe(1);
    expect(f.runs.length).toBe(1);
    expect(new Set(reads).size).toBe(reads.length);
  });

  it("a classifier file that cannot be read fails the event, logged, and the prompt passes on as typed", async () => {
    const fresh = (await import(`${bundle}?unread=${Date.now()}`)) as typeof Core;
    const f = fake({ fault: "readData" });
    expect(await fresh.createErrataMod().promptSubmit(f.api, { text: "No, that's wrong.", wait: false }, passThrough)).toEqual({ text: "No, that's wrong.", wait: false });
    expect(f.logs.join("\n")).toMatch(/prompt\.submit fault \(injected fault in readData\)/);
    expect(f.runs).toEqual([]);
  });
});

describe("turn.complete", () => {
  it("writes the Stop hook's record, in the file the hook reads (same key), text withheld", async () => {
    const f = fake();
    const mod = core.createErrataMod({ now: () => Date.parse("2026-12-06T10:00:00Z") });
    await mod.turnComplete(f.api, { answer: "Two files.", reason: "answer", turnId: "t1" }, async () => ({ text: "Two files." }));
    expect(f.writes).toEqual([
      {
        path: join(hookStateDir("/h/.local/state/errata"), lastReplyFileName("s1")),
        text: '{"schema":"hook-last-reply/1","session_id":"s1","ts":"2026-12-06T10:00:00.000Z","reply":null,"model":null,"reply_withheld":true}\n',
      },
    ]);
    expect(f.runs).toEqual([]);
  });

  it("after a captured prompt, hands the turn's end to errata hook stop (its reflection sorts the capture)", async () => {
    const f = fake({ stdout: "Errata captured this prompt as a correction (er-1); acceptance pending.\n" });
    const mod = core.createErrataMod();
    await mod.promptSubmit(f.api, { text: "No, that's wrong.", wait: false }, passThrough);
    await mod.turnComplete(f.api, { answer: "Sorry.", reason: "answer", turnId: "t1" }, async () => ({ text: "Sorry." }));
    await settle();
    expect(f.runs.map((r) => r.argv.slice(2))).toEqual([
      ["hook", "user-prompt-submit"],
      ["hook", "stop"],
    ]);
    expect(JSON.parse(f.runs[1]!.stdin!)).toMatchObject({ session_id: "s1", last_assistant_message: "Sorry.", hook_event_name: "Stop" });
    expect(f.writes).toEqual([]);
  });

  it("an interrupted turn and a subagent's end record nothing", async () => {
    const f = fake();
    const mod = core.createErrataMod();
    await mod.turnComplete(f.api, { answer: "x", reason: "aborted", turnId: "t1" }, async () => ({ text: "x" }));
    await mod.turnComplete(f.api, { answer: "x", reason: "answer", turnId: "t2", agentId: "a1" }, async () => ({ text: "x" }));
    expect([f.writes, f.runs]).toEqual([[], []]);
  });
});

describe("the tool path", () => {
  const files = { [LEDGER_CHECKS]: JSON.stringify({ version: 1, checks: CHECKS }) };
  const check = async (command: string, id: string) => {
    const f = fake({ files });
    const mod = core.createErrataMod();
    const r = await mod.toolCheck(f.api, { tool: "Bash", input: { command }, tool_use_id: id }, async () => ({ decision: "allow" }));
    await settle();
    return { r, f };
  };

  it("deny: the reason the model reads; ask: the owner is asked with the check's reason", async () => {
    expect((await check("npm install", "t1")).r).toEqual({ decision: "deny", reason: "[errata check no-npm, rule claude.tools.pnpm01] Use pnpm, never npm." });
    expect((await check("./deploy.sh", "t2")).r).toEqual({ decision: "ask", reason: "[errata check ask-deploy] Deploys need the owner's yes." });
  });

  it("a call no check fires on passes on; a shadow check changes nothing; an eligible call's tool-event lines go to the hook's own writer", async () => {
    const plain = await check("ls", "t3");
    expect(plain.r).toEqual({ decision: "allow" });
    expect(plain.f.runs.map((r) => r.argv)).toEqual([["node", "/pkg/bin/errata-tool-hook.cjs", "pre-tool-use"]]);
    expect(JSON.parse(plain.f.runs[0]!.stdin!)).toEqual({ session_id: "s1", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t3", cwd: "/p", hook_event_name: "PreToolUse" });
    expect((await check("cat shadowed.txt", "t4")).r).toEqual({ decision: "allow" });
  });

  it("rewrite: the tool runs the rewritten input; warn: the warning rides along the result for the model", async () => {
    const f = fake({ files });
    const mod = core.createErrataMod();
    const seen: unknown[] = [];
    const next = async (e: Record<string, unknown>) => {
      seen.push(e);
      return { result: "ok", text: "ok" };
    };
    await mod.toolCall(f.api, { tool: "Bash", command: "echo colour", description: "c", tool_use_id: "t5" }, next);
    expect(seen[0]).toEqual({ tool: "Bash", command: "echo color", description: "c", tool_use_id: "t5" });
    const warned = await mod.toolCall(f.api, { tool: "Bash", command: "git push", tool_use_id: "t6" }, next);
    expect(warned).toEqual({ result: "ok", text: "ok", context: ['The owner set a check on calls like this one (errata check push-warning): "Pushing: say which branch first."'] });
  });

  it("the check files are read again only when a name, size or time changed", async () => {
    const filesNow: Record<string, string> = { [LEDGER_CHECKS]: JSON.stringify({ version: 1, checks: CHECKS }) };
    const mtimes: Record<string, number> = { [LEDGER_CHECKS]: 1 };
    const f = fake({ files: filesNow, mtimes });
    let reads = 0;
    const files = new Map(Object.entries(filesNow));
    const api: ModApi = {
      ...f.api,
      read: async (p) => {
        reads += 1;
        const t = files.get(p);
        if (t === undefined) throw new Error(`ENOENT ${p}`);
        return t;
      },
      list: async (dir) => [...files.keys()].filter((p) => p.startsWith(`${dir}/`)).map((p) => ({ name: p.slice(dir.length + 1), kind: "file", size: files.get(p)!.length, mtimeMs: mtimes[p] ?? 1, isLink: false })),
    };
    const mod = core.createErrataMod();
    const ask = (command: string, id: string) => mod.toolCheck(api, { tool: "Bash", input: { command }, tool_use_id: id }, async () => ({ decision: "allow" as const }));
    expect(await ask("npm i", "c1")).toMatchObject({ decision: "deny" });
    expect(await ask("npm ci", "c2")).toMatchObject({ decision: "deny" });
    expect(reads).toBe(1);
    // The owner's edit (a new time): read again; the npm check is gone.
    files.set(LEDGER_CHECKS, JSON.stringify({ version: 1, checks: CHECKS.slice(1) }));
    mtimes[LEDGER_CHECKS] = 2;
    expect(await ask("npm i", "c3")).toEqual({ decision: "allow" });
    expect(reads).toBe(2);
    // A hookify file appears in the project: read, and it fires.
    files.set("/p/.claude/hookify.no-rm.local.md", "---\nname: no-rm\nenabled: true\nevent: bash\npattern: rm -rf\naction: block\n---\nNo rm -rf here.\n");
    expect(await ask("rm -rf build", "c4")).toMatchObject({ decision: "deny" });
    expect(reads).toBe(4);
    expect(await ask("rm -rf dist", "c5")).toMatchObject({ decision: "deny" });
    expect(reads).toBe(4);
    // An entry listed without a time (a link): read at every call.
    const linked: ModApi = { ...api, list: async (dir) => (await api.list(dir)).map((x) => ({ ...x, isLink: true, size: 0, mtimeMs: 0 })) };
    await mod.toolCheck(linked, { tool: "Bash", input: { command: "ls" }, tool_use_id: "c6" }, async () => ({ decision: "allow" as const }));
    await mod.toolCheck(linked, { tool: "Bash", input: { command: "ls" }, tool_use_id: "c7" }, async () => ({ decision: "allow" as const }));
    expect(reads).toBe(8);
  });

  it("a check file that does not parse is refused whole and logged; the call passes on", async () => {
    const f = fake({ files: { [LEDGER_CHECKS]: "{not json" } });
    const r = await core.createErrataMod().toolCheck(f.api, { tool: "Bash", input: { command: "npm i" }, tool_use_id: "t7" }, async () => ({ decision: "allow" }));
    expect(r).toEqual({ decision: "allow" });
    expect(f.logs.join("\n")).toMatch(/checks\.json.*its checks are not run/);
  });
});

describe("faults and standing down", () => {
  const events = (mod: Core.ErrataMod, api: ModApi) => [
    () => mod.promptSubmit(api, { text: "No, that's wrong.", wait: false }, passThrough),
    () => mod.turnComplete(api, { answer: "Done.", reason: "answer", turnId: "t" }, async () => ({ text: "Done." })),
    () => mod.toolCheck(api, { tool: "Bash", input: { command: "npm i" }, tool_use_id: "x" }, async () => ({ decision: "allow" as const })),
    () => mod.toolCall(api, { tool: "Bash", command: "npm i", tool_use_id: "y" }, async (e) => ({ result: e })),
    () => mod.promptContext(api, { blocks: [], instructionFiles: [{ path: "/p/CLAUDE.md", kind: "project", content: "x" }] }, async (e) => e),
  ];

  const unchanged = [{ text: "No, that's wrong.", wait: false }, { text: "Done." }, { decision: "allow" }, { result: { tool: "Bash", command: "npm i", tool_use_id: "y" } }, { blocks: [], instructionFiles: [{ path: "/p/CLAUDE.md", kind: "project", content: "x" }] }];
  const files = { [LEDGER_CHECKS]: JSON.stringify({ version: 1, checks: CHECKS }) };

  it("a fault in a port every event needs first is logged and every event passes on unchanged", async () => {
    for (const port of ["sessionInfo", "sessionId", "settings", "env", "hookEnv"] as const) {
      const f = fake({ fault: port, files });
      const out = [];
      for (const ev of events(core.createErrataMod(), f.api)) out.push(await ev());
      await settle(); // prompt.context records after passing the event on
      expect(out, port).toEqual(unchanged);
      expect(f.logs.filter((l) => l.includes(`injected fault in ${port}`)).length, port).toBe(5);
    }
  });

  it("a failed hand-over leaves the prompt as typed; a failed record write leaves the turn's end; a failed log child leaves the deny standing", async () => {
    const run = fake({ fault: "run", files });
    const out = [];
    for (const ev of events(core.createErrataMod(), run.api)) out.push(await ev());
    await settle();
    expect(out[0]).toEqual(unchanged[0]);
    expect(out[2]).toEqual({ decision: "deny", reason: "[errata check no-npm, rule claude.tools.pnpm01] Use pnpm, never npm." });
    expect(run.logs.filter((l) => l.includes("injected fault in run")).length).toBeGreaterThanOrEqual(2);
    const write = fake({ fault: "write" });
    expect(await core.createErrataMod().turnComplete(write.api, { answer: "Done.", reason: "answer", turnId: "t" }, async () => ({ text: "Done." }))).toEqual({ text: "Done." });
    expect(write.logs.join("\n")).toMatch(/turn\.complete fault \(injected fault in write\); the event passes on unchanged/);
  });

  it("a fault in next itself is not swallowed (the chain's own error stays the chain's)", async () => {
    const f = fake();
    await expect(core.createErrataMod().promptSubmit(f.api, { text: "List the files.", wait: false }, async () => Promise.reject(new Error("beneath")))).rejects.toThrow("beneath");
  });

  it("with the README's settings hooks installed it stands down: nothing run, nothing written", async () => {
    const f = fake({ settings: { hooks: readmeHooks() }, files: { [LEDGER_CHECKS]: JSON.stringify({ version: 1, checks: CHECKS }) } });
    const mod = core.createErrataMod();
    const out = [];
    for (const ev of events(mod, f.api)) out.push(await ev());
    await settle();
    expect([f.runs, f.writes]).toEqual([[], []]);
    expect(out[2]).toEqual({ decision: "allow" });
    expect(core.settingsHooksInstalled({ hooks: readmeHooks() })).toEqual({ capture: true, tools: true, instructions: true });
    expect(core.settingsHooksInstalled({ hooks: readmeHooks({ errata: false, record: true }) })).toEqual({ capture: false, tools: false, instructions: false });
    expect(core.settingsHooksInstalled({})).toEqual({ capture: false, tools: false, instructions: false });
  });
});

describe("prompt.context and /errata", () => {
  it("records each instruction file once a session through errata-tool-hook instructions-loaded", async () => {
    const f = fake();
    const mod = core.createErrataMod();
    const e = { blocks: [], instructionFiles: [{ path: "/p/CLAUDE.md", kind: "project", content: "x" }, { path: "/h/.claude/CLAUDE.md", kind: "user", content: "y" }, { path: "/m", kind: "memory", content: "z" }] };
    expect(await mod.promptContext(f.api, e, async (x) => x)).toBe(e);
    await mod.promptContext(f.api, e, async (x) => x);
    await settle();
    expect(f.runs.map((r) => JSON.parse(r.stdin!) as Record<string, unknown>).map((p) => [p["file_path"], p["memory_type"], p["load_reason"]])).toEqual([
      ["/p/CLAUDE.md", "Project", "session_start"],
      ["/h/.claude/CLAUDE.md", "User", "session_start"],
    ]);
  });

  it("/errata maps to errata rules; anything else answers the usage, runs nothing", async () => {
    expect(core.errataCommand([])).toEqual(["rules", "morning"]);
    expect(core.errataCommand(["approvals"])).toEqual(["rules", "approvals"]);
    expect(core.errataCommand(["approve", "p-12"])).toEqual(["rules", "approve", "p-12"]);
    expect(core.errataCommand(["undo", "p-12"])).toEqual(["rules", "undo", "p-12"]);
    expect(core.errataCommand(["approve", "p-12", "--native-deny"])).toEqual(["rules", "approve", "p-12", "--native-deny"]);
    expect(core.errataCommand(["undo", "p-12", "--native-deny"])).toMatch(/found "p-12 --native-deny"/);
    expect(core.errataCommand(["approve", "--native-deny"])).toMatch(/expected one proposal id after approve; found none/);
    expect(core.errataCommand(["approve"])).toMatch(/^usage: .*expected one proposal id after approve; found none/);
    expect(core.errataCommand(["reject", "a;", "b"])).toMatch(/expected a proposal id after reject; found "a;"/);
    // reject: the words after the id are the owner's reason (the CLI requires one).
    expect(core.errataCommand(["reject", "p-12", "not", "now"])).toEqual(["rules", "reject", "p-12", "--why", "not now"]);
    expect(core.errataCommand(["reject", "p-12"])).toEqual(["rules", "reject", "p-12", "--why", "said no through /errata"]);
    expect(core.errataCommand(["pane"])).toBe("pane");
    expect(core.errataCommand(["delete"])).toMatch(/found "delete"/);
    const f = fake({ stdout: "Approval table: 0 proposals.\n" });
    const mod = core.createErrataMod();
    expect(await mod.commandRun(f.api, { command: "errata", args: "approvals" }, async () => ({}))).toEqual({ text: "Approval table: 0 proposals." });
    expect(await mod.commandRun(f.api, { command: "errata", args: "drop all" }, async () => ({}))).toMatchObject({ text: expect.stringMatching(/^usage/) });
    expect(f.runs.map((r) => r.argv)).toEqual([["node", "/pkg/bin/errata.cjs", "rules", "approvals"]]);
  });
});

describe("the bundle's shims", () => {
  it("path: join and resolve agree with node:path on absolute paths", () => {
    const seg = fc.constantFrom("a", "b", "..", ".", "", "c.d", "x y");
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 6 }), fc.array(seg, { maxLength: 6 }), (a, b) => {
        const base = `/${a.join("/")}`;
        expect(shimJoin(base, ...b)).toBe(join(base, ...b));
        expect(shimResolve(base, b.join("/"))).toBe(nodeResolve(base, b.join("/")));
      }),
    );
  });

  it("fs: bytes made from a text (ASCII kept as text, other text as UTF-8) answer toString and indexOf as Buffer does", () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 60 });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: "binary", maxLength: 60 })), fc.oneof(ascii.map((x) => x.slice(0, 4)), fc.string({ unit: "binary", maxLength: 4 })), fc.nat(80), fc.nat(80), (s, needle, i, j) => {
        const buf = Buffer.from(s, "utf8");
        const b = Bytes.ofText(s);
        expect(Buffer.from(b).equals(buf)).toBe(true);
        expect(b.ascii === null).toBe(/[^\x00-\x7f]/.test(s));
        expect(b.indexOf(needle)).toBe(buf.indexOf(needle));
        expect(b.indexOf(needle, i)).toBe(buf.indexOf(needle, i));
        expect(b.indexOf(10, i)).toBe(buf.indexOf(10, i));
        const [from, to] = [Math.min(i, j), Math.max(i, j)];
        expect(b.toString("utf8", from, to)).toBe(buf.toString("utf8", from, to));
        expect(b.toString("utf8", to, from)).toBe(buf.toString("utf8", to, from));
      }),
    );
  });

  it("fs: base64, UTF-8 decoding and Buffer's indexOf/toString by range agree with Buffer's", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), fc.string({ unit: "binary", maxLength: 4 }), fc.nat(80), fc.nat(80), (s, needle, i, j) => {
        const buf = Buffer.from(s, "utf8");
        const raw = fromBase64(buf.toString("base64"));
        expect(Buffer.from(raw).equals(buf)).toBe(true);
        const b = new Bytes(raw.length);
        b.set(raw);
        expect(utf8(b)).toBe(buf.toString("utf8"));
        expect(b.indexOf(needle)).toBe(buf.indexOf(needle));
        expect(b.indexOf(10, i)).toBe(buf.indexOf(10, i));
        const [from, to] = [Math.min(i, j), Math.max(i, j)];
        expect(b.toString("utf8", from, to)).toBe(buf.toString("utf8", from, to));
      }),
    );
  });
});
