/**
 * The redactor's cost, against a bare `node -e 0` start measured in the same run (the hook's
 * budget: redaction may add at most 2% of a bare Node start to a capture).
 *
 * - per 1 KB, warm (tinybench): ordinary text (the bundled synthetic prompts, as most
 *   captures are), and text dense with secrets (the corpus, test/fixtures/privacy);
 *   a lower-casing of the same 1 KB is the in-run reference for the machine's speed;
 * - cold, in a fresh process (what a capture pays once): importing the redactor (its rules
 *   and gitleaks' data) and its first call on 1 KB, medians of REDACT_BENCH_RUNS (15)
 *   processes. This is an upper bound for the hook, which loads the same code from a
 *   CommonJS bundle with a V8 code cache.
 *
 * - the hook path, in instructions under callgrind (deterministic, unlike wall time on a
 *   shared machine), when REDACT_BENCH_BASELINE_BIN names the `bin/errata.cjs` of a build
 *   without this redactor (e.g. a checkout of the commit before it, built): the Stop hook
 *   keeping a reply and a capturing prompt, this build against that one and a bare
 *   `node -e 0`, medians of REDACT_BENCH_CALLGRIND_RUNS (3) alternating runs. The added
 *   instructions are reported as a share of a bare Node start (the budget: 2%).
 *
 * Run: `npm run build && node dist/bench/run.js redact`
 * (with the hook path: `REDACT_BENCH_BASELINE_BIN=../base/bin/errata.cjs node dist/bench/run.js redact`)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { redactSecrets } from "../runtime/privacy/redact.js";
import { loadCorpus } from "../test/privacy/corpus.js";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

function kilobyte(parts: string[]): string {
  let text = "";
  for (let i = 0; text.length < 1024; i++) text += `${parts[i % parts.length]}\n`;
  return text.slice(0, 1024);
}

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const runs = Number(process.env["REDACT_BENCH_RUNS"] ?? 15);
  const synthetic = readFileSync(join(repoRoot, "datasets", "synthetic", "exchanges.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, 200)
    .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
  const ordinary = kilobyte(synthetic);
  const dense = kilobyte(loadCorpus().secrets.map((s) => s.text));

  // Bare Node starts, then cold redactor processes, alternating so machine load hits both alike.
  const redactUrl = pathToFileURL(join(repoRoot, "dist", "runtime", "privacy", "redact.js")).href;
  const script = `const t0 = performance.now(); const m = await import(${JSON.stringify(redactUrl)}); const t1 = performance.now(); m.redactSecrets(process.argv[1]); const t2 = performance.now(); process.stdout.write(JSON.stringify([t1 - t0, t2 - t1]));`;
  const bare: number[] = [];
  const load: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ["-e", "0"]);
    bare.push(performance.now() - t0);
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script, ordinary], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`redact bench: cold process exited ${r.status}: ${r.stderr.slice(-300)}`);
    const [l, f] = JSON.parse(r.stdout) as [number, number];
    load.push(l);
    first.push(f);
  }

  const bench = new Bench({ time: 400 });
  bench
    .add("reference: toLowerCase, 1 KB", () => void ordinary.toLowerCase())
    .add("redact 1 KB ordinary text", () => void redactSecrets(ordinary))
    .add("redact 1 KB dense with secrets", () => void redactSecrets(dense));
  await bench.run();
  // The median sample: on a shared machine the mean carries other processes' pauses.
  const mean = (name: string): number => {
    const t = bench.tasks.find((x) => x.name === name);
    const r = t?.result as { latency?: { p50?: number; mean?: number } } | undefined;
    return r?.latency?.p50 ?? r?.latency?.mean ?? NaN;
  };
  const bareMs = median(bare);
  const ref = mean("reference: toLowerCase, 1 KB");
  process.stdout.write(`bare node -e 0: ${bareMs.toFixed(1)} ms (median of ${runs}); 2% of it: ${(bareMs * 20).toFixed(0)} us\n`);
  for (const name of ["redact 1 KB ordinary text", "redact 1 KB dense with secrets"]) {
    const ms = mean(name);
    process.stdout.write(`${name}: ${(ms * 1000).toFixed(1)} us (${(ms / ref).toFixed(0)}x toLowerCase; ${((ms / bareMs) * 100).toFixed(2)}% of a bare Node start)\n`);
  }
  const loadMs = median(load);
  const firstMs = median(first);
  process.stdout.write(
    `cold, fresh process (ES modules, no code cache): import ${loadMs.toFixed(1)} ms (${((loadMs / bareMs) * 100).toFixed(1)}% of a bare start), first call on 1 KB ${firstMs.toFixed(2)} ms (${((firstMs / bareMs) * 100).toFixed(1)}%)\n`,
  );
  hookPath(repoRoot, ordinary);
}

/** Instructions executed by one process under callgrind. */
function instructions(args: string[], input: string, env: NodeJS.ProcessEnv, outFile: string): number {
  const r = spawnSync("valgrind", ["--tool=callgrind", `--callgrind-out-file=${outFile}`, process.execPath, ...args], { input, env, encoding: "utf8" });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`callgrind run exited ${r.status}: ${r.stderr.slice(-300)}`);
  return Number(m[1]);
}

function hookPath(repoRoot: string, ordinary: string): void {
  const baseBin = process.env["REDACT_BENCH_BASELINE_BIN"];
  if (baseBin === undefined) {
    process.stdout.write("hook path: skipped (set REDACT_BENCH_BASELINE_BIN to the bin/errata.cjs of a build without this redactor)\n");
    return;
  }
  if (spawnSync("valgrind", ["--version"]).status !== 0) {
    process.stdout.write("hook path: skipped (valgrind is not installed)\n");
    return;
  }
  const runs = Number(process.env["REDACT_BENCH_CALLGRIND_RUNS"] ?? 3);
  const dir = mkdtempSync(join(tmpdir(), "errata-redact-bench-"));
  try {
    const transcript = join(dir, "session.jsonl");
    writeFileSync(transcript, readFileSync(join(repoRoot, "datasets", "claude-code", "spotter", "tool_heavy.jsonl")));
    const bins: Array<[string, string]> = [
      ["this build", join(repoRoot, "bin", "errata.cjs")],
      ["baseline build", resolve(baseBin)],
    ];
    const stdinStop = JSON.stringify({ session_id: "kept", transcript_path: transcript, hook_event_name: "Stop", last_assistant_message: ordinary });
    const stdinPrompt = JSON.stringify({ session_id: "kept", transcript_path: transcript, cwd: dir, hook_event_name: "UserPromptSubmit", prompt: "No, that's wrong. I already told you to keep the old API." });
    const counts = new Map<string, number[]>();
    const add = (k: string, v: number): void => void counts.set(k, [...(counts.get(k) ?? []), v]);
    const out = join(dir, "callgrind.out");
    for (let i = 0; i < runs; i++) {
      add("node -e 0", instructions(["-e", "0"], "", { ...process.env }, out));
      for (const [label, bin] of bins) {
        const env = { ...process.env, ERRATA_DIR: join(dir, `ledger-${label.replace(/ /g, "-")}`) };
        add(`${label}: Stop hook keeping a 1 KB reply`, instructions([bin, "hook", "stop"], stdinStop, env, out));
        add(`${label}: capturing prompt (reply kept)`, instructions([bin, "hook", "user-prompt-submit"], stdinPrompt, env, out));
      }
    }
    const m = (k: string): number => median(counts.get(k) ?? []);
    const bare = m("node -e 0");
    process.stdout.write(`hook path, instructions under callgrind, medians of ${runs} alternating runs; node -e 0: ${(bare / 1e6).toFixed(1)} M\n`);
    for (const what of ["Stop hook keeping a 1 KB reply", "capturing prompt (reply kept)"]) {
      const mine = m(`this build: ${what}`);
      const base = m(`baseline build: ${what}`);
      process.stdout.write(`  ${what}: ${(mine / 1e6).toFixed(1)} M vs ${(base / 1e6).toFixed(1)} M, added ${(((mine - base) / bare) * 100).toFixed(2)}% of a bare Node start\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
