import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { ExchangeSchema, type Exchange } from "../../schemas/exchange.js";
import { CapturedIndex } from "../../runtime/transcripts/captured.js";
import { cursorPath } from "../../runtime/transcripts/cursor.js";
import { exchangesPath, sweepExchanges } from "../../runtime/transcripts/sweep.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { resolvePaths } from "../../runtime/paths.js";
import { newErratum, openLedger } from "../../runtime/store/index.js";
import { hasMClaude, indexOfUuid, mClaudeDir, readJsonl, spotterDir, subagentMessages, writeJsonl } from "./fixtures.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function tmp(): string {
  const t = tempDir("errata-sweep-");
  cleanups.push(t.cleanup);
  return t.dir;
}

function rows(path: string): Exchange[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => ExchangeSchema.parse(JSON.parse(l)));
}

function copySpotter(root: string): void {
  const project = join(root, "-home-USER-projects-spotter");
  mkdirSync(project, { recursive: true });
  for (const f of ["short.jsonl", "subagent.jsonl", "tool_heavy.jsonl"]) writeFileSync(join(project, f), readFileSync(join(spotterDir, f)));
}

describe("errata exchanges (CLI, in process)", () => {
  it("appends one row per typed prompt, and a re-run appends nothing", async () => {
    const dir = tmp();
    const root = join(dir, "projects");
    copySpotter(root);
    const sub = subagentMessages();
    writeJsonl(join(root, "-home-USER-projects-spotter", "subagent", "subagents", `agent-${sub.agentId}.jsonl`), sub.rows);
    const env = { ERRATA_DIR: join(dir, "ledger"), HOME: dir };
    const first = memoryIo({ env });
    expect(await run(["exchanges", "--root", root, "--json"], first.io)).toBe(0);
    const report = JSON.parse(first.out());
    expect(report).toMatchObject({ files: 3, subagent_files: 1, new_exchanges: 4, typed_prompts: 4, broken_lines: 0, dry_run: false });
    const out = join(dir, "ledger", "v4", "exchanges.jsonl");
    expect(rows(out)).toHaveLength(4);
    expect(rows(out).map((r) => r.source_ref)).toEqual([
      "-home-USER-projects-spotter/short.jsonl:4",
      "-home-USER-projects-spotter/subagent.jsonl:71",
      "-home-USER-projects-spotter/tool_heavy.jsonl:4",
      "-home-USER-projects-spotter/tool_heavy.jsonl:26",
    ]);
    const before = readFileSync(out);

    const again = memoryIo({ env });
    expect(await run(["exchanges", "--root", root, "--json"], again.io)).toBe(0);
    expect(JSON.parse(again.out())).toMatchObject({ new_exchanges: 0, unchanged: 3 });
    const full = memoryIo({ env });
    expect(await run(["exchanges", "--root", root, "--full", "--json"], full.io)).toBe(0);
    expect(JSON.parse(full.out())).toMatchObject({ new_exchanges: 0, already_present: 4, full_reads: 3 });
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it("--dry-run counts and writes nothing; a missing root is bad input (exit 2)", async () => {
    const dir = tmp();
    const root = join(dir, "projects");
    copySpotter(root);
    const env = { ERRATA_DIR: join(dir, "ledger"), HOME: dir };
    const dry = memoryIo({ env });
    expect(await run(["exchanges", "--root", root, "--dry-run"], dry.io)).toBe(0);
    expect(dry.out()).toMatch(/would append 4 exchanges/);
    expect(existsSync(join(dir, "ledger"))).toBe(false);
    const bad = memoryIo({ env });
    expect(await run(["exchanges", "--root", join(dir, "nope"), "--json"], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/transcripts root is not a folder/);
    // With --json the error is the one JSON value on stdout (issue 19), nothing else.
    expect(JSON.parse(bad.out())).toMatchObject({ ok: false, error: { code: "BAD_INPUT", found: join(dir, "nope") } });
    expect(existsSync(join(dir, "ledger"))).toBe(false);
  });
});

async function sweep(root: string, dir: string, extra: Partial<Parameters<typeof sweepExchanges>[0]> = {}) {
  return sweepExchanges({ root, v4Dir: join(dir, "v4"), stateDir: join(dir, "state"), ...extra });
}

/** Writes a file in pieces (cut at byte positions, the last piece possibly mid-line) and sweeps after each. */
async function growAndSweep(source: string, cuts: number[]) {
  const dir = tmp();
  const root = join(dir, "projects");
  mkdirSync(root);
  const bytes = readFileSync(source);
  const target = join(root, "session.jsonl");
  writeFileSync(target, "");
  let at = 0;
  const reports = [];
  for (const cut of [...cuts, bytes.length]) {
    appendFileSync(target, bytes.subarray(at, cut));
    at = cut;
    reports.push(await sweep(root, dir));
  }
  const once = tmp();
  const onceRoot = join(once, "projects");
  mkdirSync(onceRoot);
  writeFileSync(join(onceRoot, "session.jsonl"), bytes);
  await sweep(onceRoot, once);
  return { grown: rows(exchangesPath(join(dir, "v4"))), once: rows(exchangesPath(join(once, "v4"))), reports, dir };
}

describe("a growing transcript is picked up from the cursor", () => {
  it("tool_heavy written in three pieces (one cut mid-line) gives the same rows as one read", async () => {
    const src = join(spotterDir, "tool_heavy.jsonl");
    const size = readFileSync(src).length;
    const { grown, once, reports } = await growAndSweep(src, [Math.floor(size * 0.3), Math.floor(size * 0.7)]);
    expect(grown).toEqual(once);
    expect(reports.map((r) => r.resumed)).toEqual([0, 1, 1]);
    expect(reports.map((r) => r.rescans)).toEqual([0, 0, 0]);
    // Resumed reads only read the new bytes.
    expect(reports.reduce((s, r) => s + r.bytesRead, 0)).toBe(size);
  });

  it.skipIf(!hasMClaude)("a real 1.7 MB session with a broken line, grown in 7 pieces, gives the same rows as one read", async () => {
    const src = join(mClaudeDir, "c76e5be5-ffd2-4901-a935-885527c83a61.jsonl");
    const size = readFileSync(src).length;
    const cuts = [1, 2, 3, 4, 5, 6].map((k) => Math.floor((size * k) / 7) + 17);
    const { grown, once, reports } = await growAndSweep(src, cuts);
    expect(once).toHaveLength(23);
    expect(grown).toEqual(once);
    expect(reports.reduce((s, r) => s + r.brokenLines, 0)).toBe(1);
  });

  it("a rewind appended to a read file re-reads it whole and appends the new branch only", async () => {
    const dir = tmp();
    const root = join(dir, "projects");
    mkdirSync(root);
    const target = join(root, "s.jsonl");
    const lines = readJsonl(join(spotterDir, "tool_heavy.jsonl"));
    writeFileSync(target, readFileSync(join(spotterDir, "tool_heavy.jsonl")));
    expect((await sweep(root, dir)).newExchanges).toBe(2);
    const orig = lines[indexOfUuid(lines, "f643538d")] as Record<string, unknown>;
    const edited = { ...orig, uuid: "e0e0e0e0-0000-4000-8000-000000000009", message: { role: "user", content: "look at tmux mouse mode instead" } };
    appendFileSync(target, `${JSON.stringify(edited)}\n`);
    const r = await sweep(root, dir);
    expect(r).toMatchObject({ resumed: 1, rescans: 1, newExchanges: 1, alreadyPresent: 1, rewoundPrompts: 1 });
    const all = rows(exchangesPath(join(dir, "v4")));
    expect(all.map((e) => e.prompt.slice(0, 20))).toEqual(["start phoenix in bac", "scrolling back in xt", "look at tmux mouse m"]);
    expect(all[2]?.turn).toBe(1);
  });

  it("a replaced file (new inode) is read from its start; nothing is appended twice", async () => {
    const dir = tmp();
    const root = join(dir, "projects");
    mkdirSync(root);
    const target = join(root, "s.jsonl");
    writeFileSync(target, readFileSync(join(spotterDir, "short.jsonl")));
    await sweep(root, dir);
    const repl = join(root, "s.jsonl.new");
    writeFileSync(repl, Buffer.concat([readFileSync(join(spotterDir, "short.jsonl")), readFileSync(join(spotterDir, "tool_heavy.jsonl"))]));
    renameSync(repl, target);
    const r = await sweep(root, dir);
    expect(r).toMatchObject({ fullReads: 1, resumed: 0, newExchanges: 2, alreadyPresent: 1 });
    const cursor = JSON.parse(readFileSync(cursorPath(join(dir, "state")), "utf8"));
    expect(cursor.schema).toBe("exchanges-cursor/2");
    expect(cursor.files[target].offset).toBe(readFileSync(target).length);
  });
});

describe("captured", () => {
  it("marks a turn the ledger holds: same session and text, or within 30 s before the next prompt", async () => {
    const dir = tmp();
    const root = join(dir, "projects");
    copySpotter(root);
    const session = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
    const index = new CapturedIndex([
      { sessionId: session, text: "Start Phoenix  in background", tsMs: null },
      { sessionId: session, text: "still broken", tsMs: Date.parse("2026-02-10T22:59:40.000Z") },
      { sessionId: "another-session", text: "mix phx.server doesnt seem to start", tsMs: null },
    ]);
    const r = await sweep(root, dir, { captured: index });
    expect(r.captured).toBe(2);
    const byPrompt = new Map(rows(exchangesPath(join(dir, "v4"))).map((e) => [e.prompt.slice(0, 12), e.captured]));
    expect(Object.fromEntries(byPrompt)).toEqual({
      "mix phx.serv": false,
      "create the b": false,
      "start phoeni": true,
      "scrolling ba": true,
    });
  });

  it("errata exchanges reads the ledger through the store", async () => {
    const dir = tmp();
    const root = join(dir, "projects");
    copySpotter(root);
    const env = { ERRATA_DIR: join(dir, "ledger"), HOME: dir };
    const paths = resolvePaths(env, dir);
    const ledger = openLedger(paths, { warn: () => undefined });
    ledger.append(
      newErratum({
        nowMs: Date.parse("2026-02-10T22:59:25.000Z"),
        ts: "2026-02-10T22:59:25.000Z",
        complaint: "scrolling back in xterm.js still does not work",
        reporter: { id: "rp-0123456789abcdef", role: "owner" },
        source: "hook",
        context: { session_id: "d6e0bada-1959-4eec-a9d2-0bfade768d8f" },
      }),
    );
    const io = memoryIo({ env });
    expect(await run(["exchanges", "--root", root, "--json"], io.io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ new_exchanges: 4, captured: 1 });
    const captured = rows(join(dir, "ledger", "v4", "exchanges.jsonl")).filter((e) => e.captured);
    expect(captured.map((e) => e.source_ref)).toEqual(["-home-USER-projects-spotter/tool_heavy.jsonl:26"]);
  });

  it("the time rule stops at the next prompt and at 30 s", () => {
    const index = new CapturedIndex([{ sessionId: "s", text: "x", tsMs: Date.parse("2026-01-01T00:00:20Z") }]);
    const ex = { session_id: "s", prompt: "y", prompt_ts: "2026-01-01T00:00:00Z" };
    expect(index.isCaptured(ex, null)).toBe(true);
    expect(index.isCaptured(ex, "2026-01-01T00:00:10Z")).toBe(false);
    expect(index.isCaptured({ ...ex, prompt_ts: "2025-12-31T23:59:49Z" }, null)).toBe(false);
    expect(index.isCaptured({ ...ex, session_id: "t" }, null)).toBe(false);
  });
});
