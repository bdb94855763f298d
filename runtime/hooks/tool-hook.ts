/**
 * The entry of the tool-path bundle (`tool-hook.bundle.cjs`): `errata hook pre-tool-use` and
 * `errata hook instructions-loaded`. It holds the check runner and nothing of the prompt hook
 * (no classifier). PreToolUse runs on every tool call, and the usual call has no check file:
 * bin/errata-tool-hook.cjs (built from tool-hook-bin.ts) answers that call in its own few
 * lines and loads this bundle (with its V8 code cache) only otherwise; here too, a call with
 * no check file ends after the lookup (tool-sources.ts), before any check file is parsed.
 *
 * Always exits 0: a fault allows the call and says so in one line on stderr.
 *
 * Example: `echo '{"tool_name":"Bash","tool_input":{"command":"ls"}}' | errata hook pre-tool-use` -> no output (no check fired).
 */
import { fstatSync, readFileSync } from "node:fs";
import { outputFlushed, writeFd } from "./fd-write.js";
import { onInstructionsLoaded } from "./instructions-loaded.js";
import { onPostToolUse } from "./post-tool-use.js";
import { onPreToolUse, type ToolHookIo } from "./pre-tool-use.js";
import { findCheckSources, hasCheckSources, NO_CALL, nonEmpty, projectDirOf } from "./tool-sources.js";

export interface ToolHookRunIo extends ToolHookIo {
  readStdin: () => Promise<string> | string;
}

export const TOOL_EVENTS = ["pre-tool-use", "post-tool-use", "instructions-loaded"] as const;

/**
 * stdin read whole and synchronously, and stdout/stderr written with writeSync: making
 * process.stdin/stdout streams costs more than the checks (the same reasoning as
 * hook-main.ts, whose helpers live in the prompt hook's bundle and are not loaded here).
 */
function readStdinSync(): string {
  try {
    // A terminal or /dev/zero is not read (it would wait or never end).
    if (fstatSync(0).isCharacterDevice()) return "";
    // Decoded by Node itself: reading a Buffer and decoding it in JavaScript compiles a part
    // of node:buffer on every call (its cost: docs/ladder.md, "Figures").
    return readFileSync(0, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EOF" || code === "EBADF") return "";
    throw err;
  }
}


export function processToolHookIo(): ToolHookRunIo {
  return {
    readStdin: readStdinSync,
    stdout: { write: (s: string) => writeFd(1, s) },
    stderr: { write: (s: string) => writeFd(2, s) },
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}

const HELP = `usage: errata hook pre-tool-use [--check ID]|post-tool-use|instructions-loaded

  pre-tool-use         runs the checks (errata's installed checks and your hookify rules,
                       .claude/hookify.*.local.md) on the tool call in the PreToolUse JSON and
                       answers deny, ask, a rewrite (updatedInput) or a warning
                       (additionalContext); prints nothing when no check fires.
                       --check ID runs that one check only: the handler
                       \`errata rules hooks --write\` writes per check, behind an \`if\` filter.
  post-tool-use        runs the checks that read a tool's output (always warns) on the
                       PostToolUse JSON and answers additionalContext, a fact the model
                       reads beside the result; prints nothing when none fires.
  instructions-loaded  records which instruction file loaded (file_path, memory_type,
                       load_reason) for the ladder's "not loaded" diagnosis.

Install in ~/.claude/settings.json (errata-tool-hook is the same hook as its own small binary,
the cheaper start on every tool call; errata hook pre-tool-use works the same):
  "hooks": {
    "PreToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "errata-tool-hook pre-tool-use" }] }],
    "InstructionsLoaded": [{ "hooks": [{ "type": "command", "command": "errata-tool-hook instructions-loaded" }] }]
  }
and, for checks on a tool's output:
    "PostToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "errata-tool-hook post-tool-use" }] }]

A failed or timed-out hook does not block in Claude Code: a check is advice unless it answers.
More: docs/ladder.md.`;

export async function runToolHook(args: string[], io: ToolHookRunIo = processToolHookIo()): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`errata hook: ${line}\n`);
  const event = args[0];
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  const only = checkArg(args);
  if (only === null) {
    say(`expected \`pre-tool-use\`, \`pre-tool-use --check ID\`, \`post-tool-use\` or \`instructions-loaded\`, found ${JSON.stringify(args.join(" "))}; allowed, no check run`);
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
    const f = fields as Record<string, unknown>;
    if (event === "pre-tool-use") {
      const toolInput = f["tool_input"];
      if (nonEmpty(f["tool_name"]) === null || typeof toolInput !== "object" || toolInput === null || Array.isArray(toolInput)) {
        say(NO_CALL); // the same line onPreToolUse writes
        return 0;
      }
      const sources = findCheckSources(io.env, io.cwd, projectDirOf(f, io.env, io.cwd));
      // No check file: no check can fire or be eligible, so nothing is answered or logged.
      if (!hasCheckSources(sources)) return 0;
      onPreToolUse(f, io, say, sources, only);
    } else if (event === "post-tool-use") {
      const sources = findCheckSources(io.env, io.cwd, projectDirOf(f, io.env, io.cwd));
      if (hasCheckSources(sources)) onPostToolUse(f, io, say, sources);
    } else if (event === "instructions-loaded") onInstructionsLoaded(f, io, say);
    else say(`unknown tool hook ${JSON.stringify(event)} (expected pre-tool-use, post-tool-use or instructions-loaded)`);
  } catch (err) {
    say(`internal fault (${err instanceof Error ? err.message : String(err)}); allowed, no decision made`);
  }
  return 0;
}

/**
 * The one check `--check ID` names (undefined: every check), or null for arguments that are
 * not the hook's (a fault that allows, like every other).
 */
export function checkArg(args: readonly string[]): string | undefined | null {
  if (args.length === 1) return undefined;
  if (args.length === 3 && args[0] === "pre-tool-use" && args[1] === "--check" && args[2] !== "") return args[2];
  return null;
}

// Everything is written synchronously unless a descriptor forced a stream (fd-write.ts).
export { outputFlushed };
