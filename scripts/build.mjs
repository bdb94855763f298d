#!/usr/bin/env node
// `npm run build`: dist/ from nothing, in two lines of work at once (docs/testing.md, "The build").
//
//   check: tsc -p tsconfig.json --noEmit                  the whole type check (tests and bench too)
//   emit:  tsc -p tsconfig.json --noCheck --incremental false, then the bin's type check,
//          the hook bundles, the mod's bundle, the CLI bundle and the hook bundles' code caches
//
// The type check is single-threaded and is most of the build's CPU (about 31 of 41 CPU-s), so
// run one after the other the build kept one of two cores idle for its length. `--noCheck`
// (TypeScript >= 5.6) emits the same files without the check: on this tree its dist/ was
// identical, file for file and byte for byte, to a checked compile's (1,061 files). The bundles
// need only the emitted files, so they run while the check goes on. Both lines must succeed:
// a type error fails the build as before, only after the emit. Costs the parse and bind twice
// (about 10 CPU-s) to save about 10 s of wall on a quiet 2-core machine.
//
// Written here rather than with a task runner: two child processes and their exit codes; no
// package of the lock file runs a chain and a parallel pair with the output of each as is.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

/** Runs `node ARGS` in the repository with the output as is; resolves to its exit code (1 for a signal). */
function node(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit" });
    child.on("error", (e) => {
      process.stderr.write(`build: could not start node ${args.join(" ")}: ${e.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs each step after the last succeeded; the first failure's name, or null. */
async function chain(steps) {
  for (const args of steps) if ((await node(args)) !== 0) return args.join(" ");
  return null;
}

rmSync(join(root, "dist"), { recursive: true, force: true });
const [checkFailed, emitFailed] = await Promise.all([
  chain([[tsc, "-p", "tsconfig.json", "--noEmit"]]),
  chain([
    [tsc, "-p", "tsconfig.json", "--noCheck", "--incremental", "false"],
    [tsc, "-p", "tsconfig.bin.json"],
    ["scripts/bundle-hook.js"],
    ["scripts/bundle-mod.js"],
    ["scripts/bundle-cli.js"],
    ["scripts/hook-cache.cjs"],
  ]),
]);
for (const failed of [checkFailed, emitFailed]) if (failed !== null) process.stderr.write(`build: failed: node ${failed.replace(tsc, "tsc")}\n`);
process.exit(checkFailed === null && emitFailed === null ? 0 : 1);
