#!/usr/bin/env node
// `npm run demo`: the main job end to end on bundled data, offline, no key.
// For now: builds a sample ledger from datasets/errata-sample/ (synthetic) by running the
// compiled CLI in process (one `errata add` per row), validates it and prints `errata stats`.
// The ledger goes to a fresh temporary folder (or --dir DIR), never the owner's ledger.
//
// Usage: npm run demo [-- --dir DIR] [-- --json]
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const dirArg = args.indexOf("--dir");
const json = args.includes("--json");
const ledgerDir = dirArg >= 0 && args[dirArg + 1] ? resolve(args[dirArg + 1]) : mkdtempSync(join(tmpdir(), "errata-demo-"));

const { run } = await import(new URL("../dist/cli/main.js", import.meta.url).href);
const { defaultIo } = await import(new URL("../dist/cli/io.js", import.meta.url).href);

/** An Io for the in-process CLI: this ledger, output captured or passed through. */
function io({ capture }) {
  let out = "";
  const base = defaultIo();
  return {
    io: {
      ...base,
      env: { ...process.env, ERRATA_DIR: ledgerDir },
      stdout: capture ? { write: (s) => ((out += String(s)), true) } : process.stdout,
    },
    out: () => out,
  };
}

const sampleDir = join(root, "datasets", "errata-sample");
mkdirSync(ledgerDir, { recursive: true });
copyFileSync(join(sampleDir, "errata-systems.json"), join(ledgerDir, "errata-systems.json"));

const rows = readFileSync(join(sampleDir, "errata-sample.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));

let added = 0;
for (const r of rows) {
  const argv = ["add", "--complaint", r.text, "--ts", r.ts, "--system", r.system, "--source", r.source, "--channel", r.channel,
    "--reporter-id", r.reporter, "--reporter-role", r.reporter_role, "--json"];
  if (r.rating !== null) argv.push("--rating", String(r.rating));
  if (r.frustration !== null) argv.push("--frustration", String(r.frustration));
  if (r.session) argv.push("--session", r.session);
  if (r.requested) argv.push("--requested", r.requested);
  if (r.response) argv.push("--response", r.response);
  if (r.product) argv.push("--product");
  const o = io({ capture: true });
  const code = await run(argv, o.io);
  if (code !== 0) {
    process.stderr.write(`demo: errata add failed (exit ${code}) on ${JSON.stringify(r.text)}\n`);
    process.exit(code);
  }
  added += 1;
}

if (!json) {
  process.stdout.write(`Errata demo: ${added} synthetic errata from datasets/errata-sample/ written to\n  ${ledgerDir}\n\n`);
  process.stdout.write("$ errata validate\n");
}
const v = io({ capture: true });
const validateCode = await run(["validate", "--json"], v.io);
const validation = JSON.parse(v.out());
if (!json) process.stdout.write(`${validation.errors} errors, ${validation.warnings} warnings in ${validation.lines} lines\n\n$ errata stats\n`);

if (json) {
  const s = io({ capture: true });
  const code = await run(["stats", "--json"], s.io);
  process.stdout.write(`${JSON.stringify({ ledger: ledgerDir, added, validation: { ok: validation.ok, errors: validation.errors }, stats: JSON.parse(s.out()) }, null, 2)}\n`);
  process.exitCode = code || validateCode;
} else {
  const code = await run(["stats"], io({ capture: false }).io);
  process.stdout.write(`\nTry: ERRATA_DIR=${ledgerDir} node bin/errata.js list --kind bug\n`);
  process.exitCode = code || validateCode;
}
