/**
 * Reading and folding 1,000,000 ledger lines (half of them patches) against a plain
 * `JSON.parse` of the same lines, in the same run. Both read the same files from disk and
 * split them into lines; the ledger also validates every line with zod and folds patches
 * by id. Three alternating rounds; the median of each is reported.
 *
 * Run: `npx tsc -p tsconfig.json && node dist/bench/run.js ledger` (LEDGER_BENCH_LINES to resize).
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLedger } from "../runtime/store/index.js";

const reporter = { id: "rp-0123456789abcdef", role: "owner" };

function erratumLine(i: number, month: string): string {
  const day = String(1 + (i % 28)).padStart(2, "0");
  const id = `er-${month.replace("-", "")}${day}-${(i & 0xffffff).toString(16).padStart(6, "0")}`;
  return JSON.stringify({
    schema: "erratum/1",
    id,
    ts: `${month}-${day}T${String(i % 24).padStart(2, "0")}:00:00.000Z`,
    system: "assistant",
    instance: "i-0123456789ab",
    target: "instance",
    source: i % 3 === 0 ? "hook" : "owner",
    channel: i % 3 === 0 ? "hook" : "terminal",
    kind: ["complaint", "bug", "correction", "praise"][i % 4],
    rating: i % 3 === 0 ? null : (i % 10) + 1,
    frustration: i % 5 === 0 ? null : i % 4,
    complaint: `no, that's not what I asked: I wanted the tests in ${i % 97}.ts left alone, not rewritten`,
    context: {
      requested: "fix the flaky test in the parser",
      doing: "Edit: src/parser.ts\nBash: npm test",
      response_preview: "All tests pass now. I rewrote the parser tests to match the new behaviour.",
      response_hash: `sha256:${(i * 2654435761 >>> 0).toString(16).padStart(8, "0")}`,
      session_id: `s-${i % 5000}`,
      output_ids: [`o-${i}`],
      component: null,
      cwd: "/srv/example/project", // a made-up host folder
      version: "2.0.31",
      model: "claude-sonnet-4-5",
    },
    reporter,
    enrichment: null,
    status: "new",
    links: {},
  });
}

function patchLines(id: string, month: string): [string, string] {
  const ts = `${month}-28T23:00:00.000Z`;
  return [
    JSON.stringify({
      schema: "erratum-patch/1",
      id,
      ts,
      set: {
        status: "enriched",
        enrichment: {
          schema: "enrichment/1",
          how_upset: 2,
          which_part: "the rewritten tests",
          what_upset: "changed tests instead of fixing the code",
          reporter_right: true,
          reporter_right_reason: "the ask was to fix the parser",
          root_cause_hypothesis: "made the check pass instead of the code",
          class: "false-success",
          proposed_fix: "forbid editing tests when asked to fix code",
          confidence: 0.74,
          model: "gpt-5-mini",
          enrichment_version: "enrich/1",
        },
      },
    }),
    JSON.stringify({ schema: "erratum-patch/1", id, ts, set: { status: "triaged" } }),
  ];
}

/** Writes about `total` lines (half errata, half patches) over 12 months; returns the counts. */
function generate(dir: string, total: number): { lines: number; errata: number } {
  let lines = 0;
  let count = 0;
  const errata = total / 2;
  const months = Array.from({ length: 12 }, (_, m) => `2025-${String(m + 1).padStart(2, "0")}`);
  for (const [mi, month] of months.entries()) {
    const chunk: string[] = [];
    const flush = () => {
      lines += chunk.length;
      appendFileSync(join(dir, `errata-${month}.jsonl`), `${chunk.join("\n")}\n`);
      chunk.length = 0;
    };
    const ids: string[] = [];
    for (let i = mi; i < errata; i += 12) {
      const line = erratumLine(i, month);
      ids.push(JSON.parse(line).id as string);
      chunk.push(line);
      if (chunk.length >= 20_000) flush();
    }
    // Every second erratum gets two patches (enriched, then triaged): patches = errata.
    for (let k = 0; k < ids.length; k += 2) {
      chunk.push(...patchLines(ids[k]!, month));
      if (chunk.length >= 20_000) flush();
    }
    if (chunk.length > 0) flush();
    count += ids.length;
  }
  return { lines, errata: count };
}

function baseline(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".jsonl")).sort()) {
    const buf = readFileSync(join(dir, f));
    let start = 0;
    while (start < buf.length) {
      let end = buf.indexOf(0x0a, start);
      if (end === -1) end = buf.length;
      if (end > start) {
        JSON.parse(buf.toString("utf8", start, end));
        n += 1;
      }
      start = end + 1;
    }
  }
  return n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const total = Number(process.env["LEDGER_BENCH_LINES"] ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), "errata-ledger-bench-"));
  try {
    const t0 = performance.now();
    const made = generate(dir, total);
    const bytes = readdirSync(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);
    process.stdout.write(`generated ${made.lines.toLocaleString("en-US")} lines (${made.errata.toLocaleString("en-US")} errata, ${(made.lines - made.errata).toLocaleString("en-US")} patches (${(bytes / 1e6).toFixed(0)} MB, 12 months) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const ledger = openLedger(
      { ledgerDir: dir, stateDir: join(dir, ".state"), v4Dir: join(dir, "v4"), attachmentsDir: join(dir, ".att"), isDefaultLedger: false },
      { systems: new Set(["assistant"]), warn: () => {} },
    );
    const plain: number[] = [];
    const folded: number[] = [];
    const plainCpu: number[] = [];
    const foldedCpu: number[] = [];
    const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
    for (let round = 0; round < 3; round++) {
      let s = performance.now();
      let c = process.cpuUsage();
      const n = baseline(dir);
      plain.push(performance.now() - s);
      plainCpu.push(cpuMs(process.cpuUsage(c)));
      if (n !== made.lines) throw new Error(`baseline read ${n} lines, expected ${made.lines}`);
      s = performance.now();
      c = process.cpuUsage();
      const read = ledger.readAll();
      folded.push(performance.now() - s);
      foldedCpu.push(cpuMs(process.cpuUsage(c)));
      if (read.errata.length !== made.errata || read.problems.length > 0) {
        throw new Error(`ledger read ${read.errata.length} errata with ${read.problems.length} problems`);
      }
    }
    const p = median(plain);
    const f = median(folded);
    process.stdout.write(`plain JSON.parse of the same lines: ${(p / 1000).toFixed(2)} s (${((made.lines / p) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} lines/s)\n`);
    process.stdout.write(`ledger readAll (zod-validate + fold): ${(f / 1000).toFixed(2)} s (${((made.lines / f) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} lines/s)\n`);
    process.stdout.write(`ratio ledger / JSON.parse: ${(f / p).toFixed(2)}x wall (median of 3 alternating rounds)\n`);
    const pc = median(plainCpu);
    const fc = median(foldedCpu);
    process.stdout.write(`CPU time (user+system, this process; includes GC threads): JSON.parse ${(pc / 1000).toFixed(2)} s, ledger ${(fc / 1000).toFixed(2)} s, ratio ${(fc / pc).toFixed(2)}x\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
