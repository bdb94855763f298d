#!/usr/bin/env node
// The real Claude Code client for the end-to-end suite (test/e2e), pinned, installed on demand
// into a cache folder outside this package: never a dependency (not in package.json, not in
// `npm ci`, not in the packed tarball). Its licence allows use, not redistribution.
//
// Usage: node scripts/claude-code.mjs install   install the pinned version if absent; print it
//        node scripts/claude-code.mjs path      print the binary's path (exit 1 if absent)
//
// The folder: $ERRATA_CLAUDE_CODE_CACHE, else $XDG_CACHE_HOME/errata/claude-code/<version>,
// else ~/.cache/errata/claude-code/<version>. The native binary comes through the package's
// platform package (an optional dependency npm picks for this machine).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const CLAUDE_CODE_VERSION = "2.1.328";

export function cacheDir() {
  const base = process.env.ERRATA_CLAUDE_CODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "errata", "claude-code", CLAUDE_CODE_VERSION);
  return base;
}

export function binaryPath() {
  return join(cacheDir(), "node_modules", ".bin", "claude");
}

function version(bin) {
  const r = spawnSync(bin, ["--version"], { encoding: "utf8", env: { ...process.env, DISABLE_AUTOUPDATER: "1" } });
  return r.status === 0 ? r.stdout.trim() : null;
}

function install() {
  const bin = binaryPath();
  let v = existsSync(bin) ? version(bin) : null;
  if (v === null) {
    const dir = cacheDir();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const r = spawnSync(npm, ["install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error", "--prefix", dir, `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (r.status !== 0) {
      process.stderr.write(`claude-code: npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} failed (exit ${r.status}): ${String(r.stderr).slice(-600)}\n`);
      process.exit(1);
    }
    v = version(bin);
    if (v === null) {
      process.stderr.write(`claude-code: installed, but ${bin} --version does not run\n`);
      process.exit(1);
    }
  }
  process.stdout.write(`claude-code: ${v} at ${cacheDir()}\n`);
}

const cmd = process.argv[2];
if (cmd === "install") install();
else if (cmd === "path") {
  if (!existsSync(binaryPath())) process.exit(1);
  process.stdout.write(`${binaryPath()}\n`);
} else if (cmd !== undefined) {
  process.stderr.write(`claude-code: expected "install" or "path", found ${JSON.stringify(cmd)}\n`);
  process.exit(2);
}
