/**
 * Every door Errata writes by, for a list of texts (test/privacy/doors.test.ts and
 * held-out-doors.test.ts): `errata add` (the complaint, the context fields and an attachment),
 * the hook (the Stop hook's kept reply, then a correction with the transcript's reply and tool
 * calls as deep context), a mined transcript (`errata mine`) and exchanges (`errata exchanges`,
 * read whole, then resumed from its cursor); and every file written, read back.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { run } from "../../cli/main.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { hookIo } from "../hooks/hook-helpers.js";
import { memoryIo } from "../helpers/io.js";
import { LeakFinder } from "./leak-find.js";

export interface World {
  root: string;
  env: Record<string, string>;
  dirs: string[];
}

/** The owner's default ledger (so the state folder is ERRATA_STATE_DIR's and the live record is written too). */
export function world(root: string): World {
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
export async function throughEveryDoor(w: World, texts: string[]): Promise<void> {
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

/**
 * Which secrets some file of the world holds in clear, and where: one row per secret found,
 * `id (file, file)` with the dates, ids and session numbers of the paths starred out.
 */
export function leaksThroughDoors(w: World, secrets: ReadonlyArray<{ id: string; secret: string }>): { ids: string[]; rows: string[] } {
  const files = w.dirs.flatMap(written);
  expect(files.length).toBeGreaterThan(0);
  // Some text of the file holds a piece of the secret (leakIn), all secrets at once (leak-find.ts).
  const finder = new LeakFinder(secrets.map((s) => s.secret));
  const where = secrets.map(() => new Set<string>());
  for (const f of files) {
    const found = new Set<number>();
    for (const x of f.texts) finder.foundIn(x, found);
    for (const i of found) where[i]!.add(f.file.slice(w.root.length).replace(/\d{4}-\d{2}|[0-9a-f-]{36}|s\d{3}/g, "*"));
  }
  const leaked = secrets.flatMap((s, i) => (where[i]!.size > 0 ? [[s.id, where[i]!] as const] : []));
  return { ids: leaked.map(([id]) => id), rows: leaked.map(([id, at]) => `${id} (${[...at].sort().join(", ")})`) };
}

/** Every file under `dir`, with its text and (for JSON) every string inside it. */
export function written(dir: string): { file: string; texts: string[] }[] {
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

