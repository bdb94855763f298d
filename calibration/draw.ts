import { mulberry32 } from "../core/mulberry32.js";
import { shuffled } from "../core/shuffle.js";
import { CalibrationError } from "./errors.js";

/**
 * The calibration draw for any yes/no question: items stratified into equal-width bands of
 * the judge's P(yes) (so a cut can be learnt anywhere in [0, 1], not only where the judge is
 * usually), at most `perSession` items from one session, seeded. Inclusion probabilities are
 * estimated by re-running the same sampler `replicates` times with derived seeds (the design
 * is too tangled by the session cap for a closed form): π = (times drawn + 1) / (replicates +
 * 1), counting the real draw, so a drawn item never gets π = 0. Weights 1/π give Hajek ratios.
 *
 * Example: 1,000 items, n = 100, 5 bands, perSession 2, seed 1 → 20 items a band when every
 * band has enough sessions; an item from a band of 50 gets π ≈ 0.4.
 */
export interface DrawableItem {
  item_id: string;
  session_id: string;
  p_yes: number;
}

export interface DrawOptions {
  n: number;
  bands?: number;
  perSession?: number;
  seed: number;
  replicates?: number;
}

export interface DrawnItem<T extends DrawableItem> {
  item: T;
  band: number;
  inclusion_probability: number;
}

export function bandOf(p: number, bands: number): number {
  return Math.min(bands - 1, Math.floor(p * bands));
}

function drawOnce<T extends DrawableItem>(byBand: readonly T[][], n: number, perSession: number, seed: number): T[] {
  const random = mulberry32(seed);
  const queues = byBand.map((items) => shuffled(items, random));
  const perSessionCount = new Map<string, number>();
  const chosen: T[] = [];
  const cursor = queues.map(() => 0);
  const take = (b: number): boolean => {
    const q = queues[b]!;
    while (cursor[b]! < q.length) {
      const item = q[cursor[b]!]!;
      cursor[b] = cursor[b]! + 1;
      const c = perSessionCount.get(item.session_id) ?? 0;
      if (c >= perSession) continue;
      perSessionCount.set(item.session_id, c + 1);
      chosen.push(item);
      return true;
    }
    return false;
  };
  // Round-robin over bands: equal shares while bands last, the rest from bands with surplus.
  let progress = true;
  while (chosen.length < n && progress) {
    progress = false;
    for (let b = 0; b < queues.length && chosen.length < n; b++) if (take(b)) progress = true;
  }
  return chosen;
}

export function drawForCalibration<T extends DrawableItem>(items: readonly T[], options: DrawOptions): DrawnItem<T>[] {
  const bands = options.bands ?? 5;
  const perSession = options.perSession ?? 2;
  const replicates = options.replicates ?? 200;
  if (!Number.isInteger(options.n) || options.n < 1) throw new CalibrationError("BAD_OPTION", "draw", "n >= 1", String(options.n));
  if (!Number.isInteger(bands) || bands < 1) throw new CalibrationError("BAD_OPTION", "draw", "bands >= 1", String(bands));
  if (!Number.isInteger(perSession) || perSession < 1) throw new CalibrationError("BAD_OPTION", "draw", "perSession >= 1", String(perSession));
  const seen = new Set<string>();
  const byBand: T[][] = Array.from({ length: bands }, () => []);
  for (const item of items) {
    if (seen.has(item.item_id)) throw new CalibrationError("BAD_VALUE", "draw", "unique item ids", `${item.item_id} twice`);
    seen.add(item.item_id);
    if (!(item.p_yes >= 0 && item.p_yes <= 1)) throw new CalibrationError("BAD_VALUE", "draw", "p_yes in [0, 1]", `${item.p_yes} for ${item.item_id}`);
    byBand[bandOf(item.p_yes, bands)]!.push(item);
  }
  const drawn = drawOnce(byBand, options.n, perSession, options.seed);
  const counts = new Map<string, number>(drawn.map((d) => [d.item_id, 1]));
  for (let r = 1; r <= replicates; r++) {
    for (const d of drawOnce(byBand, options.n, perSession, (options.seed + r * 0x9e3779b1) >>> 0)) {
      if (counts.has(d.item_id)) counts.set(d.item_id, counts.get(d.item_id)! + 1);
    }
  }
  return drawn.map((item) => ({
    item,
    band: bandOf(item.p_yes, bands),
    inclusion_probability: Math.min(1, counts.get(item.item_id)! / (replicates + 1)),
  }));
}
