#!/usr/bin/env node
"use strict";
// `errata-tool-hook pre-tool-use|instructions-loaded`: the tool path of Claude Code's hooks,
// the same as `errata hook pre-tool-use|instructions-loaded` but its own small binary,
// because PreToolUse runs on every tool call (docs/ladder.md, "Latency" and "Figures", has the
// counts behind each choice here).
//
// 1. The usual call has no check file at all (no `<ERRATA_DIR>/ladder/checks.json`, no
//    `.claude/hookify.*.local.md` in the project or in ~/.claude): then no check can fire or be
//    eligible, and the hook answers and logs nothing. `quietCall` decides that here, in this
//    file's own few lines, with one fstat, one read of stdin, one stat and one readdir per
//    `.claude` folder: a bundle compiled and run for that costs more than the whole
//    of this file (Node compiles all of a main file before it runs, so it is kept small).
//    It is only a shortcut: anything else (a check file, a payload that is not a plain tool
//    call, HOME unset, --help, instructions-loaded) goes to the full hook, which says what it
//    found. test/ladder/tool-hook-fast.test.ts keeps this file's lookup equal to
//    runtime/hooks/tool-sources.ts's.
// 2. Otherwise it loads the tool bundle (dist/runtime/hooks/tool-hook.bundle.cjs) with its V8
//    code cache, in the cache format of bin/errata.cjs's loader (`loadBundle` below: that
//    loader is not required from here because compiling bin/errata.cjs and resolving it cost
//    about 3 M instructions per call).
//
// Always exits 0: a missing build allows the call with one line on stderr.
//
// Example: `echo '{"tool_name":"Bash","tool_input":{"command":"ls"}}' | errata-tool-hook pre-tool-use` -> no output.
const fs = require("fs");
const path = require("path");

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v) => (typeof v === "string" && v !== "" ? v : null);

/** Whether a `.claude` folder holds a hookify rule file (tool-sources.ts `hookifyNames`). */
function hasHookify(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((n) => n.startsWith("hookify.") && n.endsWith(".local.md"));
}

/**
 * True when `raw` is a PreToolUse call for which no check file exists, so the full hook would
 * print nothing and write nothing. The folders are found as runtime/paths.ts and
 * tool-sources.ts find them; with HOME unset (paths.ts then asks node:os) it answers false.
 */
function quietCall(raw, env, cwd) {
  let f;
  try {
    f = JSON.parse(raw);
  } catch {
    return false;
  }
  if (!isObject(f) || nonEmpty(f.tool_name) === null || !isObject(f.tool_input)) return false;
  const home = env.HOME;
  if (home === undefined) return false;
  const ledger = env.ERRATA_DIR ? path.resolve(cwd, env.ERRATA_DIR) : path.join(env.XDG_DATA_HOME ?? path.join(home, ".local", "share"), "errata");
  // Missing (ENOENT, ENOTDIR): undefined, with no exception built; present or unreadable: the
  // full hook reads it (and reports what it cannot read).
  let own;
  try {
    own = fs.statSync(path.join(ledger, "ladder", "checks.json"), { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (own !== undefined) return false;
  const project = nonEmpty(env.CLAUDE_PROJECT_DIR) ?? nonEmpty(f.cwd) ?? cwd;
  if (hasHookify(path.join(project, ".claude"))) return false;
  return !(home && hasHookify(path.join(home, ".claude")));
}

/** stdin whole, or null when it is a terminal or a device or cannot be read (the full hook then reads it and says so). */
function readStdin() {
  try {
    if (fs.fstatSync(0).isCharacterDevice()) return null;
    return fs.readFileSync(0, "utf8");
  } catch {
    return null;
  }
}

/**
 * The bundle `file`, compiled with its code cache `<file>.v8cache` when the cache's header
 * names the bundle's size and modification time (as bin/errata.cjs's createLoader writes and
 * checks it), else from its text; built-in modules are what it requires.
 */
function loadBundle(file) {
  const vm = require("vm");
  // By path and decoded by Node (its C++ read; reading through a descriptor and decoding a
  // Buffer would compile a dozen of node:fs's and node:buffer's functions on every such call).
  const st = fs.statSync(file);
  const src = fs.readFileSync(file, "utf8");
  let cachedData;
  try {
    const raw = fs.readFileSync(`${file}.v8cache`);
    const header = `errata-v8cache ${st.size} ${Math.trunc(st.mtimeMs)}\n`;
    let same = raw.length > header.length;
    for (let i = 0; same && i < header.length; i++) same = raw[i] === header.charCodeAt(i);
    if (same) cachedData = new Uint8Array(raw.buffer, raw.byteOffset + header.length, raw.length - header.length);
  } catch {
    // No cache: compiled from source (slower, same result).
  }
  const script = new vm.Script(src, cachedData ? { filename: file, cachedData } : { filename: file });
  const module = { exports: {}, id: file, filename: file };
  script.runInThisContext().call(module.exports, module.exports, require, module, file, path.dirname(file));
  return module.exports;
}

function toolHook(args = process.argv.slice(2)) {
  let raw = null;
  if (args.length === 1 && args[0] === "pre-tool-use") {
    raw = readStdin();
    if (raw !== null && quietCall(raw, process.env, process.cwd())) return;
  }
  let hook;
  try {
    hook = loadBundle(path.join(__dirname, "..", "dist", "runtime", "hooks", "tool-hook.bundle.cjs"));
  } catch (err) {
    fs.writeSync(2, `errata hook: cannot load the tool hook (${err && err.message}; run \`npm run build\`?); allowed, no check run\n`);
    return;
  }
  const io = hook.processToolHookIo();
  // stdin was read above: the full hook sees the same text.
  if (raw !== null) io.readStdin = () => raw;
  hook.runToolHook(args, io).then((code) => {
    // Everything is written synchronously unless a descriptor forced a stream: then wait for it.
    if (hook.outputFlushed()) process.exit(code);
    process.exitCode = code;
  });
}

module.exports = { quietCall, toolHook };
if (require.main === module) toolHook();
