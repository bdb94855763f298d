/**
 * `npm run bench [-- NAME ...]`: runs every benchmark module in bench/ (or the named ones).
 * Each module exports `run(): Promise<void>`, measures a baseline in the same run and prints
 * its ratio to it. Benchmarks are never asserted as timed tests. Registered by file name
 * (`<name>.bench.ts`): capture, capture-quality, client (the real Claude Code client), daily, engine, eval, exchanges, hook, ledger,
 * rules, version (`errata --version` against a bare Node start).
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
for (const file of files) {
  const mod = (await import(new URL(file, dir).href)) as { run?: () => Promise<void> };
  if (typeof mod.run !== "function") continue;
  process.stdout.write(`\n## ${file.replace(/\.bench\.js$/, "")}\n`);
  await mod.run();
}
