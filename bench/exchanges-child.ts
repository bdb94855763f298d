/**
 * One measurement of bench/exchanges in its own process (so peak RSS is its own):
 * `node exchanges-child.js <mode> <root> <scratch>`, mode one of readline (node:readline,
 * lines only), readlines (the reader's own splitter, lines only), parse (readline +
 * JSON.parse), exchanges (`errata exchanges` over the root: --full, writing to scratch).
 * Prints one JSON line: {mode, wall_ms, bytes, lines, max_rss_mb, ...}.
 */
import { createReadStream, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { discoverTranscripts } from "../runtime/transcripts/discover.js";
import { readLines } from "../runtime/files/index.js";
import { sweepExchanges } from "../runtime/transcripts/sweep.js";

const [mode, root, scratch] = process.argv.slice(2) as [string, string, string];
const files = discoverTranscripts(root);
const t0 = performance.now();
let lines = 0;
let bytes = 0;
let extra: Record<string, unknown> = {};
if (mode === "readline" || mode === "parse") {
  for (const f of files) {
    bytes += statSync(f.path).size;
    const rl = createInterface({ input: createReadStream(f.path), crlfDelay: Infinity });
    for await (const line of rl) {
      lines++;
      if (mode === "parse") {
        try {
          JSON.parse(line);
        } catch {
          // broken lines are part of the data
        }
      }
    }
  }
} else if (mode === "readlines") {
  for (const f of files) {
    bytes += statSync(f.path).size;
    for await (const _ of readLines(f.path)) lines++;
  }
} else if (mode === "exchanges") {
  const report = await sweepExchanges({ root, v4Dir: join(scratch, `v4-${process.pid}`), stateDir: join(scratch, `state-${process.pid}`), full: true });
  bytes = report.bytesRead;
  lines = report.lines;
  extra = { exchanges: report.newExchanges, broken: report.brokenLines, files: report.files };
} else if (mode !== "idle") {
  throw new Error(`unknown mode ${mode}`);
}
const wall = performance.now() - t0;
// Retained heap after a full collection (run with --expose-gc): what the pass kept, not what it churned.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const retainedMb = process.memoryUsage().heapUsed / 1e6;
process.stdout.write(`${JSON.stringify({ mode, wall_ms: wall, bytes, lines, max_rss_mb: process.resourceUsage().maxRSS / 1024, retained_heap_mb: retainedMb, ...extra })}\n`);
