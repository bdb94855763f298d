import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { discoverTranscripts } from "../../runtime/transcripts/discover.js";
import { emptyStats, readTranscript } from "../../runtime/transcripts/reader.js";
import { scanTranscript } from "../../runtime/transcripts/scan.js";
import { tempDir } from "../helpers/io.js";
import { hasMClaude, indexOfUuid, mClaudeDir, readJsonl, spotterDir, subagentMessages, toolHeavyWithCompaction, writeJsonl } from "./fixtures.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function tmp(): string {
  const t = tempDir("errata-exchanges-");
  cleanups.push(t.cleanup);
  return t.dir;
}

describe("exchanges from the real spotter sessions", () => {
  it("tool_heavy: the reply before the failure report, the ask before it and the last tool calls", async () => {
    const r = await scanTranscript(join(spotterDir, "tool_heavy.jsonl"), { sourceName: "spotter/tool_heavy.jsonl" });
    expect(r.exchanges).toHaveLength(2);
    for (const ex of r.exchanges) expect(ExchangeSchema.parse(ex)).toEqual(ex);
    const [first, second] = r.exchanges;
    expect(first).toMatchObject({ turn: 0, prompt: "start phoenix in background", reply_end: null, previous_ask: null, tool_calls: [] });
    expect(second).toMatchObject({
      corpus: "claude-code",
      session_id: "d6e0bada-1959-4eec-a9d2-0bfade768d8f",
      turn: 1,
      previous_ask: "start phoenix in background",
      reply_end: "Phoenix server is starting in the background.\n\nLet me check the MCP servers status.",
      reply_ts: "2026-02-10T22:58:02.040Z",
      prompt_ts: "2026-02-10T22:59:22.893Z",
      model: "claude-opus-4-6",
      version: "2.1.38",
      captured: false,
      synthetic: false,
      source_ref: "spotter/tool_heavy.jsonl:26",
    });
    expect(second?.prompt).toMatch(/^scrolling back in xterm\.js still does not work/);
    expect(second?.tool_calls.map((t) => t.name)).toEqual(["Bash", "Bash"]);
    expect(second?.tool_calls[0]?.summary).toBe("mix phx.server");
  });

  it("ids are stable across reads and distinct across prompts", async () => {
    const a = await scanTranscript(join(spotterDir, "tool_heavy.jsonl"));
    const b = await scanTranscript(join(spotterDir, "tool_heavy.jsonl"));
    expect(a.exchanges.map((e) => e.id)).toEqual(b.exchanges.map((e) => e.id));
    expect(new Set(a.exchanges.map((e) => e.id)).size).toBe(2);
  });

  it("subagent.jsonl: usage counted once per message id (28 assistant lines, fewer API calls)", async () => {
    const r = await scanTranscript(join(spotterDir, "subagent.jsonl"));
    expect(r.stats.kinds.assistant).toBe(28);
    expect(r.stats.assistantMessages).toBeLessThan(28);
    expect(r.exchanges[0]?.tool_calls.map((t) => t.name)).toEqual(["Task", "Write", "ExitPlanMode"]);
  });
});

describe("a compaction boundary (spliced into the real tool_heavy session)", () => {
  it("follows logicalParentUuid across it, drops the continuation summary, keeps the context", async () => {
    const dir = tmp();
    const path = join(dir, "compacted.jsonl");
    writeJsonl(path, toolHeavyWithCompaction());
    const plain = await scanTranscript(join(spotterDir, "tool_heavy.jsonl"));
    const r = await scanTranscript(path);
    expect(r.stats.kinds.system).toBe(3);
    expect(r.stats.notTyped.compact_summary).toBe(1);
    expect(r.exchanges.map((e) => e.prompt)).toEqual(plain.exchanges.map((e) => e.prompt));
    expect(r.exchanges[1]?.previous_ask).toBe("start phoenix in background");
    expect(r.exchanges[1]?.reply_end).toBe(plain.exchanges[1]?.reply_end);
    // The live path runs from the newest line back through the boundary to the first prompt.
    expect(r.stats.livePath).toBe(plain.stats.livePath + 1);
    expect(r.stats.repairedParents).toBe(0);
  });
});

describe("sidechains and subagent files (built from the real subagent's messages)", () => {
  it("sidechain lines inside the main file (older versions) are never prompts or context", async () => {
    const dir = tmp();
    const rows = readJsonl(join(spotterDir, "subagent.jsonl"));
    const sub = subagentMessages();
    expect(sub.rows.length).toBeGreaterThan(10);
    const k = indexOfUuid(rows, "79ed4dd9"); // the Task call
    const path = join(dir, "with-sidechain.jsonl");
    writeJsonl(path, [...rows.slice(0, k + 1), ...sub.rows, ...rows.slice(k + 1)]);
    const plain = await scanTranscript(join(spotterDir, "subagent.jsonl"));
    const r = await scanTranscript(path);
    expect(r.stats.sidechainLines).toBe(sub.rows.length);
    // The subagent's first line is a user text ("Draft bead content ..."): not a typed prompt.
    expect((sub.rows[0]?.["message"] as { content: { text: string }[] }).content[0]?.text).toMatch(/^Draft bead content/);
    const noRef = (e: { source_ref: string | null }) => ({ ...e, source_ref: null });
    expect(r.exchanges.map(noRef)).toEqual(plain.exchanges.map(noRef));
    expect(r.exchanges[0]?.source_ref).toBe(`with-sidechain.jsonl:${71 + sub.rows.length}`);
  });

  it("a subagent file is found, read as sidechain lines, and changes no exchange", async () => {
    const root = tmp();
    const sub = subagentMessages();
    const project = join(root, "-home-USER-projects-spotter");
    writeJsonl(join(project, `${sub.sessionId}.jsonl`), readJsonl(join(spotterDir, "subagent.jsonl")));
    const subPath = join(project, sub.sessionId, "subagents", `agent-${sub.agentId}.jsonl`);
    writeJsonl(subPath, sub.rows);
    const files = discoverTranscripts(root);
    expect(files.map((f) => [f.kind, f.sessionId])).toEqual([
      ["session", sub.sessionId],
      ["subagent", sub.sessionId],
    ]);
    const stats = emptyStats();
    let sidechain = 0;
    let agent = 0;
    for await (const ev of readTranscript(subPath, { stats })) {
      if (ev.rec.isSidechain) sidechain++;
      if (ev.rec.agentId === sub.agentId) agent++;
    }
    expect(sidechain).toBe(sub.rows.length);
    expect(agent).toBe(sub.rows.length);
    const r = await scanTranscript(subPath);
    expect(r.exchanges).toHaveLength(0);
    expect(r.stats.sidechainLines).toBe(sub.rows.length);
  });
});

describe("rewinds", () => {
  it("a prompt edited after a rewind replaces the original: the old branch is dropped", async () => {
    const dir = tmp();
    const rows = readJsonl(join(spotterDir, "tool_heavy.jsonl"));
    const k = indexOfUuid(rows, "f643538d");
    const original = rows[k] as Record<string, unknown>;
    const edited = {
      ...original,
      uuid: "e0e0e0e0-0000-4000-8000-000000000001",
      timestamp: "2026-02-10T23:10:00.000Z",
      message: { role: "user", content: "scrolling in xterm.js is broken, look at tmux mouse mode" },
    };
    const reply = {
      parentUuid: edited.uuid,
      isSidechain: false,
      type: "assistant",
      uuid: "e0e0e0e0-0000-4000-8000-000000000002",
      timestamp: "2026-02-10T23:10:05.000Z",
      sessionId: original["sessionId"],
      message: { id: "msg_edit", model: "claude-opus-4-6", role: "assistant", content: [{ type: "text", text: "Checking tmux mouse mode." }] },
    };
    const path = join(dir, "rewound.jsonl");
    writeJsonl(path, [...rows, edited, reply]);
    const plain = await scanTranscript(join(spotterDir, "tool_heavy.jsonl"));
    const r = await scanTranscript(path);
    expect(r.stats.rewoundPrompts).toBe(1);
    expect(r.exchanges.map((e) => e.prompt)).toEqual(["start phoenix in background", "scrolling in xterm.js is broken, look at tmux mouse mode"]);
    // The edited prompt answers the same reply as the original did.
    expect(r.exchanges[1]?.reply_end).toBe(plain.exchanges[1]?.reply_end);
    expect(r.exchanges[1]?.tool_calls).toEqual(plain.exchanges[1]?.tool_calls);
    expect(r.exchanges[1]?.turn).toBe(1);
  });
});

describe.skipIf(!hasMClaude)("exchanges on the m-claude sessions", () => {
  it("every row is a valid exchange; broken lines are repaired around, not fatal", async () => {
    const r = await scanTranscript(join(mClaudeDir, "21037e11-89de-484d-abba-8705254aa991.jsonl"));
    expect(r.exchanges).toHaveLength(12);
    for (const ex of r.exchanges) ExchangeSchema.parse(ex);
    expect(r.stats.repairedParents).toBeGreaterThan(0);
    const logread = r.exchanges.find((e) => e.prompt === "logread not working");
    expect(logread?.reply_end).toMatch(/logread/);
  });
});
