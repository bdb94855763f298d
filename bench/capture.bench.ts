/**
 * The capture classifier's latency per prompt, in one process after warm-up, over the real
 * typed prompts of the bundled corpora (`datasets/<set>/exchanges.jsonl`, each with the reply
 * it answered) and over 1,000-character prompts built by joining a session's prompts. The
 * baseline, measured in the same run on the same prompts, is a single case-insensitive regex
 * test of frustration words (the shape of the Claude Code regex in ANCHORS.md section 1).
 * Each call is timed on its own (hrtime); a prompt's latency is the fastest of 5 rounds, and
 * the figures are the mean and the 99th percentile of those over the prompts.
 *
 * Warm-up: the settled figures are those of a process that has run long enough for V8 to
 * optimize the classifier (as `errata mine` or the daily run does after its first prompts):
 * whole passes over the prompts for at least WARM_MS and WARM_MIN_PASSES passes before the
 * timed rounds. The figures after EARLY_PASSES passes are printed too. A hook process
 * classifies one prompt cold: that cost is in the hook's own benchmark (hook.bench.ts), as a
 * whole process.
 *
 * Run: `npx tsc -p tsconfig.json && node dist/bench/run.js capture.bench`
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { classify } from "../runtime/classifier/classify.js";

interface Prompt {
  text: string;
  reply: string | null;
}

const BASELINE = /\b(?:wtf|ffs|fuck(?:ing)?|shit|damn|this sucks|so frustrating|horrible|awful|terrible|useless)\b/i;
const ROUNDS = 5;

function loadPrompts(repoRoot: string): { short: Prompt[]; long: Prompt[] } {
  const dir = join(repoRoot, "datasets");
  const short: Prompt[] = [];
  const bySession = new Map<string, string[]>();
  for (const set of readdirSync(dir)) {
    const file = join(dir, set, "exchanges.jsonl");
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { prompt: string; reply_end: string | null; session_id: string };
      short.push({ text: e.prompt, reply: e.reply_end });
      const list = bySession.get(e.session_id) ?? [];
      list.push(e.prompt);
      bySession.set(e.session_id, list);
    }
  }
  const long: Prompt[] = [];
  let pool = "";
  for (const prompts of bySession.values()) {
    pool += ` ${prompts.join(" ")}`;
    while (pool.length >= 1000) {
      long.push({ text: pool.slice(0, 1000), reply: short[long.length % short.length]?.reply ?? null });
      pool = pool.slice(1000);
    }
  }
  return { short, long };
}

/** Warm-up before the settled figures: at least this long and this many passes over the prompts. */
const WARM_MS = 1500;
const WARM_MIN_PASSES = 10;
/** The early figures: timed after this many passes. */
const EARLY_PASSES = 3;

interface Stats {
  meanUs: number;
  p99Us: number;
  n: number;
}

/**
 * Per prompt, the fastest of ROUNDS timed calls (the call's own cost, without the pre-emptions
 * a shared machine adds: one of those in 1% of calls would be the p99), then the mean and
 * p99 of those over the prompts.
 */
function timeRounds(prompts: Prompt[], fn: (p: Prompt) => unknown): Stats {
  const best = new Float64Array(prompts.length).fill(Infinity);
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    prompts.forEach((p, k) => {
      const t0 = process.hrtime.bigint();
      const out = fn(p);
      const us = Number(process.hrtime.bigint() - t0) / 1000;
      if (us < (best[k] ?? Infinity)) best[k] = us;
      if (out) sink++;
    });
  }
  if (sink < 0) process.stdout.write(""); // keep results alive
  const sorted = [...best].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { meanUs: mean, p99Us: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN, n: prompts.length };
}

/** The figures after EARLY_PASSES passes, then after the warm-up (see the header); and the passes made. */
function timeEach(prompts: Prompt[], fn: (p: Prompt) => unknown): { early: Stats; settled: Stats; passes: number } {
  for (let i = 0; i < EARLY_PASSES; i++) for (const p of prompts) fn(p);
  const early = timeRounds(prompts, fn);
  let passes = EARLY_PASSES + ROUNDS;
  const start = Date.now();
  while (passes < WARM_MIN_PASSES + EARLY_PASSES + ROUNDS || Date.now() - start < WARM_MS) {
    for (const p of prompts) fn(p);
    passes++;
  }
  return { early, settled: timeRounds(prompts, fn), passes };
}

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const { short, long } = loadPrompts(repoRoot);
  const fmt = (x: number): string => x.toFixed(2);
  // An empty-timer pass measures what hrtime itself adds to every figure.
  const timer = timeRounds(short, () => 0);
  process.stdout.write(`timer overhead per call: mean ${fmt(timer.meanUs)} us (included in every figure below)\n`);
  process.stdout.write(`settled: after at least ${WARM_MIN_PASSES} warm-up passes and ${WARM_MS} ms; early: after ${EARLY_PASSES} passes\n`);
  for (const [name, prompts] of [
    ["bundled typed prompts", short],
    ["1,000-character prompts", long],
  ] as const) {
    const c = timeEach(prompts, (p) => classify(p.text, { previousReply: p.reply }));
    const b = timeEach(prompts, (p) => BASELINE.test(p.text));
    const s = c.settled;
    process.stdout.write(
      `${name} (${s.n}): classify mean ${fmt(s.meanUs)} us, p99 ${fmt(s.p99Us)} us | single regex mean ${fmt(b.settled.meanUs)} us, p99 ${fmt(b.settled.p99Us)} us | ratio mean ${fmt(s.meanUs / b.settled.meanUs)}x, p99 ${fmt(s.p99Us / b.settled.p99Us)}x (settled, ${c.passes} passes)\n` +
        `  after ${EARLY_PASSES} passes: classify mean ${fmt(c.early.meanUs)} us, p99 ${fmt(c.early.p99Us)} us | single regex mean ${fmt(b.early.meanUs)} us, p99 ${fmt(b.early.p99Us)} us\n`,
    );
  }
}
