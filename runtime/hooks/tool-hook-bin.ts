/**
 * The source of `bin/errata-tool-hook.cjs` (`errata-tool-hook pre-tool-use|instructions-loaded`):
 * the tool path of Claude Code's hooks, the same as `errata hook pre-tool-use|instructions-loaded`
 * but its own small binary, because PreToolUse runs on every tool call (docs/ladder.md,
 * "Latency" and "Figures", has the counts behind each choice here). scripts/tool-hook-bin.js
 * bundles it into that one CommonJS file (a main file: Node compiles all of it before it runs,
 * so it holds only this and the few helpers it imports), which is committed beside the other
 * bin; test/ladder/tool-hook-bin.test.ts checks that the committed file is this build.
 *
 * 1. The usual call has no check file at all (no `<ERRATA_DIR>/ladder/checks.json`, no
 *    `.claude/hookify.*.local.md` in the project or in ~/.claude): then no check can fire or be
 *    eligible, and the hook answers and logs nothing. `quietCall` decides that here, with one
 *    fstat, one read of stdin, one stat and one readdir per `.claude` folder, and the folders
 *    found by the full hook's own functions (paths.ts `ledgerDirOf`, tool-sources.ts): a
 *    bundle compiled and run for that costs more than the whole of this file. It is only a
 *    shortcut: anything else (a check file, a payload that is not a plain tool call, HOME
 *    unset, --help, instructions-loaded) goes to the full hook, which says what it found.
 *    test/ladder/tool-hook-fast.test.ts keeps its answer equal to tool-sources.ts's lookup.
 * 2. Otherwise it loads the tool bundle (dist/runtime/hooks/tool-hook.bundle.cjs) with its V8
 *    code cache, in the cache format of bin/errata.cjs's loader (`loadBundle` below: that
 *    loader is not required from here because compiling bin/errata.cjs and resolving it would
 *    be paid on every call; docs/ladder.md, "Figures").
 *
 * Always exits 0: a missing build allows the call with one line on stderr.
 *
 * Example: `echo '{"tool_name":"Bash","tool_input":{"command":"ls"}}' | errata-tool-hook pre-tool-use` -> no output.
 */
import { fstatSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { cacheHeader } from "../../bin/cache-key.cjs";
import { CHECKS_FILE, LADDER_DIR } from "../ladder-formats/files.js";
import { ledgerDirOf } from "../paths.js";
import { isHookifyName, nonEmpty, projectDirOf } from "./tool-sources.js";

/** What the bin needs of the tool bundle (tool-hook.ts). */
interface ToolHookBundle {
  processToolHookIo(): { readStdin: () => Promise<string> | string };
  runToolHook(args: string[], io: { readStdin: () => Promise<string> | string }): Promise<number>;
  outputFlushed(): boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a `.claude` folder holds a hookify rule file (tool-sources.ts `hookifyNames`, without sorting). */
function hasHookify(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some(isHookifyName);
}

/**
 * True when `raw` is a PreToolUse (or PostToolUse) call for which no check file exists, so the full hook would
 * print nothing and write nothing. With HOME unset (paths.ts then asks node:os) it answers false.
 */
function quietCall(raw: string, env: Record<string, string | undefined>, cwd: string): boolean {
  let f: unknown;
  try {
    f = JSON.parse(raw);
  } catch {
    return false;
  }
  if (!isObject(f) || nonEmpty(f["tool_name"]) === null || !isObject(f["tool_input"])) return false;
  const home = env["HOME"];
  if (home === undefined) return false;
  // Missing (ENOENT, ENOTDIR): undefined, with no exception built; present or unreadable: the
  // full hook reads it (and reports what it cannot read).
  let own;
  try {
    own = statSync(join(ledgerDirOf(env, cwd), LADDER_DIR, CHECKS_FILE), { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (own !== undefined) return false;
  if (hasHookify(join(projectDirOf(f, env, cwd), ".claude"))) return false;
  return !(home && hasHookify(join(home, ".claude")));
}

/** stdin whole, or null when it is a terminal or a device or cannot be read (the full hook then reads it and says so). */
function readStdin(): string | null {
  try {
    if (fstatSync(0).isCharacterDevice()) return null;
    return readFileSync(0, "utf8");
  } catch {
    return null;
  }
}

/**
 * The bundle `file`, compiled with its code cache `<file>.v8cache` when the cache's header
 * names the bundle's text (bin/cache-key.cjs, as bin/errata.cjs's createLoader writes and
 * checks it), else from its text; built-in modules are what it requires.
 */
function loadBundle(file: string): ToolHookBundle {
  // Required here, not imported: a quiet call never loads node:vm.
  const vm = require("node:vm") as typeof import("node:vm");
  // By path and decoded by Node (its C++ read; reading through a descriptor and decoding a
  // Buffer would compile a dozen of node:fs's and node:buffer's functions on every such call).
  const src = readFileSync(file, "utf8");
  let cachedData: Uint8Array | undefined;
  try {
    const raw = readFileSync(`${file}.v8cache`);
    const header = cacheHeader(src);
    let same = raw.length > header.length;
    for (let i = 0; same && i < header.length; i++) same = raw[i] === header.charCodeAt(i);
    if (same) cachedData = new Uint8Array(raw.buffer, raw.byteOffset + header.length, raw.length - header.length);
  } catch {
    // No cache: compiled from source (slower, same result).
  }
  const script = new vm.Script(src, cachedData ? { filename: file, cachedData } : { filename: file });
  const module = { exports: {} as ToolHookBundle, id: file, filename: file };
  (script.runInThisContext() as (...a: unknown[]) => void).call(module.exports, module.exports, require, module, file, dirname(file));
  return module.exports;
}

function toolHook(args: string[] = process.argv.slice(2)): void {
  let raw: string | null = null;
  // `pre-tool-use --check ID` (an `if`-filtered handler) takes the same shortcut.
  if ((args[0] === "pre-tool-use" && (args.length === 1 || (args.length === 3 && args[1] === "--check"))) || (args[0] === "post-tool-use" && args.length === 1)) {
    raw = readStdin();
    if (raw !== null && quietCall(raw, process.env, process.cwd())) return;
  }
  let hook: ToolHookBundle;
  try {
    hook = loadBundle(join(__dirname, "..", "dist", "runtime", "hooks", "tool-hook.bundle.cjs"));
  } catch (err) {
    writeSync(2, `errata hook: cannot load the tool hook (${err instanceof Error ? err.message : String(err)}; run \`npm run build\`?); allowed, no check run\n`);
    return;
  }
  const io = hook.processToolHookIo();
  // stdin was read above: the full hook sees the same text.
  const text = raw;
  if (text !== null) io.readStdin = () => text;
  void hook.runToolHook(args, io).then((code) => {
    // Everything is written synchronously unless a descriptor forced a stream: then wait for it.
    if (hook.outputFlushed()) process.exit(code);
    process.exitCode = code;
  });
}

// CommonJS exports written out (not ES exports): esbuild would add its module plumbing to the
// main file of every tool call for them.
module.exports = { quietCall, toolHook };
if (require.main === module) toolHook();
