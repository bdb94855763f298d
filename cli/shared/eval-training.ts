import { relative } from "node:path";
import { trainingOverlap, type TrainingOverlap } from "../../eval/index.js";
import { parseWeights, shippedWeightsPath } from "../../runtime/engine/index.js";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { badInput, describeFound, ErrataError } from "../../core/errors.js";
import type { Io } from "./io.js";
import { readJsonlStrict, readText, resolveFrom } from "./eval-files.js";

/**
 * The training records `eval score` holds detectors to: `--weights DETECTOR=FILE` (an
 * engine-weights/1 file whose `trainedOn` names what the detector's judge was trained on), or
 * `DETECTOR=none` for a judge trained on nothing bundled. By default the engine's detectors
 * (v3 and v4: their answers come from the engine, whose default lane is the embedded one)
 * are held to the shipped weights, so scoring the shipped engine on its own training items
 * is marked, never silent.
 *
 * Example: `--weights v4=datasets/weights/embedded.json` over AB-ReDial's 600 exchanges →
 * v4 in-sample on 498 of them.
 */
export const ENGINE_DETECTORS = ["v3", "v4"] as const;

export interface TrainingRecords {
  overlaps: Map<string, TrainingOverlap>;
  /** One line per record, for the report. */
  notes: string[];
}

export function loadTrainingRecords(
  io: Io,
  entries: readonly string[] | undefined,
  detectors: ReadonlySet<string>,
  gold: readonly { id: string }[],
  exchangeFiles: readonly string[] | undefined,
): TrainingRecords {
  const files = new Map<string, string | null>();
  for (const e of entries ?? []) {
    const m = /^([A-Za-z0-9_.:]+)=(.+)$/.exec(e);
    if (!m) throw badInput("bad --weights", "DETECTOR=FILE or DETECTOR=none", describeFound(e));
    files.set(m[1]!, m[2] === "none" ? null : resolveFrom(io, m[2]!));
  }
  const shipped = shippedWeightsPath();
  for (const d of ENGINE_DETECTORS) if (detectors.has(d) && !files.has(d) && shipped !== null) files.set(d, shipped);

  const corpusOf = new Map<string, string>();
  for (const f of exchangeFiles ?? []) for (const x of readJsonlStrict(resolveFrom(io, f), ExchangeSchema, "exchange/1")) corpusOf.set(x.id, x.corpus);
  const items = gold.map((g) => ({ id: g.id, corpus: corpusOf.get(g.id) ?? null }));

  const parsed = new Map<string, TrainingOverlap>();
  const overlaps = new Map<string, TrainingOverlap>();
  const notes: string[] = [];
  for (const [detector, file] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!detectors.has(detector)) continue;
    if (file === null) {
      notes.push(`${detector}: no training record (--weights ${detector}=none)`);
      continue;
    }
    let overlap = parsed.get(file);
    if (!overlap) {
      let weights;
      try {
        weights = parseWeights(readText(file));
      } catch (e) {
        if (e instanceof ErrataError) throw e;
        throw badInput(`${file} is not an engine weights file`, "engine-weights/1 JSON with trainedOn", describeFound(file));
      }
      const source = file === shipped ? "the shipped weights (datasets/weights/embedded.json)" : relative(io.cwd, file) || file;
      overlap = trainingOverlap(source, weights.trainedOn, items);
      parsed.set(file, overlap);
    }
    overlaps.set(detector, overlap);
    const known = Object.entries(overlap.perSet).map(([set, n]) => `${set} ${n}`).join(", ");
    const unknown = overlap.unknownSets.length
      ? `; training items unknown for ${overlap.unknownSets.join(", ")} (no itemHashes)${exchangeFiles?.length ? `: ${overlap.possiblyInSample.size} gold items are from those sets, possibly in-sample` : ": if the gold items come from those sets they may be in-sample (--exchanges tells)"}`
      : "";
    notes.push(`${detector}: trained as recorded in ${overlap.source}: ${overlap.inSample.size} of ${gold.length} gold items in its training sets${known ? ` (${known})` : ""}${unknown}`);
  }
  return { overlaps, notes };
}
