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
 * - the pre-filter (runtime/privacy/prefilter.ts) on real texts: the share of the real
 *   sessions' replies, typed prompts and whole capture turns it clears (bench/redact-data.ts;
 *   skipped with a printed line without ../shared/datasets), and what trips it;
 *
 * - the hook path, in instructions under callgrind (deterministic, unlike wall time on a
 *   shared machine; a few percent of noise from Node's background threads, hence medians):
 *   this build against the same tree built with redaction stubbed out (scripts/bundle-hook.js
 *   --out --stub-redaction, made by this bench in a scratch folder), or against the
 *   `bin/errata.cjs` that REDACT_BENCH_BASELINE_BIN names (e.g. a built checkout of the commit
 *   before the redactor), and a bare `node -e 0`, medians of REDACT_BENCH_CALLGRIND_RUNS (5)
 *   alternating runs. Variants: the Stop hook keeping a 1 KB synthetic reply; a capturing
 *   prompt with the reply kept; with real data, the Stop hook keeping a real reply the
 *   pre-filter clears and one it cannot, and a capture whose prompt it cannot clear. The added
 *   instructions are reported as a share of a bare Node start (the budget: 2%), and the
 *   realistic mix weighs the cleared and uncleared variants by the real shares above.
 *
 * Run: `npm run build && node dist/bench/run.js redact`
 * (against another build: `REDACT_BENCH_BASELINE_BIN=../base/bin/errata.cjs node dist/bench/run.js redact`)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { mayHoldSecret, prefilterReason } from "../runtime/privacy/prefilter.js";
import { redactSecrets, redactWithoutPrefilter } from "../runtime/privacy/redact.js";
import { loadCorpus } from "../test/privacy/corpus.js";
import { realReplies, realTurns, transcriptsDir, type RealTurn } from "./redact-data.js";
import { callgrindNet } from "./tool-hook.bench.js";

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

  // Redaction remembers the texts it cleared (a capture writes its reply twice): each call gets
  // one of 1,000 distinct variants of the same kilobyte, so the warm figures are of scanning,
  // not of that memory.
  const variants = Array.from({ length: 1000 }, (_, i) => `${ordinary.slice(0, 1018)} #${String(i).padStart(4, "0")}`);
  let at = 0;
  const next = (): string => variants[at++ % variants.length]!;
  const bench = new Bench({ time: 400 });
  bench
    .add("reference: toLowerCase, 1 KB", () => void next().toLowerCase())
    .add("pre-filter 1 KB ordinary text", () => void mayHoldSecret(next()))
    .add("redact 1 KB ordinary text", () => void redactSecrets(next()))
    .add("redact 1 KB ordinary text without the pre-filter", () => void redactWithoutPrefilter(next()))
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
  for (const name of ["pre-filter 1 KB ordinary text", "redact 1 KB ordinary text", "redact 1 KB ordinary text without the pre-filter", "redact 1 KB dense with secrets"]) {
    const ms = mean(name);
    process.stdout.write(`${name}: ${(ms * 1000).toFixed(1)} us (${(ms / ref).toFixed(0)}x toLowerCase; ${((ms / bareMs) * 100).toFixed(2)}% of a bare Node start)\n`);
  }
  const loadMs = median(load);
  const firstMs = median(first);
  process.stdout.write(
    `cold, fresh process (ES modules, no code cache): import ${loadMs.toFixed(1)} ms (${((loadMs / bareMs) * 100).toFixed(1)}% of a bare start), first call on 1 KB ${firstMs.toFixed(2)} ms (${((firstMs / bareMs) * 100).toFixed(1)}%)\n`,
  );
  const real = realShares(repoRoot);
  hookPath(repoRoot, ordinary, real);
}

interface RealShares {
  turns: RealTurn[];
  replies: string[];
  /** Shares the pre-filter clears. */
  replyShare: number;
  turnShare: number;
}

const cleared = (texts: readonly string[]): number => texts.filter((t) => !mayHoldSecret(t)).length;
const pct = (n: number, d: number): string => `${n}/${d} (${((100 * n) / d).toFixed(1)}%)`;

/** What share of real texts the pre-filter clears, and what trips it on the others. */
function realShares(repoRoot: string): RealShares | null {
  const turns = realTurns(transcriptsDir(repoRoot));
  if (turns.length === 0) {
    process.stdout.write("pre-filter on real texts: skipped (../shared/datasets/claude-transcripts is absent)\n");
    return null;
  }
  const replies = realReplies(turns);
  const prompts = turns.map((t) => t.prompt);
  const turnsCleared = turns.filter((t) => t.texts.every((x) => !mayHoldSecret(x))).length;
  const missed = turns.flatMap((t) => t.texts).filter((x) => !mayHoldSecret(x) && redactWithoutPrefilter(x).text !== x).length;
  const reasons = new Map<string, number>();
  for (const x of new Set(turns.flatMap((t) => t.texts))) {
    const r = prefilterReason(x);
    if (r !== null) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  }
  process.stdout.write(
    `pre-filter on the real sessions (${new Set(turns.map((t) => t.file)).size} files): replies cleared ${pct(cleared(replies), replies.length)}, typed prompts ${pct(cleared(prompts), prompts.length)}, ` +
      `whole capture turns (prompt, reply, ask, tool-call summaries) ${pct(turnsCleared, turns.length)}; cleared texts the redactor would have changed: ${missed}\n` +
      `  what trips it (distinct texts): ${[...reasons].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}\n`,
  );
  return { turns, replies, replyShare: cleared(replies) / replies.length, turnShare: turnsCleared / turns.length };
}

/**
 * Instructions executed by one process under callgrind, in a stock environment and net of V8's
 * hash-seed set-up (tool-hook.bench.ts callgrindNet): NODE_EXTRA_CA_CERTS (set on some
 * machines, this one included) makes every Node start several times dearer and would hide
 * the redactor's cost in a larger denominator; the hash seed's primality test moves a whole
 * process by several million instructions from run to run.
 */
function instructions(args: string[], input: string, env: NodeJS.ProcessEnv, outFile: string): { count: number; stdout: string } {
  const stock = { ...env };
  delete stock["NODE_EXTRA_CA_CERTS"];
  const r = spawnSync("valgrind", ["--tool=callgrind", `--callgrind-out-file=${outFile}`, process.execPath, ...args], { input, env: stock, encoding: "utf8" });
  if (r.status !== 0 || !/Collected : \d+/.test(r.stderr)) throw new Error(`callgrind run exited ${r.status}: ${r.stderr.slice(-300)}`);
  return { count: callgrindNet(readFileSync(outFile, "utf8")).net, stdout: r.stdout };
}

/** The same tree built with redaction stubbed out, in `dir` (its bin/errata.cjs). */
function stubbedBuild(repoRoot: string, dir: string): string {
  for (const args of [["scripts/bundle-hook.js", "--out", dir, "--stub-redaction"], ["scripts/hook-cache.cjs", "--root", dir]]) {
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`redact bench: ${args[0]} exited ${r.status}: ${r.stderr.slice(-300)}`);
  }
  return join(dir, "bin", "errata.cjs");
}

/** The element of median length. */
function medianByLength(texts: readonly string[]): string | undefined {
  return [...texts].sort((a, b) => a.length - b.length)[Math.floor(texts.length / 2)];
}

interface HookVariant {
  what: string;
  event: "stop" | "user-prompt-submit";
  stdin: string;
  /** The Stop hook's input run (unmeasured) before a capture, so the reply is kept. */
  before?: string;
  captures?: boolean;
}

function hookPath(repoRoot: string, ordinary: string, real: RealShares | null): void {
  if (spawnSync("valgrind", ["--version"]).status !== 0) {
    process.stdout.write("hook path: skipped (valgrind is not installed)\n");
    return;
  }
  const runs = Number(process.env["REDACT_BENCH_CALLGRIND_RUNS"] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), "errata-redact-bench-"));
  try {
    const baseBin = process.env["REDACT_BENCH_BASELINE_BIN"];
    const baseline = baseBin === undefined ? stubbedBuild(repoRoot, join(dir, "stubbed")) : resolve(baseBin);
    const baseLabel = baseBin === undefined ? "this tree with redaction stubbed out" : baseBin;
    const transcript = join(dir, "session.jsonl");
    writeFileSync(transcript, readFileSync(join(repoRoot, "datasets", "claude-code", "spotter", "tool_heavy.jsonl")));
    const stop = (reply: string): string => JSON.stringify({ session_id: "kept", transcript_path: transcript, hook_event_name: "Stop", last_assistant_message: reply });
    // The host's cwd is recorded (and redacted) with the row: a fixed project path, not the
    // scratch folder, whose random suffix (mixed case and digits) reads as a token.
    const prompt = (text: string): string => JSON.stringify({ session_id: "kept", transcript_path: transcript, cwd: "/home/ana/projects/shop", hook_event_name: "UserPromptSubmit", prompt: text });
    const correction = "No, that's wrong. I already told you to keep the old API.";
    const variants: HookVariant[] = [
      { what: "Stop hook keeping a 1 KB synthetic reply", event: "stop", stdin: stop(ordinary) },
      { what: "capturing prompt (reply kept)", event: "user-prompt-submit", stdin: prompt(correction), before: stop(ordinary), captures: true },
    ];
    if (real !== null) {
      const pass = medianByLength(real.replies.filter((r) => !mayHoldSecret(r)));
      const fail = medianByLength(real.replies.filter((r) => mayHoldSecret(r)));
      const failPrompt = medianByLength(real.turns.map((t) => t.prompt).filter((p) => mayHoldSecret(p))) ?? fail;
      if (pass !== undefined) variants.push({ what: `Stop hook keeping a real reply the pre-filter clears (${pass.length} chars)`, event: "stop", stdin: stop(pass) });
      if (fail !== undefined) variants.push({ what: `Stop hook given a real reply it cannot clear (${fail.length} chars; withheld, not kept)`, event: "stop", stdin: stop(fail) });
      if (failPrompt !== undefined) {
        const text = `No, that's wrong, it still says: ${failPrompt}`;
        variants.push({ what: `capturing prompt it cannot clear (${text.length} chars; reply kept)`, event: "user-prompt-submit", stdin: prompt(text), before: stop(ordinary), captures: true });
      }
    }
    const counts = new Map<string, number[]>();
    const add = (k: string, v: number): void => void counts.set(k, [...(counts.get(k) ?? []), v]);
    const out = join(dir, "callgrind.out");
    const bins: Array<[string, string]> = [
      ["this build", join(repoRoot, "bin", "errata.cjs")],
      ["baseline", baseline],
    ];
    for (let i = 0; i < runs; i++) {
      add("node -e 0", instructions(["-e", "0"], "", { ...process.env }, out).count);
      for (const [label, bin] of bins) {
        for (const [k, v] of variants.entries()) {
          // One ledger a run and variant, made before the measured run: the first capture of a
          // ledger makes its reporter key (node:crypto), which a later one does not.
          const env = { ...process.env, ERRATA_DIR: join(dir, `ledger-${label.replace(/ /g, "-")}-${k}-${i}`) };
          spawnSync(process.execPath, [bin, "hook", "user-prompt-submit"], { input: prompt(correction), env });
          if (v.before !== undefined) spawnSync(process.execPath, [bin, "hook", "stop"], { input: v.before, env });
          const r = instructions([bin, "hook", v.event], v.stdin, env, out);
          if (v.captures === true && !r.stdout.includes("captured this prompt")) throw new Error(`redact bench: ${v.what} did not capture (${label}): ${r.stdout}`);
          add(`${label}: ${v.what}`, r.count);
        }
      }
    }
    const m = (k: string): number => median(counts.get(k) ?? []);
    const bare = m("node -e 0");
    const added = (what: string): number => (m(`this build: ${what}`) - m(`baseline: ${what}`)) / bare;
    process.stdout.write(`hook path, instructions under callgrind (stock environment: NODE_EXTRA_CA_CERTS unset; net of V8's hash-seed set-up), medians of ${runs} alternating runs, against ${baseLabel}; node -e 0: ${(bare / 1e6).toFixed(1)} M\n`);
    for (const v of variants) {
      const mine = m(`this build: ${v.what}`);
      const base = m(`baseline: ${v.what}`);
      process.stdout.write(`  ${v.what}: ${(mine / 1e6).toFixed(1)} M vs ${(base / 1e6).toFixed(1)} M, added ${((mine - base) / 1e6).toFixed(1)} M = ${(added(v.what) * 100).toFixed(2)}% of a bare Node start\n`);
    }
    if (real !== null && variants.length === 5) {
      const [, , pass, fail, failCapture] = variants.map((v) => added(v.what));
      const stopMix = real.replyShare * pass! + (1 - real.replyShare) * fail!;
      const captureMix = real.turnShare * added(variants[1]!.what) + (1 - real.turnShare) * failCapture!;
      process.stdout.write(
        `  realistic mix, weighed by the real shares: Stop hook ${(stopMix * 100).toFixed(2)}% (${(real.replyShare * 100).toFixed(1)}% of replies cleared), ` +
          `capture ${(captureMix * 100).toFixed(2)}% (${(real.turnShare * 100).toFixed(1)}% of turns cleared) of a bare Node start\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
