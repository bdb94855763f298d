// The Stop hook's reflection, through the real hook (runHook, in process): a correction the
// UserPromptSubmit hook captured is sorted by cause after the answer, keyed by the exchange id
// the nightly auditor gives the same turn, once; a Stop with nothing captured writes nothing;
// a fault is one stderr line and the auditor sorts what the reflection did not.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { reflectAfterStop, sessionCapture } from "../../runtime/hooks/hook-reflect.js";
import { claudeCodeExchangeId } from "../../runtime/hooks/hook-reflect-sort.js";
import { LADDER_DIR, SORTED_FILE } from "../../runtime/ladder-formats/files.js";
import { monthFileName } from "../../runtime/store/ids.js";
import { openRuleLedger, readReceipts, runAudit, sortedCauses, transcriptTurns } from "../../runtime/ladder/index.js";
import { exchangeId } from "../../runtime/transcripts/index.js";
import { ReceiptSchema } from "../../schemas/ladder-proposals.js";
import { hookIo, ledgerLines } from "../hooks/hook-helpers.js";
import { tempDir } from "../helpers/io.js";
import { pnpm, writeSession, type Step } from "./helpers.js";
import { built } from "../helpers/built.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-reflection-")));
afterEach(() => tmp.cleanup());

const START = "2026-11-30T11:00:00.000Z";
const first: Step = { prompt: "add lodash to the project", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed lodash with npm." };
const CORRECTION = "No, that's wrong. I told you: we use pnpm here, never npm.";

/** The session as the host writes it: the steps, then the typed prompt (and later its answer). */
function session(dir: string, id: string, prompt: string): { file: string; promptIso: string; answer: () => void } {
  const file = writeSession(dir, id, START, [first, { prompt, reply: "__cut__" }]);
  // writeSession answers every step; keep the last prompt unanswered until the agent replies.
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  const answer = lines.pop()!;
  writeFileSync(file, `${lines.join("\n")}\n`);
  const promptIso = (JSON.parse(lines[lines.length - 1]!) as { timestamp: string }).timestamp;
  return { file, promptIso, answer: () => appendFileSync(file, `${answer.replace("__cut__", "Sorry: switched to pnpm add lodash.")}\n`) };
}

const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

async function prompt(env: Record<string, string>, sessionId: string, transcript: string, text: string, nowIso: string) {
  const h = hookIo(JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: "/home/u/app", hook_event_name: "UserPromptSubmit", prompt: text }), env, nowIso);
  expect(await runHook(["user-prompt-submit"], h.io)).toBe(0);
  return h;
}

async function stop(env: Record<string, string>, sessionId: string, transcript: string, nowIso: string) {
  const h = hookIo(JSON.stringify({ session_id: sessionId, transcript_path: transcript, hook_event_name: "Stop", last_assistant_message: "Sorry: switched to pnpm add lodash." }), env, nowIso);
  expect(await runHook(["stop"], h.io)).toBe(0);
  return h;
}

function sortedLines(ledger: string): Array<Record<string, unknown>> {
  const f = join(ledger, LADDER_DIR, SORTED_FILE);
  return existsSync(f) ? readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

describe("the Stop hook's reflection", () => {
  it("sorts the captured prompt by cause, keyed by the auditor's exchange id, with a receipt; a second Stop keeps the first", async () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const s = session(tmp.dir, "s-pnpm", CORRECTION);
    const cap = await prompt(env, "s-pnpm", s.file, CORRECTION, at(s.promptIso, 400));
    expect(cap.out()).toMatch(/captured this prompt as a correction \(er-[0-9]{8}-[0-9a-f]{6}\); acceptance pending/);
    s.answer();
    const st = await stop(env, "s-pnpm", s.file, at(s.promptIso, 30_000));
    expect(st.out()).toBe("");
    expect(st.err()).toBe("");

    const turns = (await transcriptTurns(s.file)).turns;
    const lines = sortedLines(ledger);
    expect(lines).toHaveLength(1);
    const erratum = ledgerLines(ledger).find((l) => l["kind"] === "correction")!;
    expect(lines[0]).toMatchObject({ v: 1, exchange_id: turns[1]!.exchange_id, cause: "rule_gap", by: "reflection", erratum_id: erratum["id"], session_id: "s-pnpm" });
    // The line holds ids, a class and numbers only: no words of the prompt.
    expect(JSON.stringify(lines[0])).not.toMatch(/pnpm here|npm\./);
    const receipts = readReceipts(join(ledger, LADDER_DIR));
    expect(receipts.map((r) => [r.loop, r.counts])).toEqual([["reflection", { sorted: 1 }]]);
    expect(ReceiptSchema.safeParse(receipts[0]).success).toBe(true);

    expect(receipts[0]!.note).toBe(`${String(erratum["id"])}: sorted (rule_gap)`);

    // A second Stop for the same prompt (a Stop hook that continued the turn): the gate finds the
    // receipt naming the erratum and writes nothing.
    const again = await stop(env, "s-pnpm", s.file, at(s.promptIso, 60_000));
    expect(again.err()).toBe("");
    expect(sortedLines(ledger)).toHaveLength(1);
    expect(readReceipts(join(ledger, LADDER_DIR))).toHaveLength(1);

    // A reflection killed between its sorted line and its receipt: the next Stop sorts nothing twice.
    writeFileSync(join(ledger, LADDER_DIR, "receipts.jsonl"), "");
    await stop(env, "s-pnpm", s.file, at(s.promptIso, 90_000));
    expect(sortedLines(ledger)).toHaveLength(1);
    expect(readReceipts(join(ledger, LADDER_DIR)).map((r) => [r.counts, r.note])).toEqual([[{ sorted: 0, duplicates: 1 }, `${String(erratum["id"])}: already sorted; the first cause stands`]]);

    // The auditor takes the reflection's sort for that exchange (sortedCauses is what it reads).
    expect(sortedCauses(join(ledger, LADDER_DIR)).get(turns[1]!.exchange_id)).toBe("rule_gap");
  });

  it("the auditor counts the sorted correction once, and a reflection's other cause keeps the rule untouched", async () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const s = session(tmp.dir, "s-audit", CORRECTION);
    await prompt(env, "s-audit", s.file, CORRECTION, at(s.promptIso, 400));
    s.answer();
    await stop(env, "s-audit", s.file, at(s.promptIso, 30_000));
    const dir = join(ledger, LADDER_DIR);
    openRuleLedger(dir).append([pnpm]);
    const r = await runAudit({ ladderDir: dir, projectDir: tmp.dir, transcripts: [s.file], at: "2026-12-01T03:00:00.000Z" });
    expect(r.sorted["rule_gap"]).toBe(1);
    expect(r.incidents).toBe(1);

    // Had the reflection sorted it as an outage, the audit would follow it and touch no rule.
    const other = join(tmp.dir, "other");
    mkdirSync(other);
    openRuleLedger(other).append([pnpm]);
    const id = (await transcriptTurns(s.file)).turns[1]!.exchange_id;
    writeFileSync(join(other, SORTED_FILE), `${JSON.stringify({ v: 1, exchange_id: id, cause: "environment", by: "reflection" })}\n`);
    const r2 = await runAudit({ ladderDir: other, projectDir: tmp.dir, transcripts: [s.file], at: "2026-12-01T03:00:00.000Z" });
    expect(r2.sorted).toEqual({ environment: 1 });
    expect(r2.incidents).toBe(0);
  });

  it("waits for a transcript that has not written the captured prompt yet (the client writes it asynchronously)", async () => {
    // Seen in the real client on a loaded machine: the Stop hook ran while the transcript's last
    // typed prompt was still the one before the correction, and the correction went to the audit.
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const s = session(tmp.dir, "s-lag", CORRECTION);
    await prompt(env, "s-lag", s.file, CORRECTION, at(s.promptIso, 400));
    s.answer();
    const lines = readFileSync(s.file, "utf8").trimEnd().split("\n");
    writeFileSync(s.file, `${lines.slice(0, -2).join("\n")}\n`); // the typed prompt and its answer: not written yet
    const late = setTimeout(() => appendFileSync(s.file, `${lines.slice(-2).join("\n")}\n`), 300);
    try {
      await stop(env, "s-lag", s.file, at(s.promptIso, 30_000));
    } finally {
      clearTimeout(late);
    }
    expect(sortedLines(ledger).map((l) => l["exchange_id"])).toEqual([(await transcriptTurns(s.file)).turns[1]!.exchange_id]);
    expect(readReceipts(join(ledger, LADDER_DIR)).map((r) => r.note)).toEqual([expect.stringMatching(/^er-\S+: sorted \(/)]);
  });

  it("a Stop with nothing captured writes nothing, and one after an uncaptured prompt does not sort an earlier capture", async () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const plain = session(tmp.dir, "s-plain", "now add a test for it");
    expect((await prompt(env, "s-plain", plain.file, "now add a test for it", at(plain.promptIso, 400))).out()).toBe("");
    plain.answer();
    const st = await stop(env, "s-plain", plain.file, at(plain.promptIso, 30_000));
    expect(st.err()).toBe("");
    expect(existsSync(join(ledger, LADDER_DIR))).toBe(false);

    // Captured "no", answered, then an ordinary prompt (not captured) and its Stop: nothing to sort.
    const s = session(tmp.dir, "s-later", "no");
    await prompt(env, "s-later", s.file, "no", at(s.promptIso, 400));
    appendFileSync(s.file, `${JSON.stringify({ isSidechain: false, userType: "external", sessionId: "s-later", type: "user", uuid: "later-1", timestamp: at(s.promptIso, 90_000), message: { role: "user", content: "no worries, now run the tests" } })}\n`);
    await prompt(env, "s-later", s.file, "no worries, now run the tests", at(s.promptIso, 90_400));
    expect(ledgerLines(ledger).filter((l) => (l["context"] as { session_id?: string }).session_id === "s-later")).toHaveLength(1);
    const st2 = await stop(env, "s-later", s.file, at(s.promptIso, 120_000));
    expect(st2.err()).toBe("");
    expect(sortedLines(ledger)).toEqual([]);
    // That run left the row to the audit, and says so once: the next Stop's gate skips it.
    const notes = () => readReceipts(join(ledger, LADDER_DIR)).map((r) => r.note);
    expect(notes()).toEqual([expect.stringMatching(/^er-\S+: not the capture of the transcript's last prompt; left for the audit$/)]);
    await stop(env, "s-later", s.file, at(s.promptIso, 150_000));
    expect(notes()).toHaveLength(1);
  });

  it("the gate: the newest hook row of the session in this month's ledger file (the store's file name), praise never sorted", () => {
    const ledger = join(tmp.dir, "ledger");
    mkdirSync(ledger);
    const now = Date.parse("2026-12-01T00:30:00.000Z");
    const row = (id: string, session: string, kind: string, ts: string) => JSON.stringify({ id, ts, channel: "hook", kind, complaint: "no", context: { session_id: session } });
    // The previous day's month file is read too (a prompt just before midnight at a month's end).
    writeFileSync(join(ledger, monthFileName("2026-11")), `${row("er-20261130-aaaaaa", "s1", "correction", "2026-11-30T23:59:00.000Z")}\n${row("er-20261130-bbbbbb", "s2", "correction", "2026-11-30T23:59:30.000Z")}\n`);
    expect(sessionCapture(ledger, "s1", now)?.id).toBe("er-20261130-aaaaaa");
    writeFileSync(join(ledger, monthFileName("2026-12")), `${row("er-20261201-cccccc", "s1", "praise", "2026-12-01T00:10:00.000Z")}\n`);
    expect(sessionCapture(ledger, "s1", now)).toBeNull(); // the newest row is praise: nothing to sort
    expect(sessionCapture(ledger, "s2", now)?.id).toBe("er-20261130-bbbbbb");
    expect(sessionCapture(ledger, "s3", now)).toBeNull();
  });

  it("a prompt with a secret is still matched to its redacted capture", async () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const text = "No, that's wrong. I told you never to paste my token ghp_16C7e42F292c6912E7710c838347Ae178B4a into the config, use pnpm.";
    const s = session(tmp.dir, "s-secret", text);
    await prompt(env, "s-secret", s.file, text, at(s.promptIso, 400));
    expect(String(ledgerLines(ledger)[0]!["complaint"])).toContain("[REDACTED:");
    s.answer();
    await stop(env, "s-secret", s.file, at(s.promptIso, 30_000));
    expect(sortedLines(ledger).map((l) => l["exchange_id"])).toEqual([(await transcriptTurns(s.file)).turns[1]!.exchange_id]);
  });

  it("a fault is one stderr line and sorts nothing; the nightly audit sorts it (journey transition 7)", async () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const s = session(tmp.dir, "s-fault", CORRECTION);
    await prompt(env, "s-fault", s.file, CORRECTION, at(s.promptIso, 400));
    s.answer();
    const said: string[] = [];
    const out = await reflectAfterStop({
      env,
      cwd: "/",
      nowMs: Date.parse(at(s.promptIso, 30_000)),
      sessionId: "s-fault",
      transcriptPath: s.file,
      verdictKind: () => {
        throw new Error("classifier data unreadable");
      },
      say: (l) => said.push(l),
    });
    expect(out).toEqual({ ran: false });
    expect(said).toEqual(["reflection fault (classifier data unreadable); the nightly audit sorts this correction"]);
    const dir = join(ledger, LADDER_DIR);
    expect(sortedCauses(dir).size).toBe(0);
    openRuleLedger(dir).append([pnpm]);
    const r = await runAudit({ ladderDir: dir, projectDir: tmp.dir, transcripts: [s.file], at: "2026-12-01T03:00:00.000Z" });
    expect(r.sorted["rule_gap"]).toBe(1);
    expect(r.incidents).toBe(1);

    // Through the hook: an unwritable ladder folder (a file in its place) still exits 0, with one line.
    const s2 = session(tmp.dir, "s-fault2", CORRECTION);
    const ledger2 = join(tmp.dir, "ledger2");
    const env2 = { ERRATA_DIR: ledger2, HOME: tmp.dir };
    await prompt(env2, "s-fault2", s2.file, CORRECTION, at(s2.promptIso, 400));
    writeFileSync(join(ledger2, LADDER_DIR), "not a folder");
    s2.answer();
    const st = await stop(env2, "s-fault2", s2.file, at(s2.promptIso, 30_000));
    expect(st.err().trim().split("\n")).toEqual([expect.stringMatching(/^errata hook: reflection fault \(.*\); the nightly audit sorts this correction$/)]);
  });

  it.skipIf(!built)("as Claude Code runs it: bin/errata.cjs hook stop loads the reflection's bundle part and sorts the capture", () => {
    const bin = join(resolve(fileURLToPath(new URL("../..", import.meta.url))), "bin", "errata.cjs");
    const ledger = join(tmp.dir, "ledger");
    const env = { ...process.env, ERRATA_DIR: ledger, HOME: tmp.dir };
    // Real time: the process stamps the capture with the clock, so the transcript must be of now.
    const s = session(tmp.dir, "s-proc", CORRECTION);
    const shift = Date.now() - Date.parse(s.promptIso);
    const text = readFileSync(s.file, "utf8").replace(/"timestamp":"([^"]+)"/g, (_m, t: string) => `"timestamp":"${new Date(Date.parse(t) + shift).toISOString()}"`);
    writeFileSync(s.file, text);
    const run = (event: string, payload: object) => spawnSync(process.execPath, [bin, "hook", event], { input: JSON.stringify(payload), env, encoding: "utf8" });
    const cap = run("user-prompt-submit", { session_id: "s-proc", transcript_path: s.file, cwd: tmp.dir, hook_event_name: "UserPromptSubmit", prompt: CORRECTION });
    expect(cap.status).toBe(0);
    expect(cap.stdout).toMatch(/acceptance pending/);
    s.answer();
    const st = run("stop", { session_id: "s-proc", transcript_path: s.file, hook_event_name: "Stop", last_assistant_message: "Sorry." });
    expect([st.status, st.stdout, st.stderr]).toEqual([0, "", ""]);
    expect(sortedLines(ledger)).toEqual([expect.objectContaining({ cause: "rule_gap", by: "reflection", session_id: "s-proc" })]);
  });

  it("a correction no cue of the cause model places is left for the audit as undecided, never stored as beyond_model", async () => {
    // Walked as a user (2026-12-07): French, Spanish, Finnish, Portuguese, Russian and German
    // corrections were each stored "sorted (beyond_model)": the model's constant answer when no
    // cue fires, which says nothing about the correction.
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir };
    const words = "Je t'ai déjà dit de ne jamais afficher les secrets !";
    const s = session(tmp.dir, "s-fr", words);
    const cap = await prompt(env, "s-fr", s.file, words, at(s.promptIso, 400));
    expect(cap.out()).toMatch(/captured this prompt as a correction/);
    s.answer();
    await stop(env, "s-fr", s.file, at(s.promptIso, 30_000));
    expect(sortedLines(ledger)).toEqual([]);
    const receipt = readReceipts(join(ledger, LADDER_DIR)).filter((r) => r.loop === "reflection").at(-1)!;
    expect(receipt.note).toMatch(/undecided/);
    expect(receipt.note).not.toMatch(/beyond_model/);
    expect(receipt.counts).toMatchObject({ sorted: 0, undecided: 1 });
    const r = await runAudit({ ladderDir: join(ledger, LADDER_DIR), projectDir: null, transcripts: [s.file], at: "2026-12-01T03:00:00Z" });
    expect(r.sorted["beyond_model"] ?? 0).toBe(0);
    expect(r.sorted["undecided"]).toBeGreaterThanOrEqual(1);
  });

  it("names the exchange as the transcript reader does", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (session, key) => claudeCodeExchangeId(session, key) === exchangeId("claude-code", session, key)), { seed: 22, numRuns: 300 });
  });
});
