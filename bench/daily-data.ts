/**
 * Generates the daily benchmark's inputs into a folder, seeded (mulberry32), with no
 * network: a ledger of N errata spread over a year (most enriched and triaged through
 * patch lines, the newest still new), the host's outputs and receipts, and a year of
 * synthetic Claude Code sessions from helper C's generator (`runtime/corpora/synthetic`).
 *
 * Example: `generateDailyBench({dir, entries: 100_000, days: 365, sessionsPerDay: 3, seed: 7, nowMs})`
 * -> `{ledgerLines: 218_332, transcriptFiles: 1095, prompts: ~8,900 typed, outputs: 36_500}`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { generateCorpus } from "../runtime/corpora/synthetic/index.js";

import { mulberry32 } from "../eval/prng.js";
export { mulberry32 };

export interface BenchData {
  ledgerDir: string;
  hostDir: string;
  transcriptsDir: string;
  ledgerLines: number;
  transcriptFiles: number;
  prompts: number;
  outputs: number;
}

const COMPLAINTS = [
  "no, that's wrong, the test still fails",
  "you pushed to main without asking",
  "that is not what I asked for",
  "I already told you to use pnpm",
  "still broken after your fix",
  "stop adding comments everywhere",
  "why did you delete the migration?",
  "great, thanks, that works",
  "answer in Finnish please, like I said",
  "you said it passes but it does not",
];
const CLASSES = ["ignored_instruction", "false_success", "incomplete_work", "risky_action", "broke_standing_rule", "incorrect_output"];
const SKILLS = ["release-notes", "deploy", "review", "docs", "tests"];
const DAY = 86_400_000;

function hex(rand: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)] as T;
}

export async function generateDailyBench(opts: { dir: string; entries: number; days: number; sessionsPerDay: number; seed: number; nowMs: number; freshNew?: number }): Promise<BenchData> {
  const rand = mulberry32(opts.seed);
  const ledgerDir = join(opts.dir, "ledger");
  const hostDir = join(opts.dir, "host");
  const transcriptsDir = join(opts.dir, "projects");
  mkdirSync(ledgerDir, { recursive: true });
  mkdirSync(hostDir, { recursive: true });
  mkdirSync(transcriptsDir, { recursive: true });
  const start = opts.nowMs - opts.days * DAY;

  // Host outputs: 10 a day per skill-ish, receipts for 80% of them.
  const outputs: string[] = [];
  const receipts: string[] = [];
  const outputIds: string[] = [];
  for (let d = 0; d < opts.days; d++) {
    for (let k = 0; k < 100; k++) {
      const id = `out-${d}-${k}`;
      const ts = new Date(start + d * DAY + k * 600_000).toISOString();
      outputIds.push(id);
      outputs.push(JSON.stringify({ schema: "output/1", id, ts, session_id: `s-${d}-${k % 3}`, skill: pick(rand, SKILLS), model: rand() < 0.5 ? "model-a" : "model-b" }));
      if (rand() < 0.8) receipts.push(JSON.stringify({ schema: "receipt/1", id: `rc-${id}`, ts, output_id: id, passed: rand() < 0.9, checks: [] }));
    }
  }
  writeFileSync(join(hostDir, "outputs.jsonl"), `${outputs.join("\n")}\n`);
  writeFileSync(join(hostDir, "receipts.jsonl"), `${receipts.join("\n")}\n`);

  // The ledger, by month file, in time order.
  const byMonth = new Map<string, string[]>();
  const push = (ts: string, line: string): void => {
    const m = ts.slice(0, 7);
    let l = byMonth.get(m);
    if (!l) byMonth.set(m, (l = []));
    l.push(line);
  };
  const fresh = opts.freshNew ?? 300;
  let ledgerLines = 0;
  for (let i = 0; i < opts.entries; i++) {
    const tsMs = start + Math.floor(((i + 0.5) / opts.entries) * opts.days * DAY);
    const ts = new Date(tsMs).toISOString();
    const id = `er-${ts.slice(0, 10).replaceAll("-", "")}-${hex(rand, 6)}`;
    const r = rand();
    const source = r < 0.5 ? "hook" : r < 0.7 ? "owner" : r < 0.85 ? "backfill" : r < 0.95 ? "detected" : "customer";
    const k = rand();
    const kind = k < 0.5 ? "complaint" : k < 0.75 ? "correction" : k < 0.85 ? "bug" : k < 0.95 ? "praise" : "question";
    const cited = rand() < 0.3 ? [pick(rand, outputIds)] : rand() < 0.1 ? [pick(rand, outputIds), pick(rand, outputIds)] : [];
    const erratum = {
      schema: "erratum/1",
      id,
      ts,
      system: "assistant",
      instance: source === "customer" ? "tenant:acme" : "i-000000000001",
      target: "instance",
      source,
      channel: source === "hook" ? "hook" : "terminal",
      kind,
      rating: null,
      frustration: source === "owner" ? null : Math.floor(rand() * 4),
      complaint: `${pick(rand, COMPLAINTS)} (#${i})`,
      context: { requested: "please fix the failing test", doing: "Bash: npm test\nEdit: src/app.ts", response_preview: "All tests pass now.", response_hash: null, session_id: `s-${i % 5000}`, output_ids: cited, component: null, cwd: null, version: "2.0.31", model: rand() < 0.5 ? "model-a" : "model-b" },
      reporter: { id: "rp-0123456789abcdef", role: source === "owner" ? "owner" : source },
      enrichment: null,
      status: "new",
      links: {},
    };
    push(ts, JSON.stringify(erratum));
    ledgerLines++;
    const pipeline = source !== "backfill" && source !== "detected" && source !== "customer" && ["complaint", "correction", "bug"].includes(kind);
    if (i < opts.entries - fresh && pipeline) {
      const pts = new Date(tsMs + 3_600_000).toISOString();
      const enrichment = { schema: "enrichment/1", how_upset: Math.floor(rand() * 4), which_part: "the reply", what_upset: "it was wrong", reporter_right: true, reporter_right_reason: "", root_cause_hypothesis: "", class: pick(rand, CLASSES), proposed_fix: "", confidence: 0.7, model: "bench-model", enrichment_version: "enrich-daily/1" };
      push(pts, JSON.stringify({ schema: "erratum-patch/1", id, ts: pts, set: { status: "enriched", enrichment } }));
      push(pts, JSON.stringify({ schema: "erratum-patch/1", id, ts: new Date(tsMs + 7_200_000).toISOString(), set: { status: "triaged" } }));
      ledgerLines += 2;
    }
  }
  for (const [month, lines] of byMonth) writeFileSync(join(ledgerDir, `errata-${month}.jsonl`), `${lines.join("\n")}\n`);

  // A year of transcripts from helper C's seeded generator (Claude Code's format, planted
  // failures of every mode, the noise real transcripts have): sessionsPerDay x days sessions.
  const corpus = generateCorpus(opts.seed, opts.sessionsPerDay * opts.days);
  let prompts = 0;
  for (const sess of corpus) {
    const path = join(transcriptsDir, sess.rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, sess.lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    prompts += sess.truth.size;
  }
  const files = corpus.length;
  return { ledgerDir, hostDir, transcriptsDir, ledgerLines, transcriptFiles: files, prompts, outputs: outputIds.length };
}
