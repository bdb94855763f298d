// The ladder's subcommands in process: the approval table end to end from the command line,
// bad input exits 2 and writes nothing, --dry-run writes nothing, a hand-edited file refused.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { openRuleLedger } from "../../runtime/ladder/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { pnpm, writeSession } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ladder-cli-")));
afterEach(() => tmp.cleanup());

async function cli(args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir }, cwd: tmp.dir, now: Date.parse("2026-11-26T03:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

function seed(): { ladder: string; t1: string; t2: string } {
  const ladder = join(tmp.dir, "ledger", "ladder");
  mkdirSync(ladder, { recursive: true });
  writeFileSync(join(tmp.dir, "CLAUDE.md"), "- Use pnpm, never npm.\n");
  openRuleLedger(ladder).append([{ ...pnpm, text: "Use pnpm, never npm.", location: { kind: "text", file: join(tmp.dir, "CLAUDE.md"), section: null } }]);
  for (const s of ["a", "b"]) writeFileSync(join(ladder, "instructions-loaded.jsonl"), `${JSON.stringify({ v: 1, ts: "t", session_id: s, file_path: join(tmp.dir, "CLAUDE.md"), memory_type: "Project", load_reason: "session_start", globs: null, trigger_file_path: null, parent_file_path: null })}\n`, { flag: "a" });
  const slip = [
    { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed with npm." },
    { prompt: "No, that's wrong. I told you to use pnpm, not npm.", reply: "Redone." },
  ];
  return { ladder, t1: writeSession(tmp.dir, "a", "2026-11-20T10:00:00Z", slip), t2: writeSession(tmp.dir, "b", "2026-11-24T10:00:00Z", slip) };
}

describe("errata rules audit|approvals|approve|reject|undo|morning|budget", () => {
  it("audit drafts, approvals lists, approve installs the check in shadow, undo removes it", async () => {
    const { ladder, t1, t2 } = seed();
    const dry = await cli(["rules", "audit", "--transcript", t1, t2, "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ ok: true, dry_run: true, incidents: 2 });
    expect(existsSync(join(ladder, "proposals.jsonl"))).toBe(false);
    const a = await cli(["rules", "audit", "--transcript", t1, t2, "--json"]);
    const [id] = (JSON.parse(a.out) as { proposals: string[] }).proposals;
    expect(id).toMatch(/^pr-[0-9a-f]{10}$/);
    expect((await cli(["rules", "approvals"])).out).toContain(`${id}  climb 2 -> 3  claude.tools.pnpm01  [pending]`);
    expect((await cli(["rules", "morning"])).out).toContain(`${id} climb 2 -> 3`);
    expect((await cli(["rules", "approve", id!, "--dry-run"])).out).toMatch(/^would apply/);
    expect(existsSync(join(ladder, "checks.json"))).toBe(false);
    const ok = await cli(["rules", "approve", id!]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(join(ladder, "checks.json"), "utf8")).checks[0].mode).toBe("shadow");
    expect((await cli(["rules", "approve", id!])).code).toBe(2); // already applied
    expect((await cli(["rules", "undo", id!])).code).toBe(0);
    expect(existsSync(join(ladder, "checks.json"))).toBe(false);
  });

  it("bad input exits 2 and writes nothing; an apply over a hand edit exits 1 and leaves the file", async () => {
    const { ladder, t1, t2 } = seed();
    const before = (f: string) => (existsSync(f) ? readFileSync(f, "utf8") : null);
    expect((await cli(["rules", "approve", "pr-0000000000"])).code).toBe(2);
    const j = await cli(["rules", "approve", "pr-0000000000", "--json"]);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.out)).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect((await cli(["rules", "reject", "pr-0000000000", "--why", "x"])).code).toBe(2);
    expect((await cli(["rules", "budget", "--budget", "0"])).code).toBe(2);
    expect((await cli(["rules", "budget", "--file", "nope.md"])).code).toBe(2);
    expect(before(join(ladder, "proposals.jsonl"))).toBeNull();
    const id = (JSON.parse((await cli(["rules", "audit", "--transcript", t1, t2, "--json"])).out) as { proposals: string[] }).proposals[0]!;
    writeFileSync(join(ladder, "checks.json"), '{"version":1,"checks":[]}\n'); // the owner, by hand
    const r = await cli(["rules", "approve", id]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/changed since proposal .* not overwritten/);
    expect(readFileSync(join(ladder, "checks.json"), "utf8")).toBe('{"version":1,"checks":[]}\n');
    expect((await cli(["rules", "reject", id, "--why", "the hand edit wins"])).code).toBe(0);
    expect((JSON.parse((await cli(["rules", "approvals", "--all", "--json"])).out) as { proposals: Array<{ status: string }> }).proposals.map((p) => p.status)).toEqual(["rejected"]);
  });

  it("audit --root reads every transcript under a folder; --project names where climbs edit", async () => {
    const { t1 } = seed();
    const r = await cli(["rules", "audit", "--root", ".", "--project", tmp.dir, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ incidents: 2, turns: 4 });
    expect(t1.endsWith("a.jsonl")).toBe(true);
  });

  it("budget shows the file against its budget", async () => {
    seed();
    const r = await cli(["rules", "budget", "--budget", "1", "--json"]);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, lines: 1, budget: 1, over: 0, ranked: [{ rule_id: "claude.tools.pnpm01", harm: 0 }], would_move: [] });
  });
});
