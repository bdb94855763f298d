import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { InvariantError } from "../../../core/errors.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import { MODE_IDS } from "../../../questions/index.js";
import type { ImportResult } from "../rows/rows.js";
import { label } from "../rows/rows.js";
import { scanTranscript } from "../../transcripts/index.js";
import { rng } from "./prng.js";
import { assignModes, generateSession, plantedMode, type GeneratedSession } from "./session.js";
import { plannedLabels } from "./truth.js";

export interface SyntheticOptions {
  seed: number;
  sessions: number;
  /** Where to write the Claude Code sessions (`<dir>/<project>/<session>.jsonl`); null: a temporary folder. */
  transcriptsDir: string | null;
}

export const SYNTHETIC_CORPUS = "synthetic";
export const SYNTHETIC_LABELER = "synthetic:plan";
/** Generated sessions start here, one every three hours (fixed: the output depends on the seed only). */
export const SYNTHETIC_EPOCH_MS = Date.parse("2026-03-02T09:00:00.000Z");

/** The sessions of a seeded corpus, in memory. */
export function generateCorpus(seed: number, sessions: number): GeneratedSession[] {
  const r = rng(seed);
  const modes = assignModes(r, sessions);
  return modes.map((m, i) => generateSession(r, i, m, SYNTHETIC_EPOCH_MS + i * 3 * 3600_000));
}

/**
 * `errata import synthetic`: a seeded corpus of coding-assistant sessions in Claude Code's
 * JSONL format with planted failures of every v4 mode. The sessions are written (or put in a
 * temporary folder) and read back with the same reader as real transcripts, so the exchanges
 * are exactly what `errata exchanges` would make of them; every one is `synthetic: true`
 * (corpus "synthetic"). Labels, from the generator's plan (labeller "synthetic:plan"),
 * complete so that models can be trained and measured on them: every exchange gets a yes or
 * a no for each of the 26 bank questions (`detect.unhappy` true for the owner's reaction to a
 * planted failure; `mode.<id>` true for the planted mode and false for the other 14, all
 * false on an exchange with nothing planted; detect, blame and cost per the planted scenario)
 * and every planted failure gets the 14 v3 `class.<id>` questions (true for the planted
 * mode's class). See `truth.ts`.
 *
 * Example: seed 7, 60 sessions → every one of the 15 modes planted at least once, 26 labels
 * per exchange plus 14 per planted failure; the same seed gives byte-identical files.
 */
export async function importSynthetic(opts: SyntheticOptions): Promise<ImportResult> {
  const corpus = generateCorpus(opts.seed, opts.sessions);
  const dir = opts.transcriptsDir ?? mkdtempSync(join(tmpdir(), "errata-synthetic-"));
  try {
    const exchanges: Exchange[] = [];
    const labels: Label[] = [];
    const planted = new Map<string, number>();
    const outside = new Map<string, number>();
    let rewound = 0;
    // In path order, the order in which `errata exchanges` finds the files.
    const byPath = [...corpus].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    for (const s of byPath) {
      const path = join(dir, s.rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, s.lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
      const scan = await scanTranscript(path, { sourceName: s.rel });
      rewound += scan.stats.rewoundPrompts;
      scan.exchanges.forEach((ex, i) => {
        const uuid = scan.prompts[i]?.uuid ?? null;
        const t = uuid === null ? undefined : s.truth.get(uuid);
        if (t === undefined) throw new InvariantError("SYNTHETIC_NO_PLAN", `synthetic prompt ${ex.source_ref} has no plan`);
        exchanges.push(ex);
        for (const [q, v] of plannedLabels(t)) labels.push(label(ex.id, SYNTHETIC_LABELER, q, v, "import:synthetic"));
        const mode = plantedMode(t);
        if (mode !== null) planted.set(mode, (planted.get(mode) ?? 0) + 1);
        if (t.kind === "world" || t.kind === "host" || t.kind === "change_of_mind") outside.set(t.kind, (outside.get(t.kind) ?? 0) + 1);
      });
    }
    const stats: Record<string, number> = {
      seed: opts.seed,
      sessions: corpus.length,
      transcriptLines: corpus.reduce((n, s) => n + s.lines.length, 0),
      exchanges: exchanges.length,
      labels: labels.length,
      plantedFailures: [...planted.values()].reduce((a, b) => a + b, 0),
      modesPlanted: planted.size,
      worldTrouble: outside.get("world") ?? 0,
      hostTrouble: outside.get("host") ?? 0,
      changesOfMind: outside.get("change_of_mind") ?? 0,
      rewoundPrompts: rewound,
      compactions: corpus.filter((s) => s.features.includes("compaction")).length,
      rewinds: corpus.filter((s) => s.features.includes("rewind")).length,
      queuedPrompts: corpus.filter((s) => s.features.includes("queued")).length,
    };
    for (const m of MODE_IDS) stats[`planted.${m}`] = planted.get(m) ?? 0;
    return { corpus: SYNTHETIC_CORPUS, exchanges, labels, stats, notes: [] };
  } finally {
    if (opts.transcriptsDir === null) rmSync(dir, { recursive: true, force: true });
  }
}
