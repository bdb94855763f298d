/**
 * The entry of the tool-path bundle (`tool-hook.bundle.cjs`): `errata hook pre-tool-use` and
 * `errata hook instructions-loaded`. bin/errata.cjs loads this bundle alone for those two
 * events: it holds the check runner and nothing of the prompt hook (no classifier), because
 * PreToolUse runs on every tool call and its cost should be Node's start and little more.
 *
 * Always exits 0: a fault allows the call and says so in one line on stderr.
 *
 * Example: `echo '{"tool_name":"Bash","tool_input":{"command":"ls"}}' | errata hook pre-tool-use` -> no output (no check fired).
 */
import { fstatSync, readFileSync, writeSync } from "node:fs";
import { onInstructionsLoaded } from "./instructions-loaded.js";
import { onPreToolUse, type ToolHookIo } from "./pre-tool-use.js";

export interface ToolHookRunIo extends ToolHookIo {
  readStdin: () => Promise<string> | string;
}

export const TOOL_EVENTS = ["pre-tool-use", "instructions-loaded"] as const;

/**
 * stdin read whole and synchronously, and stdout/stderr written with writeSync: making
 * process.stdin/stdout streams costs more than the checks (the same reasoning as
 * hook-main.ts, whose helpers live in the prompt hook's bundle and are not loaded here).
 */
function readStdinSync(): string {
  try {
    if (fstatSync(0).isCharacterDevice()) return "";
    return readFileSync(0).toString("utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EOF" || code === "EBADF") return "";
    throw err;
  }
}

/** A write went through a stream (see writeAll): it may still be pending. */
let streamWrites = false;

function writeAll(fd: 1 | 2, s: string): void {
  const buf = Buffer.from(s, "utf8");
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(fd, buf, off);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return;
    streamWrites = true;
    (fd === 1 ? process.stdout : process.stderr).write(buf.subarray(off));
  }
}

export function processToolHookIo(): ToolHookRunIo {
  return {
    readStdin: readStdinSync,
    stdout: { write: (s: string) => writeAll(1, s) },
    stderr: { write: (s: string) => writeAll(2, s) },
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}

const HELP = `usage: errata hook pre-tool-use|instructions-loaded

  pre-tool-use         runs the checks (errata's installed checks and your hookify rules,
                       .claude/hookify.*.local.md) on the tool call in the PreToolUse JSON and
                       answers deny, ask, a rewrite (updatedInput) or a warning
                       (additionalContext); prints nothing when no check fires.
  instructions-loaded  records which instruction file loaded (file_path, memory_type,
                       load_reason) for the ladder's "not loaded" diagnosis.

Install in ~/.claude/settings.json:
  "hooks": {
    "PreToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "errata hook pre-tool-use" }] }],
    "InstructionsLoaded": [{ "hooks": [{ "type": "command", "command": "errata hook instructions-loaded" }] }]
  }

A failed or timed-out hook does not block in Claude Code: a check is advice unless it answers.
More: docs/ladder.md.`;

export async function runToolHook(args: string[], io: ToolHookRunIo = processToolHookIo()): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`errata hook: ${line}\n`);
  const event = args[0];
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  try {
    const raw = await io.readStdin();
    if (raw.trim() === "") {
      say(`empty stdin (expected the hook's JSON); ${event === "pre-tool-use" ? "allowed, no check run" : "nothing recorded"}`);
      return 0;
    }
    let fields: unknown;
    try {
      fields = JSON.parse(raw);
    } catch {
      say(`stdin is not JSON (found ${JSON.stringify(raw.slice(0, 40))}); ${event === "pre-tool-use" ? "allowed, no check run" : "nothing recorded"}`);
      return 0;
    }
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      say("stdin JSON is not an object; allowed, nothing recorded");
      return 0;
    }
    if (event === "pre-tool-use") onPreToolUse(fields as Record<string, unknown>, io, say);
    else if (event === "instructions-loaded") onInstructionsLoaded(fields as Record<string, unknown>, io, say);
    else say(`unknown tool hook ${JSON.stringify(event)} (expected pre-tool-use or instructions-loaded)`);
  } catch (err) {
    say(`internal fault (${err instanceof Error ? err.message : String(err)}); allowed, no decision made`);
  }
  return 0;
}

/** Everything is written synchronously unless a descriptor forced a stream (see writeAll). */
export function outputFlushed(): boolean {
  return !streamWrites;
}
