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
 *   alternating runs. Each Stop or capture reads a transcript that ends with the reply it is
 *   about, as in Claude Code (the capture reads the reply there: the Stop hook records only its
 *   hash). Variants: an ordinary prompt; the Stop hook and a capturing prompt after a 1 KB
 *   synthetic reply; with real data, the Stop hook after a real reply the pre-filter clears and
 *   one it cannot, a capture after each, and a capture whose prompt it cannot clear. The added
 *   instructions are reported as a share of a bare Node start (the budget: 2%). Then the mix a
 *   real session makes: every typed prompt of the real sessions is one UserPromptSubmit run
 *   (ordinary, or a capture when the hook's classifier captures it, cleared or not) and each
 *   turn ends in one Stop run; the added cost per hook run is the variants' figures weighed by
 *   those counts. Against each baseline it also says whether every capture is at or under the
 *   baseline's count (issue 34's target against the build before its redactor work, 7640657).
 *
 * Run: `npm run build && node dist/bench/run.js redact`
 * (against another build: `REDACT_BENCH_BASELINE_BIN=../base/bin/errata.cjs node dist/bench/run.js redact`)
 */
import { spawnSync } from "node:child_process";
import { mustSucceed } from "./fail.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { classify } from "../runtime/classifier/classify.js";
import { rowKind } from "../runtime/hooks/row-kind.js";
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
  if (process.env["REDACT_BENCH_HOOK_ONLY"] === "1") {
    // Only the hook path under callgrind (and the real texts it picks its variants from).
    const synthetic = readFileSync(join(repoRoot, "datasets", "synthetic", "exchanges.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .slice(0, 200)
      .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
    hookPath(repoRoot, kilobyte(synthetic), realShares(repoRoot));
    return;
  }
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
  // not of that memory (which holds 64).
  // Redaction also remembers the redactions of texts it could not clear: the dense kilobyte rotates too.
  const variants = Array.from({ length: 1000 }, (_, i) => `${ordinary.slice(0, 1018)} #${String(i).padStart(4, "0")}`);
  const denseVariants = Array.from({ length: 1000 }, (_, i) => `${dense.slice(0, 1018)} #${String(i).padStart(4, "0")}`);
  let at = 0;
  const next = (): string => variants[at++ % variants.length]!;
  let denseAt = 0;
  const nextDense = (): string => denseVariants[denseAt++ % denseVariants.length]!;
  const bench = new Bench({ time: 400 });
  bench
    .add("reference: toLowerCase, 1 KB", () => void next().toLowerCase())
    .add("pre-filter 1 KB ordinary text", () => void mayHoldSecret(next()))
    .add("redact 1 KB ordinary text", () => void redactSecrets(next()))
    .add("redact 1 KB ordinary text without the pre-filter", () => void redactWithoutPrefilter(next()))
    .add("redact 1 KB dense with secrets", () => void redactSecrets(nextDense()));
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
  /** The Stop hook's input run (unmeasured) before a capture, as in a session. */
  before?: string;
  captures?: boolean;
}

/** A transcript line for an assistant reply, appended to the bundled session (bench only). */
function replyLine(reply: string): string {
  const base = { isSidechain: false, userType: "external", cwd: "/home/marco/projects/spotter", sessionId: "d6e0bada-1959-4eec-a9d2-0bfade768d8f", version: "2.1.38" };
  const message = { model: "claude-opus-4-6", id: "msg_bench_reply", type: "message", role: "assistant", content: [{ type: "text", text: reply }] };
  return `${JSON.stringify({ ...base, parentUuid: "29e6224a-ea4f-445c-964f-d2bbddd138d0", type: "assistant", message, uuid: "bench-reply", timestamp: "2026-02-10T23:00:00.000Z" })}\n`;
}

/** How a real session's hook runs divide: typed prompts (ordinary or captured, cleared or not) and Stop runs. */
interface SessionMix {
  prompts: number;
  captures: number;
  capturesCleared: number;
  stops: number;
}

function sessionMix(real: RealShares): SessionMix {
  const captured = real.turns.filter((t) => rowKind(classify(t.prompt, { previousReply: t.reply })) !== null);
  return {
    prompts: real.turns.length,
    captures: captured.length,
    capturesCleared: captured.filter((t) => t.texts.every((x) => !mayHoldSecret(x))).length,
    // Each typed prompt's turn ends in one Stop run.
    stops: real.turns.length,
  };
}

function hookPath(repoRoot: string, ordinary: string, real: RealShares | null): void {
  if (spawnSync("valgrind", ["--version"]).status !== 0) {
    process.stdout.write("hook path: skipped (valgrind is not installed)\n");
    return;
  }
  const runs = Number(process.env["REDACT_BENCH_CALLGRIND_RUNS"] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), "errata-redact-bench-"));
  try {
    // One baseline or several, comma-separated, each `path` or `label=path`, all measured in
    // the same run, alternating (e.g. the build before issue 34's redactor work and main).
    const baseBin = process.env["REDACT_BENCH_BASELINE_BIN"];
    const baselines: Array<[string, string]> =
      baseBin === undefined || baseBin === ""
        ? [["this tree with redaction stubbed out", stubbedBuild(repoRoot, join(dir, "stubbed"))]]
        : baseBin.split(",").map((item): [string, string] => {
            const eq = item.indexOf("=");
            return eq > 0 ? [item.slice(0, eq), resolve(item.slice(eq + 1))] : [item, resolve(item)];
          });
    if (new Set(baselines.map(([l]) => l)).size !== baselines.length || baselines.some(([l]) => l === "this build")) throw new Error("redact bench: two baselines share a label (or one is called 'this build')");
    // Variants matching REDACT_BENCH_VARIANTS (a regular expression) only: for a quick look at one path.
    const only = process.env["REDACT_BENCH_VARIANTS"];
    const session = readFileSync(join(repoRoot, "datasets", "claude-code", "spotter", "tool_heavy.jsonl"), "utf8");
    // One transcript per reply: the bundled session, then that reply as its last message.
    const transcripts = new Map<string, string>();
    const transcriptFor = (reply: string): string => {
      let file = transcripts.get(reply);
      if (file === undefined) {
        file = join(dir, `session-${transcripts.size}.jsonl`);
        writeFileSync(file, session + replyLine(reply));
        transcripts.set(reply, file);
      }
      return file;
    };
    const stop = (reply: string): string => JSON.stringify({ session_id: "kept", transcript_path: transcriptFor(reply), hook_event_name: "Stop", last_assistant_message: reply });
    // The host's cwd is recorded (and redacted) with the row: a fixed project path, not the
    // scratch folder, whose random suffix (mixed case and digits) reads as a token.
    const prompt = (text: string, reply: string): string =>
      JSON.stringify({ session_id: "kept", transcript_path: transcriptFor(reply), cwd: "/home/ana/projects/shop", hook_event_name: "UserPromptSubmit", prompt: text });
    const correction = "No, that's wrong. I already told you to keep the old API.";
    const capture = (what: string, text: string, reply: string): HookVariant => ({ what, event: "user-prompt-submit", stdin: prompt(text, reply), before: stop(reply), captures: true });
    const variants: HookVariant[] = [
      { what: "ordinary prompt", event: "user-prompt-submit", stdin: prompt("add a retry to the fetch call and run the tests", ordinary) },
      { what: "Stop hook after a 1 KB synthetic reply", event: "stop", stdin: stop(ordinary) },
      capture("capturing prompt after a 1 KB synthetic reply", correction, ordinary),
    ];
    let pass: string | undefined;
    let fail: string | undefined;
    if (real !== null) {
      pass = medianByLength(real.replies.filter((r) => !mayHoldSecret(r)));
      fail = medianByLength(real.replies.filter((r) => mayHoldSecret(r)));
      const failPrompt = medianByLength(real.turns.map((t) => t.prompt).filter((p) => mayHoldSecret(p)));
      if (pass !== undefined) {
        variants.push({ what: `Stop hook after a real reply the pre-filter clears (${pass.length} chars)`, event: "stop", stdin: stop(pass) });
        variants.push(capture(`capture after that cleared reply`, correction, pass));
      }
      if (fail !== undefined) {
        variants.push({ what: `Stop hook after a real reply it cannot clear (${fail.length} chars)`, event: "stop", stdin: stop(fail) });
        variants.push(capture(`capture after that uncleared reply (the full redactor loads)`, correction, fail));
      }
      if (failPrompt !== undefined && pass !== undefined) {
        const text = `No, that's wrong, it still says: ${failPrompt}`;
        variants.push(capture(`capture of a real prompt it cannot clear (${text.length} chars), after the cleared reply`, text, pass));
      }
    }
    if (new Set(variants.map((v) => v.what)).size !== variants.length) throw new Error("redact bench: two hook variants share a name");
    if (only !== undefined) {
      const keep = new RegExp(only);
      variants.splice(0, variants.length, ...variants.filter((v) => keep.test(v.what)));
    }
    const counts = new Map<string, number[]>();
    const add = (k: string, v: number): void => void counts.set(k, [...(counts.get(k) ?? []), v]);
    const out = join(dir, "callgrind.out");
    const bins: Array<[string, string]> = [["this build", join(repoRoot, "bin", "errata.cjs")], ...baselines];
    for (let i = 0; i < runs; i++) {
      add("node -e 0", instructions(["-e", "0"], "", { ...process.env }, out).count);
      for (const [label, bin] of bins) {
        for (const [k, v] of variants.entries()) {
          // One ledger a run and variant, made before the measured run: the first capture of a
          // ledger makes its reporter key (node:crypto), which a later one does not.
          const env = { ...process.env, ERRATA_DIR: join(dir, `ledger-${label.replace(/ /g, "-")}-${k}-${i}`) };
          const first = spawnSync(process.execPath, [bin, "hook", "user-prompt-submit"], { input: prompt(correction, ordinary), env, encoding: "utf8" });
          mustSucceed(first.status === 0, `redact bench: the set-up capture exited ${first.status} (${label}): ${first.stderr.slice(-300)}`);
          if (v.before !== undefined) {
            const stop = spawnSync(process.execPath, [bin, "hook", "stop"], { input: v.before, env, encoding: "utf8" });
            mustSucceed(stop.status === 0, `redact bench: the set-up Stop hook exited ${stop.status} (${label}): ${stop.stderr.slice(-300)}`);
          }
          // REDACT_BENCH_CALLGRIND_DIR keeps each run's callgrind file there (for callgrind_annotate).
          const keep = process.env["REDACT_BENCH_CALLGRIND_DIR"];
          const r = instructions([bin, "hook", v.event], v.stdin, env, keep === undefined ? out : join(keep, `${label}-${k}-${i}.callgrind`.replace(/[^A-Za-z0-9._-]/g, "_")));
          if (v.captures === true && !r.stdout.includes("captured this prompt")) throw new Error(`redact bench: ${v.what} did not capture (${label}): ${r.stdout}`);
          add(`${label}: ${v.what}`, r.count);
        }
      }
    }
    const m = (k: string): number => median(counts.get(k) ?? []);
    const bare = m("node -e 0");
    process.stdout.write(`hook path, instructions under callgrind (stock environment: NODE_EXTRA_CA_CERTS unset; net of V8's hash-seed set-up), medians of ${runs} alternating runs; node -e 0: ${(bare / 1e6).toFixed(1)} M; budget: 2% of it\n`);
    for (const [label] of baselines) hookReport(label, variants, m, bare, real);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** This build's hook variants against one baseline of the same run, and a real session's mix. */
function hookReport(label: string, variants: readonly HookVariant[], m: (k: string) => number, bare: number, real: RealShares | null): void {
  const pc = (x: number): string => `${(x * 100).toFixed(2)}%`;
  const added = (what: string): number => (m(`this build: ${what}`) - m(`${label}: ${what}`)) / bare;
  process.stdout.write(`against ${label}:\n`);
  for (const v of variants) {
    const mine = m(`this build: ${v.what}`);
    const base = m(`${label}: ${v.what}`);
    process.stdout.write(`  ${v.what}: ${(mine / 1e6).toFixed(1)} M vs ${(base / 1e6).toFixed(1)} M, added ${((mine - base) / 1e6).toFixed(1)} M = ${pc(added(v.what))} of a bare Node start\n`);
  }
  // Issue 34's target: every capture at or under the baseline's count in the same run (a
  // baseline such as the build before its redactor work, 7640657; docs/privacy.md "Cost").
  const captures = variants.filter((v) => v.captures === true);
  const aboveBase = captures.filter((v) => m(`this build: ${v.what}`) > m(`${label}: ${v.what}`));
  if (captures.length > 0)
    process.stdout.write(`  every capture at or under ${label} (issue 34): ${aboveBase.length === 0 ? "met" : `not met: ${aboveBase.length} of ${captures.length} over (${aboveBase.map((v) => `${v.what} x${(m(`this build: ${v.what}`) / m(`${label}: ${v.what}`)).toFixed(3)}`).join("; ")})`}\n`);
  if (real !== null && variants.length === 8) {
    // A difference below zero is noise (the ordinary prompt's main bundle holds no redaction at
    // all): the mix counts it as zero, never as a saving.
    const [ordinaryRun, , , stopPass, capturePass, stopFail, captureFail, capturePrompt] = variants.map((v) => Math.max(0, added(v.what))) as [number, number, number, number, number, number, number, number];
    const mix = sessionMix(real);
    const stopRun = real.replyShare * stopPass + (1 - real.replyShare) * stopFail;
    // An uncleared capture: its reply or its prompt wakes a rule; both measured, their mean taken.
    const captureUncleared = (captureFail + capturePrompt) / 2;
    const runsTotal = mix.prompts + mix.stops;
    const perRun =
      ((mix.prompts - mix.captures) * ordinaryRun + mix.capturesCleared * capturePass + (mix.captures - mix.capturesCleared) * captureUncleared + mix.stops * stopRun) / runsTotal;
    process.stdout.write(
      `  a real session's hook runs (${mix.prompts} typed prompts of the real sessions: ${mix.prompts - mix.captures} ordinary, ${mix.captures} captured by the hook's classifier, ` +
        `${mix.capturesCleared} of them with every text cleared; one Stop run per turn, ${(real.replyShare * 100).toFixed(1)}% of replies cleared): ` +
        `Stop run ${pc(stopRun)}, capture ${pc((mix.capturesCleared * capturePass + (mix.captures - mix.capturesCleared) * captureUncleared) / Math.max(1, mix.captures))}, ` +
        `per hook run ${pc(perRun)} of a bare Node start (differences below zero counted as 0; budget 2%: ${perRun <= 0.02 ? "met" : "not met"})\n`,
    );
    const over = variants.filter((v) => added(v.what) > 0.02).map((v) => `${v.what} ${pc(added(v.what))}`);
    process.stdout.write(`  single runs over 2%: ${over.length === 0 ? "none" : over.join("; ")}\n`);
  }
}
