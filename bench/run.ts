/**
 * `npm run bench [-- NAME ...]`: runs every benchmark module in bench/ (or the named ones).
 * Each module exports `run(): Promise<void>`, measures a baseline in the same run and prints
 * its ratio to it; a run that failed throws instead (bench/fail.ts) and the command exits 1. Benchmarks are never asserted as timed tests. Registered by file name
 * (`<name>.bench.ts`): capture, capture-quality, cli-start (a few commands' CPU time against `errata --version`, bundled and unbundled), client (the real Claude Code client), daily, engine, eval, exchanges, hook, ledger,
 * rules, server (the http hooks against a bare Fastify echo), train (the L2 search against a cold one), version (`errata --version` against a bare Node start).
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = new URL(".//", import.meta.url);
const wanted = process.argv.slice(2);
const files = readdirSync(fileURLToPath(dir))
  .filter((f) => f.endsWith(".bench.js"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${JSON.stringify(wanted)}\n`);
  process.exitCode = 2;
}
const failed: string[] = [];
for (const file of files) {
  const mod = (await import(new URL(file, dir).href)) as { run?: () => Promise<void> };
  if (typeof mod.run !== "function") continue;
  const name = file.replace(/\.bench\.js$/, "");
  process.stdout.write(`\n## ${name}\n`);
  try {
    await mod.run();
  } catch (e) {
    // A failed run prints no ratio (bench/fail.ts); the other benchmarks still run.
    failed.push(name);
    process.stdout.write(`FAILED ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
  }
}
if (failed.length > 0) {
  process.stderr.write(`benchmarks failed: ${failed.join(", ")} (no ratio printed for them)\n`);
  process.exitCode = 1;
}
