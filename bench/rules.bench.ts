/**
 * The rules wing's costs, each beside a baseline measured in the same run (tinybench):
 * - a BM25 query (`Bm25.search`, top 4) over 1,000 and 10,000 rule units against the same
 *   query through wink-bm25-text-search (the test oracle), same documents, same terms;
 * - building the rule index over every bundled real instruction file (datasets/claude-md,
 *   39 projects), against reading the same files;
 * - `coverFailures` on a synthetic rule corpus (retrieval + the offline rules model), per
 *   failure, against retrieval alone.
 * Units for the large sets are the bundled real units repeated with a suffix word per copy, so
 * term statistics stay realistic. Goal (issue): <= 1.2x the oracle and <= 2 ms at 1,000 units.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Bench } from "tinybench";
import type { Engine } from "../runtime/engine/base/types.js";
import { generateRuleScenarios } from "../runtime/corpora/synthetic/rules.js";
import { loadRuleNoulWeights } from "../runtime/jobs/rules/index.js";
import { Bm25, buildIndex, candidateRules, classText, coverFailures, discoverSources, RuleRetriever, sourcesFromTexts, termCounts, terms, unitTerms } from "../runtime/rules/index.js";

const require = createRequire(import.meta.url);
interface Wink {
  defineConfig(c: object): void;
  definePrepTasks(t: Array<(s: string) => string[]>): void;
  addDoc(d: object, id: number): void;
  consolidate(): void;
  search(q: string, limit: number): Array<[string, number]>;
}

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const claudeMd = join(repoRoot, "datasets", "claude-md");

function mean(b: Bench, i: number): number {
  return (b.tasks[i]?.result as { latency?: { mean: number } } | undefined)?.latency?.mean ?? Number.NaN;
}
function p99(b: Bench, i: number): number {
  return (b.tasks[i]?.result as { latency?: { p99?: number } } | undefined)?.latency?.p99 ?? Number.NaN;
}
const out = (s: string): boolean => process.stdout.write(`${s}\n`);

export async function run(): Promise<void> {
  const repos = readdirSync(claudeMd, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const realUnits = repos.flatMap((r) => buildIndex(discoverSources({ root: join(claudeMd, r), home: null, managed: [], extra: [] }), null, { today: "2026-12-01", projects: [] }).index.units);
  const docsOf = (n: number): string[][] => Array.from({ length: n }, (_, i) => [...unitTerms(realUnits[i % realUnits.length] as (typeof realUnits)[number]), `copy${Math.floor(i / realUnits.length)}`]);
  const queries = ["never commit directly to main", "you used npm again, I said pnpm", "run the tests before you say done", "don't mock the database", "ask before deleting files"].map(terms);
  for (const n of [1_000, 10_000]) {
    const docs = docsOf(n);
    const mine = new Bm25(docs);
    const wink = (require("wink-bm25-text-search") as () => Wink)();
    wink.defineConfig({ fldWeights: { body: 1 } });
    wink.definePrepTasks([(s: string) => s.split("\u0001")]);
    docs.forEach((d, i) => wink.addDoc({ body: d.join("\u0001") }, i));
    wink.consolidate();
    const joined = queries.map((q) => q.join("\u0001"));
    const weighted = queries.map((q) => termCounts(q));
    let k = 0;
    const bench = new Bench({ name: `bm25-${n}`, time: 1500, warmupTime: 300 });
    bench.add(`wink-bm25-text-search, top 4 (baseline)`, () => {
      wink.search(joined[k++ % joined.length] as string, 4);
    });
    bench.add(`Bm25.search, top 4`, () => {
      mine.search(weighted[k++ % weighted.length] as Map<string, number>, 4);
    });
    await bench.run();
    const w = mean(bench, 0);
    const m = mean(bench, 1);
    out(`BM25 over ${n.toLocaleString("en-US")} units: ours mean ${(m * 1000).toFixed(1)} us (p99 ${(p99(bench, 1) * 1000).toFixed(1)} us), oracle mean ${(w * 1000).toFixed(1)} us; ratio ${(m / w).toFixed(2)}x (goal <= 1.2x${n === 1000 ? `, <= 2 ms: ${m <= 2 ? "met" : "missed"}` : ""})`);
  }

  // Index build over every bundled project, against reading the same files.
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) files.push(p);
    }
  };
  walk(claudeMd);
  const build = new Bench({ name: "index", time: 2000, warmupTime: 300, iterations: 5 });
  build.add(`read the ${files.length} markdown files (baseline)`, () => {
    for (const f of files) readFileSync(f, "utf8");
  });
  build.add("rules build over the 39 projects (discover, parse, ids)", () => {
    for (const r of repos) buildIndex(discoverSources({ root: join(claudeMd, r), home: null, managed: [], extra: [] }), null, { today: "2026-12-01", projects: [] });
  });
  await build.run();
  out(`index build over datasets/claude-md (${repos.length} projects, ${realUnits.length} units): mean ${mean(build, 1).toFixed(1)} ms; reading the files alone ${mean(build, 0).toFixed(2)} ms; ratio ${(mean(build, 1) / mean(build, 0)).toFixed(0)}x`);

  // Coverage over a synthetic corpus with the offline rules model.
  const projects = generateRuleScenarios({ seed: 12, projects: 24, failuresPerProject: 14 });
  const weights = loadRuleNoulWeights(join(repoRoot, "datasets"));
  const engine: Engine = { lane: "embedded", model: "bench", stats: { calls: 0, cacheHits: 0, refused: 0 }, ask: async () => [] };
  const prepared = projects.map((p) => ({
    index: buildIndex(sourcesFromTexts(p.files), null, { today: "2026-12-01", projects: [] }).index,
    failures: p.failures.map((f, i) => ({
      exchange: { schema: "exchange/1" as const, id: `ex-${i.toString(16).padStart(16, "0")}`, corpus: "synthetic", session_id: f.session_id, turn: i, prompt: f.prompt, prompt_ts: f.date, reply_end: f.reply, reply_ts: f.date, previous_ask: null, tool_calls: f.tools, cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null },
      failureClass: f.cls,
      severity: 2,
    })),
  }));
  const nFailures = prepared.reduce((n, p) => n + p.failures.length, 0);
  const cover = new Bench({ name: "cover", time: 3000, warmupTime: 500, iterations: 3 });
  cover.add("retrieval alone, every failure (baseline)", () => {
    for (const p of prepared) {
      const r = RuleRetriever.of(p.index);
      for (const f of p.failures) candidateRules(r, { complaint: f.exchange.prompt, failureClass: classText(f.failureClass), reply: f.exchange.reply_end, tools: f.exchange.tool_calls.map((t) => t.summary) });
    }
  });
  cover.add("coverFailures with the offline rules model, every failure", async () => {
    for (const p of prepared) await coverFailures(p.index, p.failures, { engine, weights, now: () => "2026-12-01T00:00:00.000Z" }, { cut: { value: 0.5, origin: "bench" } });
  });
  await cover.run();
  const base = mean(cover, 0);
  const full = mean(cover, 1);
  out(`rules cover over ${nFailures} synthetic failures in ${prepared.length} projects (offline rules model): ${((full * 1000) / nFailures).toFixed(0)} us per failure, ${(nFailures / (full / 1000)).toFixed(0)} failures/s; retrieval alone ${((base * 1000) / nFailures).toFixed(0)} us; ratio ${(full / base).toFixed(1)}x (the features run the capture classifier on each prompt)`);
}
