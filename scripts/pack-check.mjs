#!/usr/bin/env node
// The install check CI runs (.ci/run): pack the project as npm would publish it, install the
// tarball into a temporary prefix offline, and run what a new user runs first: the installed
// `errata --version`, the installed hook on a correction prompt (one row written), and
// `errata daily` on the bundled data. A package without dist/ (no `files`, no build on
// prepack) installed and then died with ERR_MODULE_NOT_FOUND, while its hook exited 0
// capturing nothing; this fails instead.
//
// Usage: node scripts/pack-check.mjs [--no-build]
//   --no-build  pack the dist/ already built (`npm pack --ignore-scripts`); without it
//               `npm pack` runs prepack, which is `npm run build`.
//
// Installing is offline (`npm install --offline`, from npm's cache, which `npm ci` filled).
// When the cache lacks a dependency, it says so in one line and installs with
// --prefer-offline (only what is missing comes from the npm registry).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const build = !process.argv.includes("--no-build");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const t0 = Date.now();
const tmp = mkdtempSync(join(tmpdir(), "errata-pack-"));
const step = (s) => process.stdout.write(`pack-check: ${s} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
const fail = (s) => {
  process.stderr.write(`pack-check: FAILED: ${s}\n`);
  process.exitCode = 1;
  throw new Error(s);
};

try {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  execFileSync(npm, ["pack", "--loglevel=error", "--pack-destination", tmp, ...(build ? [] : ["--ignore-scripts"])], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
  if (!tarball) fail("npm pack wrote no tarball");
  step(`packed ${tarball}${build ? " (built by prepack)" : " (dist/ as built)"}`);

  const prefix = join(tmp, "prefix");
  const install = (mode) =>
    spawnSync(npm, ["install", mode, "--no-audit", "--no-fund", "--omit=dev", "--prefix", prefix, join(tmp, tarball)], { encoding: "utf8" });
  let r = install("--offline");
  if (r.status !== 0) {
    if (!/ENOTCACHED/.test(r.stderr)) fail(`npm install --offline: ${r.stderr.slice(-600)}`);
    process.stdout.write("pack-check: npm's cache lacks a dependency: installing with --prefer-offline (the rest from the npm registry)\n");
    rmSync(prefix, { recursive: true, force: true });
    r = install("--prefer-offline");
    if (r.status !== 0) fail(`npm install --prefer-offline: ${r.stderr.slice(-600)}`);
  }
  step("installed the tarball into a temporary prefix");
  // The real Claude Code client (test/e2e) is used, never redistributed nor depended on.
  // The Claude Code client and its platform packages (@anthropic-ai/claude-code*) stay out;
  // @anthropic-ai/tokenizer is a dependency (rules budget's token counts).
  const scope = join(prefix, "node_modules", "@anthropic-ai");
  const client = existsSync(scope) ? readdirSync(scope).filter((n) => n.startsWith("claude-code")) : [];
  if (client.length > 0) fail(`the install brought ${client.map((n) => `@anthropic-ai/${n}`).join(", ")}: the Claude Code client must stay out of the package (scripts/claude-code.mjs)`);

  // The mod (docs/mod.md): its bundled core is built, gitignored and packed; without it the
  // plugin folder loads nothing.
  const modDir = join(prefix, "node_modules", pkg.name, "mod");
  for (const f of [".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/register.js", "hooks/errata-core.js", "lang/index.json", "lang/en.rules.tsv"]) {
    if (!existsSync(join(modDir, f))) fail(`the tarball lacks mod/${f} (package.json "files" packs mod/; npm run build writes hooks/errata-core.js and the classifier's files in lang/)`);
  }
  step("the mod's files are in the tarball");

  const errata = join(prefix, "node_modules", ".bin", "errata");
  const work = join(tmp, "work");
  mkdirSync(work);
  const env = { PATH: process.env.PATH ?? "", HOME: work, ERRATA_DIR: join(work, "ledger") };
  const run = (args, input) => spawnSync(errata, args, { cwd: work, env, input, encoding: "utf8" });

  const v = run(["--version"]);
  if (v.status !== 0 || v.stdout.trim() !== pkg.version) fail(`installed errata --version: exit ${v.status}, ${JSON.stringify(v.stdout.trim())} (expected ${pkg.version}); ${v.stderr.slice(0, 400)}`);
  step(`errata --version: ${v.stdout.trim()}`);

  const hook = run(["hook", "user-prompt-submit"], JSON.stringify({ session_id: "s1", prompt: "No, that is wrong. I asked for the other file." }));
  const month = readdirSync(env.ERRATA_DIR).filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f));
  const rows = month.flatMap((f) => readFileSync(join(env.ERRATA_DIR, f), "utf8").split("\n").filter((l) => l !== ""));
  if (hook.status !== 0 || !/captured this prompt as a correction/.test(hook.stdout) || rows.length !== 1) {
    fail(`installed hook: exit ${hook.status}, stdout ${JSON.stringify(hook.stdout)}, stderr ${JSON.stringify(hook.stderr)}, ${rows.length} rows (expected 1)`);
  }
  step("installed hook: one row written for a correction prompt");

  const copy = run(["datasets", "copy", "claude-code/spotter"]);
  if (copy.status !== 0) fail(`errata datasets copy: ${copy.stderr}`);
  const daily = run(["daily", "--root", "datasets/claude-code/spotter", "--json"]);
  let out = null;
  try {
    out = JSON.parse(daily.stdout);
  } catch {
    out = null;
  }
  const mine = out?.stages?.find((s) => s.name === "mine");
  if (daily.status !== 0 || out?.ok !== true || !(mine?.counts?.written >= 1)) fail(`installed errata daily: exit ${daily.status}; ${daily.stdout.slice(0, 300)} ${daily.stderr.slice(0, 400)}`);
  step(`installed errata daily on the bundled data: ok, mined ${mine.counts.written} erratum`);
} catch (err) {
  if (process.exitCode !== 1) {
    process.stderr.write(`pack-check: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
