#!/usr/bin/env node
// Writes test/durations.json from a vitest JSON report: each test file's time (seconds, end
// minus start) in that run, for the files that took at least 2 s. test/helpers/sequencer.ts
// starts files longest first from it when vitest has no results cache of its own (a fresh
// clone, CI). Stale or missing entries change only the order files start in.
//
// Usage: npx vitest run --reporter=json --outputFile=vt.json && node scripts/test-durations.mjs vt.json
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const report = process.argv[2];
if (!report) {
  process.stderr.write("test-durations: expected the path of a vitest JSON report (--reporter=json --outputFile=FILE), found none\n");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
let parsed;
try {
  parsed = JSON.parse(readFileSync(report, "utf8"));
} catch (e) {
  process.stderr.write(`test-durations: expected a readable vitest JSON report, found ${report}: ${e.message}\n`);
  process.exit(2);
}
if (!Array.isArray(parsed.testResults)) {
  process.stderr.write(`test-durations: expected a vitest JSON report with testResults, found none in ${report}\n`);
  process.exit(2);
}
const files = Object.fromEntries(
  parsed.testResults
    .map((f) => [relative(root, f.name).split("\\").join("/"), Math.round((f.endTime - f.startTime) / 100) / 10])
    .filter(([, s]) => s >= 2)
    .sort((a, b) => b[1] - a[1]),
);
const out = fileURLToPath(new URL("../test/durations.json", import.meta.url));
writeFileSync(out, `${JSON.stringify({ note: "seconds per test file in one measured run (scripts/test-durations.mjs); only the order files start in depends on it", measured: new Date(parsed.startTime).toISOString().slice(0, 10), files }, null, 2)}\n`);
process.stdout.write(`test-durations: ${Object.keys(files).length} files of ${parsed.testResults.length} took 2 s or more; wrote ${relative(root, out)}\n`);
