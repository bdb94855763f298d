/**
 * Claude Code http hooks: `POST /v1/hooks/<event>` runs the very hook `errata hook <event>`
 * runs, in process, for the developer the token names: each (tenant, label) has its own
 * ledger, state and ladder folder under `<dir>/hooks/<tenant>/<label>/`. The client posts the
 * hook's JSON and reads the answer as it reads a command hook's stdout: a JSON object is used
 * as is, an empty answer is `{}`, and the prompt hook's one line for the host becomes
 * `additionalContext` (what a command hook's plain stdout is on UserPromptSubmit).
 *
 * Paths in the payload name files on the developer's machine, not the server's: the
 * transcript path is dropped (the server never reads a file a request names) and the project
 * folder is the developer's folder on the server, so a check file is the one the ladder
 * installed there (`errata sync --hooks` puts it there). The payload's cwd still says which
 * project the call is in, for a check the ladder drafted for one project
 * (`ERRATA_CHECK_PROJECT`: compared with the check's project, never read as a path).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runHook } from "../hooks/hook-main.js";
import { runToolHook } from "../hooks/tool-hook.js";

export const HOOK_EVENTS = {
  "user-prompt-submit": "UserPromptSubmit",
  stop: "Stop",
  "pre-tool-use": "PreToolUse",
  "instructions-loaded": "InstructionsLoaded",
} as const;
export type HookRoute = keyof typeof HOOK_EVENTS;

export function developerDir(dir: string, tenant: string, label: string): string {
  return join(dir, "hooks", tenant, label);
}

interface DeveloperFolder {
  project: string;
  env: Readonly<Record<string, string>>;
}

/** Made once per developer and process (the folder and its environment): a hook call on the hot path spends no mkdir and no path joins on it. */
const folders = new Map<string, DeveloperFolder>();

function folderOf(dir: string, tenant: string, label: string): DeveloperFolder {
  const key = `${dir}\u0000${tenant}\u0000${label}`;
  let f = folders.get(key);
  if (f === undefined) {
    const home = developerDir(dir, tenant, label);
    const project = join(home, "project");
    mkdirSync(project, { recursive: true });
    f = { project, env: { ERRATA_DIR: join(home, "ledger"), HOME: join(home, "home"), CLAUDE_PROJECT_DIR: project, ERRATA_HOST_DIR: join(home, "host"), USER: label } };
    folders.set(key, f);
  }
  return f;
}

export async function answerHook(event: HookRoute, body: Record<string, unknown>, where: { dir: string; tenant: string; label: string; nowMs: () => number }): Promise<{ answer: Record<string, unknown>; stderr: string }> {
  const { project, env: base } = folderOf(where.dir, where.tenant, where.label);
  const env: Record<string, string> = {
    ...base,
    // The project a ladder check belongs to is a folder on the developer's machine: the
    // payload's cwd, compared with the check's project, never read.
    ERRATA_CHECK_PROJECT: typeof body["cwd"] === "string" && body["cwd"] !== "" ? body["cwd"] : project,
  };
  const payload: Record<string, unknown> = { ...body };
  delete payload["transcript_path"];
  const input = JSON.stringify(payload);
  let out = "";
  let err = "";
  const io = {
    readStdin: async () => input,
    stdout: { write: (s: string) => ((out += s), true) },
    stderr: { write: (s: string) => ((err += s), true) },
    env,
    cwd: project,
    now: where.nowMs,
  };
  if (event === "pre-tool-use" || event === "instructions-loaded") await runToolHook([event], io);
  else await runHook([event], io);
  return { answer: toAnswer(HOOK_EVENTS[event], out), stderr: err };
}

function toAnswer(hookEventName: string, stdout: string): Record<string, unknown> {
  const text = stdout.trim();
  if (text === "") return {};
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* a plain line for the host */
  }
  return { hookSpecificOutput: { hookEventName, additionalContext: text } };
}
