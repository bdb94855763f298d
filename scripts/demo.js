#!/usr/bin/env node
// `npm run demo`: the main job end to end on bundled data, offline, no key.
// 1. Builds a sample ledger from datasets/errata-sample/ (synthetic) by running the bundled
//    CLI in process (one `errata add` per row), validates it and prints `errata stats`.
// 2. Runs the main job, `errata daily`, on it with the embedded engine: the bundled Claude
//    Code sessions (datasets/claude-code/) and the synthetic ones (datasets/synthetic/
//    transcripts/) copied into a transcripts folder as `--root`; prints where the triage
//    report, the v4 report and the state file were written; then a manual `errata triage`
//    files upgrades, and a second daily run and a second triage show nothing filed twice.
// 3. The rules wing on the same v4 folder: `errata rules build` over the synthetic projects'
//    instruction files (datasets/synthetic/projects/), `errata rules cover` on the diagnosed
//    failures, and the v4 report's "Most-broken rules" (synthetic, and said so).
// The ledger goes to a fresh temporary folder (or --dir DIR), never the owner's ledger.
//
// Usage: npm run demo [-- --dir DIR] [-- --json [--daily]]
// With --json, one JSON value: the sample ledger's summary, plus `daily` with --daily.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const dirArg = args.indexOf("--dir");
const json = args.includes("--json");
// JSON mode reports the sample ledger (test/store/demo.test.ts reads it); --daily adds the daily run.
const daily = !json || args.includes("--daily");
const ledgerDir = dirArg >= 0 && args[dirArg + 1] ? resolve(args[dirArg + 1]) : mkdtempSync(join(tmpdir(), "errata-demo-"));

// The bundled CLI, as the bin runs it (scripts/bundle-cli.js): a handful of chunks to load
// instead of the few hundred modules its commands import.
const { run } = await import(new URL("../dist/cli-bundle/main.js", import.meta.url).href);
const { defaultIo } = await import(new URL("../dist/cli/shared/io.js", import.meta.url).href);

/** An Io for the in-process CLI: this ledger, output captured or passed through. */
function io({ capture }) {
  let out = "";
  const base = defaultIo();
  const env = { ...process.env, ERRATA_DIR: ledgerDir };
  delete env.OPENAI_API_KEY; // offline: the embedded engine only
  delete env.ERRATA_OPENAI_API_KEY;
  delete env.ERRATA_OPENAI_BASE_URL;
  delete env.ERRATA_ENGINE_LANE;
  return {
    io: {
      ...base,
      env,
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

const summary = {};
if (json) {
  const s = io({ capture: true });
  const code = await run(["stats", "--json"], s.io);
  Object.assign(summary, { ledger: ledgerDir, added, validation: { ok: validation.ok, errors: validation.errors }, stats: JSON.parse(s.out()) });
  process.exitCode = code || validateCode;
} else {
  const code = await run(["stats"], io({ capture: false }).io);
  process.exitCode = code || validateCode;
}

if (daily) {
  const result = await dailyDemo();
  if (json) summary.daily = result;
  if (!result.ok) process.exitCode = 1;
}
if (json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else process.stdout.write(`\nTry: ERRATA_DIR=${ledgerDir} node bin/errata.js list --kind bug\n`);

/** Part 2: `errata daily` on the sample ledger and the bundled transcripts, twice. */
async function dailyDemo() {
  const transcripts = join(ledgerDir, "transcripts-demo");
  for (const [from, name] of [[join(root, "datasets", "claude-code"), "claude-code"], [join(root, "datasets", "synthetic", "transcripts"), "synthetic"]]) {
    if (existsSync(from)) cpSync(from, join(transcripts, name), { recursive: true, filter: (p) => !/(exchanges|labels)\.jsonl$/.test(p) });
  }
  const capture = async (argv) => {
    const o = io({ capture: true });
    const code = await run(argv, o.io);
    return { code, value: JSON.parse(o.out()) };
  };
  // The synthetic sessions come with the generator's plan (datasets/synthetic/labels.jsonl,
  // labeller synthetic:plan): beside the v4 exchanges, the v4 report scores its planted
  // failures found, missed and false alarms against it instead of calling them unknown.
  const plan = join(root, "datasets", "synthetic", "labels.jsonl");
  if (existsSync(plan)) {
    mkdirSync(join(ledgerDir, "v4"), { recursive: true });
    copyFileSync(plan, join(ledgerDir, "v4", "labels.jsonl"));
  }
  const argv = ["daily", "--root", transcripts, "--json", "--quiet"];
  const say = (line) => {
    if (!json) process.stdout.write(`${line}\n`);
  };
  say(`\n$ errata daily --root ${transcripts}`);
  const first = await capture(argv);
  for (const st of first.value.stages) {
    const counts = Object.entries(st.counts).map(([k, v]) => `${k}=${v}`).join(" ");
    say(`  ${st.name.padEnd(7)} ${st.skipped ? "skip" : st.ok ? "ok  " : "FAIL"}  ${st.ok ? counts : `${st.error?.code}: ${st.error?.message}`}${st.notes.length ? `  [${st.notes.join("; ")}]` : ""}`);
  }
  const wrote = Object.fromEntries(first.value.stages.flatMap((st) => Object.entries(st.wrote).map(([k, v]) => [`${st.name}.${k}`, v])));
  const files = { triage_report: wrote["triage.report"] ?? null, v4_report: wrote["v4.report"] ?? null, state: wrote["report.state"] ?? null };
  const v4 = first.value.stages.find((st) => st.name === "v4")?.counts ?? {};
  const triaged = first.value.stages.find((st) => st.name === "triage")?.counts ?? {};
  const planted = { planted: v4.planted ?? null, found: v4.planted_found ?? null, missed: v4.planted_missed ?? null, false_alarms: v4.false_alarms ?? null, synthetic_exchanges: v4.synthetic_exchanges ?? 0 };
  const triageRests = { entries: triaged.entries ?? 0, synthetic: triaged.synthetic ?? 0, low_confidence: triaged.low_confidence ?? 0 };
  if (planted.planted !== null) {
    say(`v4 on the ${planted.synthetic_exchanges} SYNTHETIC exchanges, against the generator's plan: planted failures found ${planted.found} of ${planted.planted}, missed ${planted.missed}, false alarms ${planted.false_alarms}`);
  } else say("v4: no generator plan found, planted failures unknown");
  say(`triage rests on ${plural(triageRests.entries, "entry", "entries")}: ${triageRests.synthetic} SYNTHETIC (mined from generated sessions), ${triageRests.low_confidence} below enrichment confidence 0.5`);
  say(`triage report: ${files.triage_report}`);
  say(`v4 report:     ${files.v4_report}`);
  say(`state file:    ${files.state}`);
  const triage1 = await capture(["triage", "--since", "2000-01-01", "--json"]);
  const second = await capture(argv);
  const triage2 = await capture(["triage", "--since", "2000-01-01", "--json"]);
  const count = (r, stage, key) => r.value.stages.find((st) => st.name === stage)?.counts[key] ?? 0;
  const upgradesFile = join(ledgerDir, "upgrades.jsonl");
  const upgrades = existsSync(upgradesFile) ? readFileSync(upgradesFile, "utf8").split("\n").filter((l) => l.trim() !== "").length : 0;
  const again = {
    enriched: count(second, "enrich", "enriched"),
    triaged: count(second, "triage", "closed"),
    new_exchanges: count(second, "v4", "new_exchanges"),
    asked: count(second, "v4", "detect_asked") + count(second, "v4", "diagnose_asked"),
    filed_by_second_triage: count(triage2, "triage", "filed"),
  };
  say(`\n$ errata triage   # manual: files one upgrade per cluster of two or more confident entries, or any how_upset 3`);
  say(`  filed ${plural(count(triage1, "triage", "filed"), "upgrade", "upgrades")} from entries at confidence 0.5 or more; upgrades.jsonl holds ${upgrades}`);
  say(`$ errata daily (again) && errata triage (again)`);
  say(`  enriched ${again.enriched}, triaged ${again.triaged}, new exchanges ${again.new_exchanges}, asked ${again.asked}, filed ${again.filed_by_second_triage}: nothing twice`);
  const rules = await rulesDemo(capture, say);
  const ok = first.value.ok && second.value.ok && again.enriched === 0 && again.filed_by_second_triage === 0 && again.new_exchanges === 0 && rules.ok;
  if (!ok) process.stderr.write("demo: the daily run failed or a second run did something twice\n");
  return { ok, rules, planted, triage: triageRests, first: { ok: first.value.ok, failed: first.value.failed, stages: first.value.stages.map((st) => ({ name: st.name, ok: st.ok, skipped: st.skipped, counts: st.counts })) }, files, filed: count(triage1, "triage", "filed"), upgrades, second_run: again };
}

/** "1 entry", "2 entries". */
function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Part 3: the rule index over the synthetic projects, coverage of the diagnosed failures, the most-broken rules. */
async function rulesDemo(capture, say) {
  const projectsDir = join(root, "datasets", "synthetic", "projects");
  const names = existsSync(projectsDir) ? readdirSync(projectsDir).sort() : [];
  const roots = names.flatMap((n) => ["--root", join(projectsDir, n), "--project", `/home/dev/projects/${n}`]);
  say(`\n$ errata rules build --no-home ${names.map((n) => `--root datasets/synthetic/projects/${n} --project /home/dev/projects/${n}`).join(" ")}`);
  const built = await capture(["rules", "build", "--no-home", "--no-git", ...roots, "--json"]);
  say(`  ${built.value.units} rules from ${built.value.sources.length} instruction files (synthetic projects)`);
  // Every step composes under the one cuts chooser's cuts (runtime/judgments): with nothing
  // promoted and no `errata calibrate use`, those recorded with the shipped weights. The daily
  // run diagnosed its failures under them already; cover those, then read the report.
  say("$ errata v4 diagnose   # under the cuts every report uses (no --cuts needed)");
  const diag = await capture(["v4", "diagnose", "--json"]);
  say(`  ${diag.value.eligible} failures under the cuts ${diag.value.cuts_origin}; asked ${diag.value.asked}`);
  say("$ errata rules cover");
  const covered = await capture(["rules", "cover", "--json"]);
  const c = covered.value;
  say(`  ${c.failures} diagnosed failures (${c.synthetic} synthetic): ${c.enforce_rule} covered by a rule (enforce_rule), ${c.add_rule} by none (add_rule), ${c.unanswered} unanswered; cut ${c.cut} (${c.cut_origin})`);
  say("$ errata v4 report   # its most-broken-rules section");
  const o = io({ capture: true });
  const code = await run(["v4", "report"], o.io);
  const lines = o.out().split("\n");
  const at = lines.findIndex((l) => l.startsWith("most-broken rules"));
  const section = at < 0 ? ["  (no section: nothing covered)"] : lines.slice(at, lines.findIndex((l, i) => i > at && !l.startsWith("  "))).map((l) => `  ${l}`);
  for (const l of section) say(l);
  return { ok: built.code === 0 && diag.code === 0 && covered.code === 0 && code === 0, units: built.value.units, failures: c.failures, enforce_rule: c.enforce_rule, add_rule: c.add_rule, unanswered: c.unanswered };
}
