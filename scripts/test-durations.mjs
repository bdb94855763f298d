#!/usr/bin/env node
// Writes test/durations.json from vitest's results cache (node_modules/.vite/vitest/*/results.json,
// which every `vitest run` updates): each test file's time in seconds, for the files that took
// at least 2 s. test/helpers/sequencer.ts starts files longest first from it when vitest has no
// cache of its own (a fresh clone, CI). Stale or missing entries change only the order files
// start in. The cache's time is the whole file, its beforeAll included; the JSON reporter's
// per-file start and end are its tests' only (the CLI walk does all its work in beforeAll and
// shows there as 0.1 s), so they are not used.
//
// Usage: npm test (or npx vitest run), then node scripts/test-durations.mjs [results.json ...]
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cacheRoot = join(root, "node_modules", ".vite", "vitest");
const given = process.argv.slice(2);
const caches = given.length > 0 ? given : existsSync(cacheRoot) ? readdirSync(cacheRoot).map((d) => join(cacheRoot, d, "results.json")).filter((f) => existsSync(f)) : [];
if (caches.length === 0) {
  process.stderr.write(`test-durations: expected vitest's results cache (${relative(root, cacheRoot)}/*/results.json, written by a run) or its path, found none\n`);
  process.exit(2);
}
const seconds = new Map();
for (const file of caches) {
  let results;
  try {
    results = JSON.parse(readFileSync(file, "utf8")).results;
  } catch (e) {
    process.stderr.write(`test-durations: expected a readable vitest results cache, found ${file}: ${e.message}\n`);
    process.exit(2);
  }
  if (!Array.isArray(results)) {
    process.stderr.write(`test-durations: expected a vitest results cache ({version, results: [[key, {duration}]]}), found no results in ${file}\n`);
    process.exit(2);
  }
  // Keys are "project:path" (the project's name, empty without projects).
  for (const [key, r] of results) if (typeof r?.duration === "number") seconds.set(key.slice(key.indexOf(":") + 1), Math.round(r.duration / 100) / 10);
}
const files = Object.fromEntries([...seconds].filter(([f, s]) => s >= 2 && existsSync(join(root, f))).sort((a, b) => b[1] - a[1]));
const out = fileURLToPath(new URL("../test/durations.json", import.meta.url));
writeFileSync(out, `${JSON.stringify({ note: "seconds per test file in measured runs (scripts/test-durations.mjs); only the order files start in depends on it", measured: new Date().toISOString().slice(0, 10), files }, null, 2)}\n`);
process.stdout.write(`test-durations: ${Object.keys(files).length} files of ${seconds.size} took 2 s or more; wrote ${relative(root, out)}\n`);
