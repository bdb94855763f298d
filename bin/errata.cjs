#!/usr/bin/env node
"use strict";
// The `errata` binary: compiled JavaScript only. It is CommonJS so that the hook path,
// which runs at every prompt the person types, loads one bundled CommonJS file and never
// Node's ES module loader, zod or commander (through bin/hook-loader.cjs, with V8's code
// cache). Every other command loads the ES module CLI.
const args = process.argv.slice(2);
if (args[0] === "hook") {
  // The hook never breaks the host: even a missing build exits 0 with one line on stderr.
  let hook;
  try {
    const { createLoader } = require("./hook-loader.cjs");
    hook = createLoader(require("path").join(__dirname, "..", "dist", "runtime", "capture")).load("hook.bundle.cjs");
  } catch (err) {
    require("fs").writeSync(2, `errata hook: cannot load the hook (${err && err.message}; run \`npm run build\`?); nothing captured\n`);
    hook = { runHook: async () => 0, outputFlushed: () => true };
  }
  hook.runHook(args.slice(1)).then((code) => {
    // Everything the hook writes is written synchronously: exit now rather than wait for
    // work Node queued for later (a garbage collection), unless a stream still holds output.
    if (typeof hook.outputFlushed === "function" && hook.outputFlushed()) process.exit(code);
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
