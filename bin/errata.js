#!/usr/bin/env node
// The `errata` binary: compiled JavaScript only. The hook path takes a fast lane that
// loads nothing but the capture code, so a prompt is never slowed by the whole CLI.
const args = process.argv.slice(2);
if (args[0] === "hook") {
  const { runHook } = await import("../dist/runtime/capture/hook-main.js");
  process.exitCode = await runHook(args.slice(1));
} else {
  process.stdout.on("error", (err) => {
    if (err.code === "EPIPE") process.exit(0); // a closed pipe (| head) is not an error
    throw err;
  });
  const { run } = await import("../dist/cli/main.js");
  process.exitCode = await run(args);
}
