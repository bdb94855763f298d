import { EvalInputError } from "./errors.js";
import { fnv1a32Utf16 } from "../core/fnv1a.js";

/**
 * Inclusion probabilities by Monte Carlo over a seeded sampler: run it `replicates` times
 * with seeds derived from `seed`, and estimate each item's probability as the share of runs
 * that drew it, with its binomial standard error sqrt(p (1 - p) / R). For samplers whose
 * probabilities have no closed form, and as a check on exact ones (`sampleGold`'s are
 * exact; the tests compare the two).
 *
 * Example: 2,000 replicates of a sampler that draws 1 of 4 items → each estimate near 0.25
 * with standard error about 0.0097.
 */
export interface MonteCarloInclusion {
  replicates: number;
  seed: number;
  /** Per item id: share of runs that drew it and its standard error. */
  estimates: Map<string, { estimate: number; standardError: number }>;
}

/** Seed of replicate r, derived from the base seed (distinct streams per replicate). */
export const replicateSeed = (seed: number, r: number): number => fnv1a32Utf16(`${seed}:${r}`);

export function inclusionMonteCarlo(
  ids: readonly string[],
  draw: (seed: number) => readonly string[],
  opts: { replicates: number; seed: number },
): MonteCarloInclusion {
  if (!Number.isInteger(opts.replicates) || opts.replicates < 1) {
    throw new EvalInputError("BAD_OPTION", "Monte Carlo replicates", "a positive integer", String(opts.replicates));
  }
  const hits = new Map<string, number>(ids.map((id) => [id, 0]));
  for (let r = 0; r < opts.replicates; r++) {
    for (const id of draw(replicateSeed(opts.seed, r))) {
      const h = hits.get(id);
      if (h === undefined) throw new EvalInputError("BAD_VALUE", "the sampler drew an unknown item", "one of the given ids", id);
      hits.set(id, h + 1);
    }
  }
  const R = opts.replicates;
  const estimates = new Map<string, { estimate: number; standardError: number }>();
  for (const [id, h] of hits) {
    const p = h / R;
    estimates.set(id, { estimate: p, standardError: Math.sqrt((p * (1 - p)) / R) });
  }
  return { replicates: R, seed: opts.seed, estimates };
}
