import { readFileSync } from "node:fs";
import { relative, sep } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`): the longest first, so
 * the two workers do not end on one long file while the other is idle. Vitest's own order does
 * that only from its results cache (node_modules/.vite), which a fresh clone (CI) lacks; it
 * then starts the largest files first, and most of the slow files are small (one real-client
 * session, one walk of the CLI). So a file's length is, in order: its time in this machine's
 * cache, else its time in test/durations.json (a measured run, written by
 * scripts/test-durations.mjs), else 0 (quick, after the known slow ones, in vitest's order).
 * Files that failed last time still go first. The order changes when files start, never what
 * they assert.
 *
 * The files that run each in a fresh process (project "isolated", vitest.config.ts) all start
 * before the shared ones, as vitest's own order has them: a worker of the shared project is
 * reused for the next file only while the next file in line is a shared one too; when it is an
 * isolated one, vitest ends that worker, and the next shared file starts a new one and loads
 * the runtime again. Longest first over both projects had 16 such turns in line on a fresh clone
 * (docs/testing.md, "Suite time").
 */
const measured = (JSON.parse(readFileSync(new URL("../durations.json", import.meta.url), "utf8")) as { files: Record<string, number> }).files;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = new Map<TestSpecification, { shared: boolean; failed: boolean; seconds: number; at: number }>();
    base.forEach((f, at) => {
      const rel = relative(root, f.moduleId).split(sep).join("/");
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${rel}`);
      rank.set(f, { shared: f.project.config.isolate === false, failed: cached?.failed ?? false, seconds: cached ? cached.duration / 1000 : (measured[rel] ?? 0), at });
    });
    return [...base].sort((a, b) => {
      const x = rank.get(a)!;
      const y = rank.get(b)!;
      if (x.shared !== y.shared) return x.shared ? 1 : -1;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.seconds - x.seconds || x.at - y.at;
    });
  }
}
