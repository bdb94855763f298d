/**
 * The draws the generator needs, from core's seeded mulberry32 and Fisher-Yates shuffle (the
 * bundled evaluation corpus is generated from seed 7 with them). Same seed, same sequence,
 * on every machine; no `Math.random` anywhere in the generator.
 *
 * Example: `rng(7).int(0, 9)` is the same number on every run.
 */
import { InvariantError } from "../../../core/errors.js";
import { mulberry32 } from "../../../core/mulberry32.js";
import { shuffled } from "../../../core/shuffle.js";

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Lowercase hex digits. */
  hex(n: number): string;
  shuffle<T>(items: readonly T[]): T[];
}

export function rng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new InvariantError("EMPTY_PICK", "pick from an empty list", { expected: "at least one item", found: "none" });
      return items[int(0, items.length - 1)] as T;
    },
    hex: (n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += int(0, 15).toString(16);
      return s;
    },
    // Each step draws int(0, i) = floor(next() * (i + 1)), which is core's randomIndex(next, i + 1).
    shuffle: (items) => shuffled(items, next),
  };
}

/** A uuid-shaped id (version 4 layout) from the generator's stream. */
export function uuidFrom(r: Rng): string {
  return `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${r.pick(["8", "9", "a", "b"])}${r.hex(3)}-${r.hex(12)}`;
}
