#!/usr/bin/env node
"use strict";
// Writes V8 code caches beside the hook bundles (dist/runtime/hooks/<bundle>.v8cache), used
// by the loader in bin/errata.cjs. Run by `npm run build` after scripts/bundle-hook.js, in its own
// process so that the cache is made under the same V8 flags the hook runs with.
//
// The cache holds the functions compiled so far, so the bundles are first run on sample
// prompts in a scratch ledger and home under the system's temp folder, removed after. The
// main bundle's cache is taken after ordinary prompts only: most prompts write nothing, and
// every cached function costs its share of reading the cache. The capture part's cache is
// taken after captures (rating, correction in two languages, directive, praise) and a Stop
// event, which also loads (and caches) the reflection's sort; the redactor part's
// after a Stop event and a capture whose texts hold a secret-shaped value (the only texts that
// load it).
//
// `--root DIR` makes the caches of the bundles in DIR/dist/runtime/hooks instead (the bench's
// baseline build, scripts/bundle-hook.js --out).
const fs = require("fs");
const os = require("os");
const path = require("path");
const { createLoader } = require("../bin/errata.cjs");

const root = path.join(__dirname, "..");
const argRoot = process.argv.indexOf("--root");
const dir = path.join(argRoot > 0 ? path.resolve(process.argv[argRoot + 1]) : root, "dist", "runtime", "hooks");
/** Made here, not written out: no credential-shaped literal sits in the repository. */
const SAMPLE_SECRET = Buffer.from("errata hook cache sample").toString("base64");
const transcript = path.join(root, "datasets", "claude-code", "spotter", "tool_heavy.jsonl");
/**
 * The samples' clock: real time, started a minute before the sample transcript's first record.
 * A Stop after a capture waits up to 3 s (TRANSCRIPT_WAIT_MS, hook-reflect-sort.ts) while the
 * transcript's last typed prompt is older than the capture and is not it: with the wall clock,
 * each of the two sample Stops waited out the 3 s (6 s of every build, nothing compiled in it).
 * With the captures older than the transcript's prompts the Stop takes the same path at once
 * (not the capture of the transcript's last prompt: left for the audit).
 */
const firstRecordMs = Math.min(...[...fs.readFileSync(transcript, "utf8").matchAll(/"timestamp":"([^"]+)"/g)].map((m) => Date.parse(m[1])));
if (!Number.isFinite(firstRecordMs)) throw new Error(`hook-cache: expected timestamps in ${transcript}, found none`);
const clockShiftMs = Date.now() - (firstRecordMs - 60_000);

/** Prompts that write nothing: what the main bundle's cache is made from. */
const ORDINARY = [
  "add a retry to the fetch call and run the tests",
  "can you also update the README with the new flag",
  "please look at the failing test in the parser module again and explain why it fails ".repeat(12),
];
/** Prompts that write a row (and read the last reply). */
const CAPTURING = [
  "7/10",
  "No, that's wrong. I already told you to use pnpm!!",
  "ei, tuo on väärin. sanoin jo että käytä pnpm:ää",
  "from now on always run the linter before committing",
  "great, thanks!",
  "no",
];

async function main() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "errata-hook-cache-"));
  try {
    const env = {
      HOME: scratch,
      ERRATA_DIR: path.join(scratch, "ledger"),
      ERRATA_HOST_DIR: path.join(scratch, "host"),
      XDG_DATA_HOME: path.join(scratch, "data"),
      XDG_STATE_HOME: path.join(scratch, "state"),
    };
    const loader = createLoader(dir, { useCache: false });
    const main = loader.load("hook.bundle.cjs");
    const { runHook } = main;
    const faults = [];
    const io = (stdin) => ({
      readStdin: async () => stdin,
      stdout: { write: () => true },
      stderr: { write: (s) => void faults.push(s) },
      env,
      cwd: scratch,
      now: () => Date.now() - clockShiftMs,
    });
    const hookJson = (fields) => JSON.stringify({ session_id: "cache", transcript_path: transcript, cwd: scratch, ...fields });
    for (const prompt of ORDINARY) await runHook(["user-prompt-submit"], io(hookJson({ hook_event_name: "UserPromptSubmit", prompt })));
    if (loader.report().length !== 1) throw new Error("an ordinary sample prompt loaded more than the main hook bundle");
    // The hook's own input and output (processHookIo, its writer, the stdin reader), which every
    // hook process runs and the samples' injected io does not: run here on harmless input (a
    // file for stdin, empty writes) so that the cache holds them and a hook process does not
    // compile them (about 0.3 M instructions an ordinary prompt: docs/privacy.md "Cost").
    const hookIo = main.processHookIo();
    hookIo.stdout.write("");
    hookIo.stderr.write("");
    hookIo.now();
    const stdinFile = path.join(scratch, "stdin.json");
    fs.writeFileSync(stdinFile, "{}");
    const stdinFd = fs.openSync(stdinFile, "r");
    try {
      if (main.readStdinCapped(stdinFd) !== "{}") throw new Error("the hook's stdin reader did not read the sample file");
    } finally {
      fs.closeSync(stdinFd);
    }
    main.outputFlushed();
    const written = loader.writeCaches(["hook.bundle.cjs"]);
    for (const prompt of CAPTURING) await runHook(["user-prompt-submit"], io(hookJson({ hook_event_name: "UserPromptSubmit", prompt })));
    await runHook(["stop"], io(hookJson({ hook_event_name: "Stop", last_assistant_message: "Done. Want me to commit?" })));
    await runHook(["user-prompt-submit"], io(hookJson({ hook_event_name: "UserPromptSubmit", prompt: "no, that's not what I asked" })));
    await runHook(["stop"], io(hookJson({ hook_event_name: "Stop", last_assistant_message: `I set DB_PASSWORD=${SAMPLE_SECRET} in .env as you asked.` })));
    await runHook(["user-prompt-submit"], io(hookJson({ hook_event_name: "UserPromptSubmit", prompt: `no, I said the token is ${SAMPLE_SECRET}9 not that one` })));
    if (faults.some((s) => s.includes("internal fault"))) throw new Error(`the hook faulted on a sample prompt: ${faults.join("")}`);
    // The redactor's front reads imported betterleaks rules through process.env, not the hook's
    // io: an import in the builder's own state folder loads their part too (not cached here).
    // Giving the samples the scratch folders in process.env instead made captures dearer (the
    // prompt variant of the redactor's bench, +0.7 M: docs/privacy.md, "betterleaks' rules at run time").
    const names = loader.report().map((r) => r.name).filter((n) => n !== "hook-imported.bundle.cjs");
    written.push(...loader.writeCaches(names.filter((n) => n !== "hook.bundle.cjs")));
    // The Stop loads the reflection's sort too (the sample captures are the session's, unsorted);
    // the redactor part is absent from a build with redaction stubbed out (the bench's baseline).
    const expected = ["hook-capture.bundle.cjs", "hook-reflect-sort.bundle.cjs", "hook.bundle.cjs", ...(fs.existsSync(path.join(dir, "hook-redact.bundle.cjs")) ? ["hook-readers.bundle.cjs", "hook-redact.bundle.cjs"] : [])].sort();
    if (names.slice().sort().join() !== expected.join()) throw new Error(`expected the sample prompts to load ${expected.join(", ")}; loaded ${names.join(", ")}`);
    // The tool path's bundle (PreToolUse, InstructionsLoaded; bin/errata-tool-hook.cjs loads
    // it only when a check file exists), after sample tool calls with a check file in place:
    // an ordinary call evaluates checks and fires none.
    const toolLoader = createLoader(dir, { useCache: false });
    const { runToolHook } = toolLoader.load("tool-hook.bundle.cjs");
    fs.mkdirSync(path.join(env.ERRATA_DIR, "ladder"), { recursive: true });
    const sampleCheck = { id: "sample", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "sample", mode: "active" };
    fs.writeFileSync(path.join(env.ERRATA_DIR, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [sampleCheck] }));
    // hookify files in the project too (the repository's examples): parsing them is most of
    // what the bundle compiles on such a call, and a function left out of the cache is
    // compiled on every call that needs it.
    const project = path.join(scratch, "project");
    fs.mkdirSync(path.join(project, ".claude"), { recursive: true });
    const hookify = path.join(root, "test", "ladder", "fixtures", "hookify");
    for (const name of fs.readdirSync(hookify).filter((n) => n.endsWith(".local.md"))) fs.copyFileSync(path.join(hookify, name), path.join(project, ".claude", name));
    for (const command of ["pnpm test", "git status", "ls -la", "npm test"]) {
      await runToolHook(["pre-tool-use"], io(hookJson({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t", cwd: project })));
    }
    if (faults.some((s) => s.includes("internal fault"))) throw new Error(`the tool hook faulted on a sample call: ${faults.join("")}`);
    written.push(...toolLoader.writeCaches(["tool-hook.bundle.cjs"]));
    names.push("tool-hook.bundle.cjs");
    process.stdout.write(`hook-cache: wrote ${written.length} V8 code caches (${names.join(", ")})\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`hook-cache: ${err.stack || err}\n`);
  process.exit(1);
});
