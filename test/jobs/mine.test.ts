import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, utimesSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { ErratumSchema } from "../../schemas/erratum.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { hookIo, ledgerLines } from "../hooks/hook-helpers.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
// Real Claude Code sessions bundled with the repo (spotter, MIT): 4 typed prompts in 3 files.
const spotter = join(repoRoot, "datasets", "claude-code", "spotter");
const XTERM = "scrolling back in xterm.js still does not work";

let tmp: { dir: string; cleanup: () => void };
let root: string;
let ledger: string;
beforeEach(() => {
  tmp = tempDir("errata-mine-");
  root = join(tmp.dir, "projects", "-home-u-spotter");
  mkdirSync(root, { recursive: true });
  for (const f of ["short.jsonl", "tool_heavy.jsonl", "subagent.jsonl"]) cpSync(join(spotter, f), join(root, f));
  ledger = join(tmp.dir, "ledger");
});
afterEach(() => tmp.cleanup());

async function mine(...extra: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: ledger, USER: "ann" } });
  const code = await run(["mine", "--root", join(tmp.dir, "projects"), "--json", ...extra], m.io);
  return { code, report: code === 0 ? (JSON.parse(m.out()) as Record<string, number>) : null, err: m.err() };
}

describe("errata mine", () => {
  it("finds the real pushback in the bundled sessions and keeps the verbatim words", async () => {
    const r = await mine();
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ root_files: 3, files_read: 3, prompts: 4, written: 1, already_captured: 0 });
    const rows = ledgerLines(ledger).map((l) => ErratumSchema.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "correction", channel: "mine", source: "owner", ts: "2026-02-10T22:59:22.893Z" });
    expect(rows[0]?.complaint.startsWith(XTERM)).toBe(true);
    expect(rows[0]?.context).toMatchObject({ session_id: expect.stringMatching(/^d6e0bada/), requested: "start phoenix in background" });
    // Only the end of the reply is known: a preview, but no hash that would not match the whole reply.
    expect(rows[0]?.context.response_preview).not.toBeNull();
    expect(rows[0]?.context.response_hash).toBeNull();
  });

  it("is idempotent: a re-run reads nothing; a changed file is re-read and writes nothing twice", async () => {
    await mine();
    const again = await mine();
    expect(again.report).toMatchObject({ files_unchanged: 3, files_read: 0, written: 0 });
    const f = join(root, "tool_heavy.jsonl");
    appendFileSync(f, "\n");
    utimesSync(f, new Date(), new Date(Date.now() + 5_000));
    const changed = await mine();
    expect(changed.report).toMatchObject({ files_read: 1, written: 0, already_captured: 1 });
    expect(ledgerLines(ledger)).toHaveLength(1);
  });

  it("does not write a turn the hook already captured (same session and text)", async () => {
    const lines = readFileSync(join(root, "tool_heavy.jsonl"), "utf8").split("\n").filter(Boolean);
    const sid = (JSON.parse(lines.find((l) => l.includes('"sessionId"')) ?? "{}") as { sessionId: string }).sessionId;
    const prompt = lines
      .map((l) => JSON.parse(l) as { type?: string; message?: { content?: unknown } })
      .map((o) => (o.type === "user" && typeof o.message?.content === "string" ? o.message.content : null))
      .find((c) => c?.startsWith(XTERM));
    const h = hookIo(JSON.stringify({ session_id: sid, prompt }), { ERRATA_DIR: ledger, USER: "ann" }, "2026-12-01T00:00:00.000Z");
    await runHook(["user-prompt-submit"], h.io);
    expect(ledgerLines(ledger)).toHaveLength(1);
    const r = await mine();
    expect(r.report).toMatchObject({ written: 0, already_captured: 1 });
    expect(ledgerLines(ledger)).toHaveLength(1);
  });

  it("does not write a turn captured within 30 s after the prompt, whatever its text", async () => {
    const lines = readFileSync(join(root, "tool_heavy.jsonl"), "utf8").split("\n").filter(Boolean);
    const sid = (JSON.parse(lines.find((l) => l.includes('"sessionId"')) ?? "{}") as { sessionId: string }).sessionId;
    // A hook row stamped 4 s after the prompt (typed 22:59:22.893), with the words cut differently.
    const h = hookIo(JSON.stringify({ session_id: sid, prompt: "still does not work" }), { ERRATA_DIR: ledger, USER: "ann" }, "2026-02-10T22:59:26.900Z");
    await runHook(["user-prompt-submit"], h.io);
    const r = await mine();
    expect(r.report).toMatchObject({ written: 0, already_captured: 1 });
  });

  it("--limit-files reads a few files per run and resumes", async () => {
    const first = await mine("--limit-files", "1");
    expect(first.report).toMatchObject({ files_read: 1, files_left: 2 });
    const second = await mine("--limit-files", "1");
    expect(second.report).toMatchObject({ files_read: 1, files_left: 1, files_unchanged: 1 });
    const third = await mine();
    expect(third.report).toMatchObject({ files_read: 1, files_left: 0, files_unchanged: 2 });
    expect(ledgerLines(ledger)).toHaveLength(1);
  });

  it("without --json: one summary line, counts with their nouns", async () => {
    const text = async (...extra: string[]) => {
      const m = memoryIo({ env: { ERRATA_DIR: ledger, USER: "ann" } });
      expect(await run(["mine", "--root", join(tmp.dir, "projects"), ...extra], m.io)).toBe(0);
      return m.out();
    };
    expect(await text("--limit-files", "1")).toMatch(/^wrote 0 errata from (1 typed prompt|[02-9] typed prompts) in 1 file \(0 of them SYNTHETIC, 0 already captured, 0 files unchanged, 2 left for the next run\)\n$/);
    expect(await text()).toMatch(/^wrote 1 errata from \d typed prompts? in 2 files \(0 of them SYNTHETIC, 0 already captured, 1 file unchanged, 0 left for the next run\)\n$/);
  });

  it("--dry-run writes no row and no cursor", async () => {
    const r = await mine("--dry-run");
    expect(r.report).toMatchObject({ written: 1, dry_run: true });
    expect(existsSync(ledger)).toBe(false);
  });

  it("bad input: exit 2, nothing written", async () => {
    const m = memoryIo({ env: { ERRATA_DIR: ledger } });
    expect(await run(["mine", "--root", join(tmp.dir, "nope")], m.io)).toBe(2);
    expect(await run(["mine", "--root", root, "--limit-files", "0"], m.io)).toBe(2);
    expect(existsSync(ledger)).toBe(false);
  });
});
