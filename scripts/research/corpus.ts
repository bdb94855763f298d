// Step 1 of the research loop: corpus -> exchanges (+ the importers' labels).
//
// - AB-ReDial: the bundled converted set (datasets/ab-redial); when the raw CSV is in the
//   shared datasets folder, `errata import ab-redial` is run too and must give the same rows.
// - synthetic: `errata import synthetic --seed 7 --sessions N --transcripts` writes Claude
//   Code JSONL sessions and the generator's plan; `errata exchanges --root <transcripts>`
//   then reads those transcripts as it would ~/.claude/projects, and must find exactly the
//   importer's exchanges. With N = 60 the result is the bundled datasets/synthetic set.
//
// Example: prepareCorpora(...) -> { exchanges: [...], labels: [...],
//   corpora: { "ab-redial": { exchanges: 600, sessions: 200, labels: 3838, ... }, synthetic: {...} } }
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ErrataError } from "../../core/errors.js";
import { ExchangeSchema, type Exchange } from "../../schemas/exchange.js";
import { LabelSchema, type Label } from "../../schemas/label.js";
import { type CliRunner, StepError } from "./cli.js";
import { readJsonl } from "./jsonl.js";
import type { ExchangesReply, ImportReply } from "./replies.js";
import type { CorpusSummary, ResearchOptions } from "./summary.js";

/** Corpora this loop can run on, and why the other bundled sets are left out. */
export const KNOWN_CORPORA = ["ab-redial", "synthetic"] as const;
export const LEFT_OUT: Record<string, string> = {
  dbdc3: "labels the breakdown (O/T/X) of the system turn, not whether the person is unhappy with it: a different question from detect.unhappy; mapping one onto the other would score judges against a proxy",
  conture: "one aggregated label per turn (conture:majority): no three labellers, and it rates the chatbot turn (like/dislike), not the person's reaction",
  ukp: "one annotation per flagged turn (error type, user-response type): no three labellers and no unflagged turns to measure detection on",
  spotter: "real Claude Code exchanges (4) without labels",
};

/** Exchanges and labels of one or more corpora. */
export interface CorpusRows {
  exchanges: Exchange[];
  labels: Label[];
}

function sameIds(a: readonly Exchange[], b: readonly Exchange[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a.map((r) => r.id));
  return b.every((r) => s.has(r.id));
}

function sameLines(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a.map((r) => JSON.stringify(r)));
  return b.every((r) => s.has(JSON.stringify(r)));
}

/** The first `n` sessions of a corpus, in the order the file first names them (0: all). */
function firstSessions(exchanges: Exchange[], n: number): Exchange[] {
  if (!n) return exchanges;
  const keep = new Set<string>();
  for (const e of exchanges) {
    if (keep.size >= n) break;
    keep.add(e.session_id);
  }
  return exchanges.filter((e) => keep.has(e.session_id));
}

export async function prepareCorpora({ cliFor, opts, repoRoot, work, sharedDatasets, log }: {
  cliFor: (corpus: string) => CliRunner;
  opts: Pick<ResearchOptions, "corpora" | "sessions" | "syntheticSeed" | "syntheticSessions">;
  repoRoot: string;
  work: string;
  sharedDatasets: string;
  log: (line: string) => void;
}): Promise<CorpusRows & { corpora: Record<string, CorpusSummary> }> {
  const corpora: Record<string, CorpusSummary> = {};
  const allEx: Exchange[] = [];
  const allLabels: Label[] = [];
  for (const name of opts.corpora) {
    let exchanges: Exchange[];
    let labels: Label[];
    let source: string;
    const notes: string[] = [];
    if (name === "ab-redial") {
      const dir = join(repoRoot, "datasets", "ab-redial");
      exchanges = readJsonl(join(dir, "exchanges.jsonl"), ExchangeSchema);
      labels = readJsonl(join(dir, "labels.jsonl"), LabelSchema);
      source = "datasets/ab-redial (bundled, converted by `errata import ab-redial`)";
      const csv = join(sharedDatasets, "ab-redial", "annotated_turns.csv");
      if (existsSync(csv)) {
        const out = join(work, "ab-redial");
        const r = await cliFor(name).json<ImportReply>(["import", "ab-redial", csv, "--out", out, "--json"]);
        const same = sameLines(readJsonl(join(out, "exchanges.jsonl"), ExchangeSchema), exchanges) && sameLines(readJsonl(join(out, "labels.jsonl"), LabelSchema), labels);
        if (!same) throw new StepError("INCONSISTENT", "`errata import ab-redial` on the raw CSV does not reproduce datasets/ab-redial: the bundled set is stale");
        notes.push(`re-imported from the raw CSV: ${r.value.exchanges} exchanges, ${r.value.labels} labels, identical to the bundled set`);
      } else notes.push("raw CSV not present here: using the bundled conversion as it is");
    } else if (name === "synthetic") {
      const out = join(work, "synthetic");
      const cli = cliFor(name);
      const r = await cli.json<ImportReply>(["import", "synthetic", "--seed", String(opts.syntheticSeed), "--sessions", String(opts.syntheticSessions), "--transcripts", "--out", out, "--json"]);
      labels = readJsonl(join(out, "labels.jsonl"), LabelSchema);
      const imported = readJsonl(join(out, "exchanges.jsonl"), ExchangeSchema);
      const ex = await cli.json<ExchangesReply>(["exchanges", "--root", join(out, "transcripts"), "--json"]);
      exchanges = readJsonl(ex.value.out, ExchangeSchema).filter((e) => e.corpus === "synthetic");
      if (!sameIds(exchanges, imported)) throw new StepError("INCONSISTENT", `\`errata exchanges\` found ${exchanges.length} exchanges in the synthetic transcripts, the importer wrote ${imported.length}: they must be the same`);
      notes.push(`${r.value.stats["planted_failures"] ?? "?"} planted failures over ${opts.syntheticSessions} sessions (seed ${opts.syntheticSeed}); \`errata exchanges\` read ${ex.value.files} transcripts (${ex.value.lines} lines, ${ex.value.typed_prompts} typed prompts) and found exactly the importer's ${imported.length} exchanges`);
      if (opts.syntheticSeed === 7 && opts.syntheticSessions === 60) {
        const b = join(repoRoot, "datasets", "synthetic");
        const same = sameLines(readJsonl(join(b, "exchanges.jsonl"), ExchangeSchema), exchanges) && sameLines(readJsonl(join(b, "labels.jsonl"), LabelSchema), labels);
        notes.push(same ? "identical to the bundled datasets/synthetic" : "DIFFERS from the bundled datasets/synthetic (the generator changed since it was bundled)");
      }
      source = `generated: errata import synthetic --seed ${opts.syntheticSeed} --sessions ${opts.syntheticSessions} (SYNTHETIC: planted failures)`;
    } else {
      throw new ErrataError("BAD_INPUT", `unknown corpus ${name}: this loop runs on ${KNOWN_CORPORA.join(", ")} (left out: ${Object.keys(LEFT_OUT).join(", ")})`, { expected: KNOWN_CORPORA.join(" or "), found: JSON.stringify(name) });
    }
    const kept = firstSessions(exchanges, opts.sessions);
    const keptIds = new Set(kept.map((e) => e.id));
    const keptLabels = labels.filter((l) => keptIds.has(l.exchange_id));
    const sessions = new Set(kept.map((e) => e.session_id)).size;
    const summary: CorpusSummary = { exchanges: kept.length, sessions, labels: keptLabels.length, labelers: [...new Set(keptLabels.map((l) => l.labeler))].sort(), source, notes, ...(opts.sessions ? { subset: `first ${opts.sessions} sessions` } : {}) };
    corpora[name] = summary;
    allEx.push(...kept);
    allLabels.push(...keptLabels);
    log(`  ${name}: ${kept.length} exchanges in ${sessions} sessions, ${keptLabels.length} importer labels (${summary.labelers.join(", ")})${opts.sessions ? `, first ${opts.sessions} sessions only` : ""}`);
    for (const n of notes) log(`    ${n}`);
  }
  for (const [name, why] of Object.entries(LEFT_OUT)) log(`  left out: ${name}: ${why}`);
  return { exchanges: allEx, labels: allLabels, corpora };
}
