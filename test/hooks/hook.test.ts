import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { loadLastReply } from "../../runtime/hooks/hook-state.js";
import { sha256Tagged } from "../../core/sha256.js";
import { ErratumSchema } from "../../schemas/erratum.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { hookIo, ledgerLines, transcriptLines } from "./hook-helpers.js";

let tmp: { dir: string; cleanup: () => void };
let ledger: string;
let env: Record<string, string | undefined>;
beforeEach(() => {
  tmp = tempDir("errata-hook-");
  ledger = join(tmp.dir, "ledger");
  env = { ERRATA_DIR: ledger, USER: "ann", HOME: tmp.dir };
});
afterEach(() => tmp.cleanup());

const prompt = (p: Record<string, unknown>) => JSON.stringify({ session_id: "s1", hook_event_name: "UserPromptSubmit", cwd: "/home/u/app", ...p });

async function submit(stdin: string, nowIso?: string) {
  const h = hookIo(stdin, env, nowIso);
  const code = await runHook(["user-prompt-submit"], h.io);
  return { code, out: h.out(), err: h.err(), rows: ledgerLines(ledger) };
}

describe("errata hook user-prompt-submit", () => {
  it("captures an explicit correction as one valid row and says so truthfully", async () => {
    const r = await submit(prompt({ prompt: "No, that's wrong. I already told you to use pnpm!!" }));
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    expect(r.rows).toHaveLength(1);
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row).toMatchObject({ source: "owner", channel: "hook", kind: "correction", rating: null, frustration: 1, status: "new" });
    expect(row.complaint).toBe("No, that's wrong. I already told you to use pnpm!!");
    expect(row.context).toMatchObject({ session_id: "s1", cwd: "/home/u/app" });
    expect(r.out).toBe(`Errata captured this prompt as a correction (${row.id}); acceptance pending.\n`);
    expect(r.out).not.toMatch(/remember/i);
  });

  it("an ordinary prompt writes nothing and prints nothing", async () => {
    const r = await submit(prompt({ prompt: "add a retry to the fetch call" }));
    expect(r).toMatchObject({ code: 0, out: "", err: "", rows: [] });
    expect(existsSync(ledger)).toBe(false);
  });

  it("a rating of 7 or more is praise with no rating; below 7 a complaint keeping it", async () => {
    const praise = await submit(prompt({ prompt: "8/10" }));
    expect(praise.out).toMatch(/^Errata captured this prompt as praise \(er-\d{8}-[0-9a-f]{6}\); acceptance pending\.\n$/);
    const complaint = await submit(prompt({ prompt: "5/10, the docs are thin" }));
    expect(complaint.out).toMatch(/^Errata captured this prompt as a complaint \(/);
    const rows = ledgerLines(ledger).map((x) => ErratumSchema.parse(x));
    expect(rows.map((x) => [x.kind, x.rating])).toEqual([
      ["praise", null],
      ["complaint", 5],
    ]);
  });

  it("a standing directive is a row of kind directive, announced as one", async () => {
    const r = await submit(prompt({ prompt: "From now on, always run the linter before committing." }));
    expect(ErratumSchema.parse(r.rows[0]).kind).toBe("directive");
    expect(r.out).toMatch(/as a standing directive \(er-\d{8}-[0-9a-f]{6}\); acceptance pending/);
  });

  it("keeps the verdict's repeat cue in the deep-context attachment, and only when it is there", async () => {
    // A deep context needs a reply to keep: the transcript holds one.
    const transcript = join(tmp.dir, "s1.jsonl");
    writeFileSync(transcript, transcriptLines("s1", "fix the import path", "Done: I used npm to install it."));
    const r = await submit(prompt({ prompt: "ugh, you did it again", transcript_path: transcript }));
    const again = ErratumSchema.parse(r.rows[0]);
    const ctx = (id: string) => JSON.parse(readFileSync(join(ledger, ".state", "attachments", id, "context.json"), "utf8"));
    expect(ctx(again.id).verdict).toMatchObject({ kind: "correction", repeat: true });
    const r2 = await submit(prompt({ prompt: "you edited the wrong file", transcript_path: transcript }));
    expect(ctx(ErratumSchema.parse(r2.rows[1]).id).verdict).not.toHaveProperty("repeat");
  });

  it("fills the ask, the tool calls, the reply preview and hash, the model and version from the transcript", async () => {
    const transcript = join(tmp.dir, "s1.jsonl");
    const reply = "Done: I rewrote the parser tests and they pass.";
    writeFileSync(transcript, transcriptLines("s1", "fix the flaky parser test", reply, { next: "that's not what I asked" }));
    const r = await submit(prompt({ prompt: "that's not what I asked", transcript_path: transcript }));
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.context).toMatchObject({
      requested: "fix the flaky parser test",
      doing: "Bash: npm test",
      response_preview: reply,
      model: "claude-sonnet-4-5",
      version: "2.1.9",
    });
    expect(row.context.response_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    // A correction writes the deep-context attachment and links it.
    expect(row.links.attachments).toEqual([`${row.id}/context.json`]);
    const ctx = JSON.parse(readFileSync(join(ledger, ".state", "attachments", row.id, "context.json"), "utf8"));
    expect(ctx).toMatchObject({ schema: "hook-context/1", reply, requested: "fix the flaky parser test", tool_calls: [{ name: "Bash", summary: "npm test" }] });
  });

  it("uses the reply the Stop hook kept, and the same hash as the transcript would give", async () => {
    const reply = "I pushed the branch to origin.";
    const stop = hookIo(JSON.stringify({ session_id: "s1", hook_event_name: "Stop", last_assistant_message: reply }), env);
    expect(await runHook(["stop"], stop.io)).toBe(0);
    expect(stop.err()).toBe("");
    const r = await submit(prompt({ prompt: "undo that" }));
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.context.response_preview).toBe(reply);
    const transcript = join(tmp.dir, "t.jsonl");
    writeFileSync(transcript, transcriptLines("s2", "push it", reply));
    const r2 = await submit(prompt({ session_id: "s2", prompt: "undo that", transcript_path: transcript }));
    expect(ErratumSchema.parse(r2.rows[1]).context.response_hash).toBe(row.context.response_hash);
  });

  it("the Stop hook falls back to the transcript's last reply, and records its hash, not its text; the capture reads the text there", async () => {
    const transcript = join(tmp.dir, "t.jsonl");
    writeFileSync(transcript, transcriptLines("s1", "deploy", "Deployed to staging."));
    const stop = hookIo(JSON.stringify({ session_id: "s1", transcript_path: transcript }), env);
    await runHook(["stop"], stop.io);
    const kept = loadLastReply(join(tmp.dir, "ledger", ".state"), "s1");
    expect(kept).toMatchObject({ reply: null, reply_withheld: true, reply_sha256: sha256Tagged("Deployed to staging."), model: "claude-sonnet-4-5" });
    const r = await submit(prompt({ prompt: "No.", transcript_path: transcript }));
    // "No." after a statement is a correction only because the reply is known.
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.context.response_preview).toBe("Deployed to staging.");
    expect(row.context.response_hash).toBe(sha256Tagged("Deployed to staging."));
  });

  it("a capture that cannot read the transcript any more still names the reply by the Stop hook's hash", async () => {
    const transcript = join(tmp.dir, "t.jsonl");
    writeFileSync(transcript, transcriptLines("s1", "deploy", "Deployed to staging."));
    await runHook(["stop"], hookIo(JSON.stringify({ session_id: "s1", transcript_path: transcript, last_assistant_message: "Deployed to staging." }), env).io);
    rmSync(transcript);
    const r = await submit(prompt({ prompt: "that's not what I asked, I wanted production", transcript_path: transcript }));
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.context.response_preview).toBeNull();
    expect(row.context.response_hash).toBe(sha256Tagged("Deployed to staging."));
  });

  it("context.output_ids: the session's outputs since the previous prompt", async () => {
    const host = join(tmp.dir, "host");
    mkdirSync(host);
    const out = (id: string, ts: string, session = "s1") => JSON.stringify({ schema: "output/1", id, ts, session_id: session, skill: "x" });
    writeFileSync(
      join(host, "outputs.jsonl"),
      [out("o-old", "2026-11-30T11:50:00.000Z"), out("o-1", "2026-11-30T11:58:40.000Z"), out("o-other", "2026-11-30T11:58:50.000Z", "s9"), "not json", out("o-2", "2026-11-30T11:59:00.000Z")].join("\n"),
    );
    env["ERRATA_HOST_DIR"] = host;
    const transcript = join(tmp.dir, "t.jsonl");
    writeFileSync(transcript, transcriptLines("s1", "write the notes", "Written.", { promptTs: "2026-11-30T11:58:00.000Z" }));
    const r = await submit(prompt({ prompt: "that's wrong", transcript_path: transcript }));
    expect(ErratumSchema.parse(r.rows[0]).context.output_ids).toEqual(["o-1", "o-2"]);
  });

  it("context.output_ids without a prompt time: the last 30 minutes of the session, at most 20", async () => {
    const host = join(tmp.dir, "host");
    mkdirSync(host);
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ schema: "output/1", id: `o-${i}`, ts: new Date(Date.parse("2026-11-30T11:30:30.000Z") + i * 60_000).toISOString(), session_id: "s1", skill: null }),
    );
    writeFileSync(join(host, "outputs.jsonl"), `${lines.join("\n")}\n`);
    env["ERRATA_HOST_DIR"] = host;
    const r = await submit(prompt({ prompt: "that's wrong" }));
    const ids = ErratumSchema.parse(r.rows[0]).context.output_ids;
    expect(ids).toHaveLength(20);
    expect(ids[0]).toBe("o-10");
    expect(ids[19]).toBe("o-29");
  });

  it("redacts secrets in the verbatim words", async () => {
    const r = await submit(prompt({ prompt: "that's wrong, the key is sk-proj-abc123def456ghi789jkl012mno" }));
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.complaint).toContain("[REDACTED:openai-api-key]");
    expect(row.complaint).not.toContain("sk-proj-abc123");
  });

  it.each([
    ["empty stdin", "", /empty stdin/],
    ["whitespace stdin", "  \n", /empty stdin/],
    ["not JSON", "hello there", /not JSON/],
    ["a JSON array", "[1,2]", /not an object/],
    ["no prompt field", JSON.stringify({ session_id: "s1" }), /no prompt/],
  ])("%s: exit 0, one line on stderr, ledger untouched", async (_name, stdin, message) => {
    const r = await submit(stdin);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.out).toBe("");
    expect(r.rows).toEqual([]);
  });

  it("tolerates unknown and missing fields", async () => {
    const r = await submit(JSON.stringify({ prompt: "still broken", prompt_id: "p9", effort: "high", agent_type: "x", extra: { a: [1] } }));
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.context).toMatchObject({ session_id: null, cwd: null, requested: null });
  });

  it("a huge prompt: one bounded row with the head of the words", async () => {
    const huge = `that's wrong. ${"x".repeat(3_000_000)}`;
    const r = await submit(prompt({ prompt: huge }));
    const row = ErratumSchema.parse(r.rows[0]);
    expect(row.complaint.length).toBeLessThan(21_000);
    expect(row.complaint.startsWith("that's wrong.")).toBe(true);
    expect(row.complaint).toMatch(/more characters not kept\]$/);
  });

  it("skips text the person did not type", async () => {
    const r = await submit(prompt({ prompt: "<task-notification>build failed, still broken</task-notification>" }));
    expect(r.rows).toEqual([]);
  });

  it("an internal fault (ledger folder unusable) exits 0 with one stderr line and writes nothing", async () => {
    writeFileSync(ledger, "a file where the ledger folder should be");
    const r = await submit(prompt({ prompt: "that's wrong" }));
    expect(r.code).toBe(0);
    expect(r.out).toBe("");
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/^errata hook: internal fault/);
    expect(readFileSync(ledger, "utf8")).toBe("a file where the ledger folder should be");
  });

  it("an unwritable month file leaves no orphan attachment", async () => {
    mkdirSync(ledger, { recursive: true });
    writeFileSync(join(ledger, "errata-2026-11.jsonl"), "");
    chmodSync(join(ledger, "errata-2026-11.jsonl"), 0o444);
    const transcript = join(tmp.dir, "t.jsonl");
    writeFileSync(transcript, transcriptLines("s1", "a", "b"));
    const r = await submit(prompt({ prompt: "that's wrong", transcript_path: transcript }));
    expect(r.code).toBe(0);
    if (process.getuid?.() === 0) return; // root writes read-only files; the rest of the check needs a normal user
    expect(r.err).toMatch(/internal fault/);
    expect(existsSync(join(ledger, ".state", "attachments"))).toBe(false);
  });

  it("usage and unknown hooks exit 0", async () => {
    const h = hookIo("", env);
    expect(await runHook([], h.io)).toBe(0);
    // Not on stdout: a hook set up with no event would put it in the model's context.
    expect(h.out()).toBe("");
    expect(h.err()).toMatch(/^errata hook: no hook named; nothing captured\. usage: errata hook user-prompt-submit\|stop/);
    const help = hookIo("", env);
    expect(await runHook(["--help"], help.io)).toBe(0);
    expect(help.out()).toMatch(/^usage: errata hook user-prompt-submit\|stop\n/);
    expect(help.out()).toContain('"command": "errata hook stop"');
    expect(help.err()).toBe("");
    const u = hookIo("{}", env);
    expect(await runHook(["pre-tool-use"], u.io)).toBe(0);
    expect(u.err()).toMatch(/unknown hook "pre-tool-use"/);
  });

  it("is reachable through the CLI too (errata hook user-prompt-submit), exit 0", async () => {
    const m = memoryIo({ env, stdin: prompt({ prompt: "ei toimi" }) });
    expect(await run(["hook", "user-prompt-submit"], m.io)).toBe(0);
    const rows = ledgerLines(ledger).map((l) => ErratumSchema.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "correction", complaint: "ei toimi" });
    expect(m.out()).toMatch(/acceptance pending/);
  });
});
