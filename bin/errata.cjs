#!/usr/bin/env node
"use strict";
// The `errata` binary: compiled JavaScript only. It is CommonJS so that the hook path,
// which runs at every prompt the person types, loads one bundled CommonJS file and never
// Node's ES module loader, zod or commander. Every other command loads the ES module CLI.
const args = process.argv.slice(2);
if (args[0] === "hook") {
  const { runHook } = require("../dist/runtime/capture/hook.bundle.cjs");
  runHook(args.slice(1)).then((code) => {
    process.exitCode = code;
  });
} else {
  process.stdout.on("error", (err) => {
    if (err.code === "EPIPE") process.exit(0); // a closed pipe (| head) is not an error
    throw err;
  });
  import("../dist/cli/main.js")
    .then(({ run }) => run(args))
    .then((code) => {
      process.exitCode = code;
    });
}
