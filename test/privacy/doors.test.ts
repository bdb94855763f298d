/**
 * The secret corpus through every door Errata writes by: `errata add` (the complaint, the
 * context fields and an attachment), the hook (the Stop hook's kept reply, then a correction
 * with the transcript's reply and tool calls as deep context), a mined transcript (`errata
 * mine`) and exchanges (`errata exchanges`, read whole, then resumed from its cursor). Then
 * every file under ERRATA_DIR, ERRATA_STATE_DIR and ERRATA_V4_DIR is read (JSON files as
 * their decoded strings too, so an escaped secret is still seen): no secret may be found in
 * clear, and every look-alike, sent through the same doors, must be found unchanged.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { hookIo } from "../hooks/hook-helpers.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { leakIn, loadCorpus } from "./corpus.js";

const corpus = loadCorpus();

interface World {
  root: string;
  env: Record<string, string>;
  dirs: string[];
}

/** The owner's default ledger (so the state folder is ERRATA_STATE_DIR's and the live record is written too). */
function world(root: string): World {
  const dirs = [join(root, "data", "errata"), join(root, "state"), join(root, "v4")];
  return { root, dirs, env: { HOME: root, USER: "ana@example.com", XDG_DATA_HOME: join(root, "data"), ERRATA_STATE_DIR: dirs[1]!, ERRATA_V4_DIR: dirs[2]! } };
}

async function cli(w: World, argv: string[]): Promise<{ code: number; err: string }> {
  const m = memoryIo({ env: w.env });
  const code = await run(argv, m.io);
  return { code, err: m.err() };
}

const base = { isSidechain: false, userType: "external", cwd: "/home/u/app", version: "2.1.9" };
let uuid = 0;
function line(session: string, parent: string | null, type: "user" | "assistant", content: unknown, ts: string): { uuid: string; text: string } {
  const id = `u${++uuid}`;
  const message = type === "user" ? { role: "user", content } : { id: `msg_${id}`, model: "claude-sonnet-4-5", role: "assistant", content };
  return { uuid: id, text: `${JSON.stringify({ ...base, sessionId: session, type, uuid: id, parentUuid: parent, timestamp: ts, message })}\n` };
}

/** A session whose prompt, tool call and reply each carry `text`; a correction follows. */
function session(session: string, text: string): { body: string; last: string } {
  const p = line(session, null, "user", `please deploy it: ${text}`, "2026-11-30T11:50:00.000Z");
  const tool = line(session, p.uuid, "assistant", [{ type: "tool_use", id: `t-${session}`, name: "Bash", input: { command: `echo ${text}` } }], "2026-11-30T11:50:10.000Z");
  const res = line(session, tool.uuid, "user", [{ type: "tool_result", tool_use_id: `t-${session}`, content: "ok" }], "2026-11-30T11:50:20.000Z");
  const reply = line(session, res.uuid, "assistant", [{ type: "text", text: `Deployed with ${text}` }], "2026-11-30T11:50:30.000Z");
  const fix = line(session, reply.uuid, "user", `No, that's wrong, you broke it again: ${text}`, "2026-11-30T11:51:00.000Z");
  return { body: p.text + tool.text + res.text + reply.text + fix.text, last: fix.uuid };
}

/** Every door, for each text. */
async function throughEveryDoor(w: World, texts: string[]): Promise<void> {
  const projects = join(w.root, "projects", "app");
  mkdirSync(projects, { recursive: true });
  const lasts: string[] = [];
  for (const [i, text] of texts.entries()) {
    const sid = `s${String(i).padStart(3, "0")}`;
    const attach = join(w.root, `attach-${i}.txt`);
    writeFileSync(attach, `notes\n${text}\n`);
    const added = await cli(w, ["add", "--complaint", `it leaked ${text}`, "--requested", text, "--doing", text, "--response", text, "--attach", attach]);
    expect(added, text).toMatchObject({ code: 0 });
    const s = session(sid, text);
    const file = join(projects, `${sid}.jsonl`);
    writeFileSync(file, s.body);
    lasts.push(s.last);
    const stop = hookIo(JSON.stringify({ session_id: `h${sid}`, last_assistant_message: `Done. ${text}` }), w.env);
    expect(await runHook(["stop"], stop.io)).toBe(0);
    const hook = hookIo(JSON.stringify({ session_id: `h${sid}`, cwd: "/home/u/app", transcript_path: file, prompt: `No, that's wrong, you broke it again: ${text}` }), w.env);
    expect(await runHook(["user-prompt-submit"], hook.io)).toBe(0);
  }
  expect(await cli(w, ["mine", "--root", join(w.root, "projects")])).toMatchObject({ code: 0 });
  expect(await cli(w, ["exchanges", "--root", join(w.root, "projects")])).toMatchObject({ code: 0 });
  // The files grow: the next read resumes from the cursor's offsets with the carried turn.
  for (const [i, text] of texts.entries()) {
    const sid = `s${String(i).padStart(3, "0")}`;
    appendFileSync(join(projects, `${sid}.jsonl`), line(sid, lasts[i]!, "user", `and again: ${text}`, "2026-11-30T11:52:00.000Z").text);
  }
  expect(await cli(w, ["exchanges", "--root", join(w.root, "projects")])).toMatchObject({ code: 0 });
}

/** Every file under `dir`, with its text and (for JSON) every string inside it. */
function written(dir: string): { file: string; texts: string[] }[] {
  const out: { file: string; texts: string[] }[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const f = join(d, name);
      if (statSync(f).isDirectory()) {
        walk(f);
        continue;
      }
      const raw = readFileSync(f, "utf8");
      const texts = [raw];
      const strings = (v: unknown): void => {
        if (typeof v === "string") texts.push(v);
        else if (Array.isArray(v)) v.forEach(strings);
        else if (v !== null && typeof v === "object") Object.values(v).forEach(strings);
      };
      for (const l of /\.jsonl?$/.test(name) ? (name.endsWith(".json") ? [raw] : raw.split("\n")) : []) {
        try {
          strings(JSON.parse(l));
        } catch {
          // not JSON (a torn line would be its own finding in the raw text)
        }
      }
      out.push({ file: f, texts });
    }
  };
  walk(dir);
  return out;
}

describe("the secret corpus through every door", () => {
  let t: { dir: string; cleanup: () => void };
  let w: World;
  beforeAll(async () => {
    t = tempDir("errata-doors-");
    w = world(join(t.dir, "secrets"));
    await throughEveryDoor(w, corpus.secrets.map((s) => s.text));
  });
  afterAll(() => t.cleanup());

  it("every door wrote: ledger rows from add, the hook and mine; attachments; kept replies; exchanges; the cursor", () => {
    const files = w.dirs.flatMap(written).map((f) => f.file.slice(w.root.length));
    expect(files.some((f) => /\/data\/errata\/errata-\d{4}-\d{2}\.jsonl$/.test(f))).toBe(true);
    expect(files.filter((f) => f.includes("/attachments/")).length).toBeGreaterThanOrEqual(corpus.secrets.length);
    expect(files.filter((f) => /last-reply-/.test(f))).toHaveLength(corpus.secrets.length);
    expect(files).toContain("/v4/exchanges.jsonl");
    expect(files).toContain("/state/exchanges-cursor.json");
    const ledger = readFileSync(join(w.dirs[0]!, readdirSync(w.dirs[0]!).find((n) => n.endsWith(".jsonl"))!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { channel: string });
    const channels = new Set(ledger.map((r) => r.channel));
    expect(channels).toEqual(new Set(["terminal", "hook", ...[...channels].filter((c) => c !== "terminal" && c !== "hook")]));
    expect(ledger.filter((r) => r.channel === "hook").length).toBeGreaterThanOrEqual(corpus.secrets.length * 0.9);
    const exchanges = readFileSync(join(w.dirs[2]!, "exchanges.jsonl"), "utf8").trim().split("\n");
    expect(exchanges.length).toBe(corpus.secrets.length * 3);
  });

  it(`no secret of ${corpus.secrets.length} is found in clear in any file`, () => {
    const files = w.dirs.flatMap(written);
    const leaks: string[] = [];
    for (const s of corpus.secrets) {
      for (const f of files) {
        const hit = f.texts.map((x) => leakIn(x, s.secret)).find((x) => x !== null);
        if (hit) leaks.push(`${s.id} in ${f.file.slice(w.root.length)}: ${JSON.stringify(hit)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it("the kept replies are 0600; the identity file names no user", () => {
    const hook = join(w.dirs[1]!, "hook");
    for (const name of readdirSync(hook).filter((n) => n.startsWith("last-reply-"))) expect(statSync(join(hook, name)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(hook, "identity.json"), "utf8")).not.toContain("ana@example.com");
  });

  it("the cursor holds offsets and hashes, no text of any transcript", () => {
    const cursor = readFileSync(join(w.dirs[1]!, "exchanges-cursor.json"), "utf8");
    expect(cursor).not.toMatch(/please deploy|broke it again|and again|Deployed with|echo /);
    expect(cursor).toMatch(/"lastAskAt":\{"offset":\d+,"end":\d+,"sha1":"[0-9a-f]{40}"\}/);
  });
});

describe("the look-alikes through every door", () => {
  let t: { dir: string; cleanup: () => void };
  let w: World;
  beforeAll(async () => {
    t = tempDir("errata-doors-look-");
    w = world(join(t.dir, "looks"));
    await throughEveryDoor(w, corpus.lookAlikes.map((l) => l.text));
  });
  afterAll(() => t.cleanup());

  it(`every one of ${corpus.lookAlikes.length} is kept unchanged, and nothing is marked redacted`, () => {
    const files = w.dirs.flatMap(written);
    const marked = files.flatMap((f) => {
      const x = f.texts[0]!;
      const at = x.indexOf("[REDACTED:");
      return at < 0 ? [] : [`${f.file.slice(w.root.length)}: …${x.slice(Math.max(0, at - 60), at + 40)}…`];
    });
    expect(marked).toEqual([]);
    const ledgerStrings = files.filter((f) => f.file.includes("/data/errata/")).flatMap((f) => f.texts);
    const exchangeStrings = files.filter((f) => f.file.endsWith("exchanges.jsonl")).flatMap((f) => f.texts);
    const lost = corpus.lookAlikes.filter((l) => !ledgerStrings.some((x) => x.includes(l.text)) || !exchangeStrings.some((x) => x.includes(l.text))).map((l) => l.id);
    expect(lost).toEqual([]);
  });
});
