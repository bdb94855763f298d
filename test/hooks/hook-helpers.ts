import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { HookIo } from "../../runtime/hooks/hook-main.js";

/** An in-memory HookIo: stdin text, captured stdout/stderr, env with ERRATA_DIR set. */
export function hookIo(stdin: string, env: Record<string, string | undefined>, nowIso = "2026-11-30T12:00:00.000Z") {
  let out = "";
  let err = "";
  const io: HookIo = {
    readStdin: async () => stdin,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    cwd: "/",
    now: () => Date.parse(nowIso),
  };
  return { io, out: () => out, err: () => err };
}

/** Every JSON line of the ledger's month files. */
export function ledgerLines(dir: string): Array<Record<string, unknown>> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    );
}

/** Claude Code transcript lines for a small session: a prompt, a tool call, a reply. */
export function transcriptLines(session: string, prompt: string, reply: string, opts: { promptTs?: string; next?: string } = {}): string {
  const base = { isSidechain: false, userType: "external", cwd: "/home/u/app", sessionId: session, version: "2.1.9" };
  const lines: object[] = [
    { ...base, type: "user", uuid: "u1", parentUuid: null, timestamp: opts.promptTs ?? "2026-11-30T11:58:00.000Z", message: { role: "user", content: prompt } },
    {
      ...base,
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      timestamp: "2026-11-30T11:58:10.000Z",
      message: { id: "msg_1", model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test" } }] },
    },
    { ...base, type: "user", uuid: "r1", parentUuid: "a1", timestamp: "2026-11-30T11:58:20.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] } },
    {
      ...base,
      type: "assistant",
      uuid: "a2",
      parentUuid: "r1",
      timestamp: "2026-11-30T11:58:30.000Z",
      message: { id: "msg_2", model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text: reply }] },
    },
  ];
  if (opts.next !== undefined) {
    lines.push({ ...base, type: "user", uuid: "u2", parentUuid: "a2", timestamp: "2026-11-30T11:59:59.000Z", message: { role: "user", content: opts.next } });
  }
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}
