import type { BlockStatistic } from "./session-block-bootstrap.js";

/**
 * Several statistics over the same items as one, so one bootstrap run resamples them all
 * together (paired) and each replicate is drawn once. Figure names get the part's prefix.
 *
 * Example: `combineStatistics([["fleiss", fleissStat], ["alpha", alphaStat]]).names`
 * → ["fleiss.kappa", "fleiss.po", "fleiss.pe", "alpha.alpha"].
 */
export function combineStatistics(parts: readonly (readonly [string, BlockStatistic])[]): BlockStatistic {
  const items = parts[0]?.[1].items ?? 0;
  const offsets: number[] = [];
  let width = 0;
  for (const [, s] of parts) {
    offsets.push(width);
    width += s.width;
  }
  const scratch = parts.map(([, s]) => new Float64Array(s.width));
  return {
    names: parts.flatMap(([prefix, s]) => s.names.map((n) => `${prefix}.${n}`)),
    width,
    items,
    addItem(i, w, acc) {
      parts.forEach(([, s], p) => {
        const buf = scratch[p] as Float64Array;
        buf.fill(0);
        s.addItem(i, w, buf);
        const off = offsets[p]!;
        for (let j = 0; j < buf.length; j++) acc[off + j] = (acc[off + j]!) + (buf[j]!);
      });
    },
    finish(sums) {
      return parts.flatMap(([, s], p) => s.finish(sums.subarray(offsets[p]!, (offsets[p]!) + s.width)));
    },
  };
}
