// The small process that starts test/helpers/child.ts's children (`runChild`) for the test
// process that forked it, and reports how each ended. Why: starting a child forks the process
// that starts it, and a fork costs in proportion to that process's memory. A test worker that
// has loaded the CLI and run hundreds of commands in process forks in 13 ms or more (34 ms at
// 500 MB, measured in docs/testing.md, "Suite time"); this process, a bare Node, in about 1 ms.
// It does nothing but spawn: the child's file, arguments, folder, environment and input are
// the caller's, and a child still running after its hang bound is killed with its whole
// process group, as child.ts documents. Plain CommonJS: Node runs it as it is, without a build.
"use strict";
const { spawn } = require("node:child_process");
const { constants } = require("node:os");

process.on("disconnect", () => process.exit(0));
process.on("message", (m) => {
  const start = Date.now();
  let child;
  try {
    // Its own process group, so a hang kills the shell and everything it started.
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, stdio: [m.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], detached: true });
  } catch (e) {
    process.send({ id: m.id, error: { message: String(e && e.message), code: e && e.code } });
    return;
  }
  const out = [];
  const err = [];
  child.stdout.on("data", (b) => out.push(b));
  child.stderr.on("data", (b) => err.push(b));
  let hung = false;
  let failed = false;
  const timer = setTimeout(() => {
    hung = true;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }, m.hangMs);
  if (m.input !== undefined && child.stdin) {
    child.stdin.on("error", () => undefined); // a child that exits before reading all its input
    child.stdin.end(m.input);
  }
  child.on("error", (e) => {
    clearTimeout(timer);
    failed = true;
    process.send({ id: m.id, error: { message: String(e && e.message), code: e && e.code } });
  });
  child.on("close", (code, signal) => {
    clearTimeout(timer);
    if (failed) return;
    process.send({
      id: m.id,
      hung,
      // Killed by a signal: 128 + its number, as a shell reports it.
      code: hung ? 124 : (code ?? 128 + (signal ? constants.signals[signal] : 0)),
      stdout: Buffer.concat(out),
      stderr: Buffer.concat(err),
      ms: Date.now() - start,
    });
  });
});
