import { trainingItemHash } from "../core/training-item.js";

/**
 * Which gold items a detector has already seen: its weights' training record
 * (`trainedOn[]`: set name and, where recorded, `itemHashes`) against the items to score.
 *
 * An item is in-sample when `trainingItemHash(set, item id)` is in a set's `itemHashes` (the
 * set's name is the corpus hashed, so the record needs no corpus per item), or, when the
 * caller knows the item's corpus, `trainingItemHash(corpus, item id)` is (a trainer may hash
 * the exchanges' own corpus, e.g. "synthetic" for the set "synthetic-seed-101"). A set recorded
 * without `itemHashes` (an older weights file) cannot be checked item by item: its items are
 * "training items unknown", and when the caller knows an item's corpus and it is that set,
 * the item is possibly in-sample.
 *
 * Example: the shipped weights (`ab-redial` trained on 498 of its 600 exchanges, hashes
 * recorded) over a gold set of all 600 → `{inSample: 498 ids, unknownSets: ["synthetic-seed-101",
 * "ukp"], possiblyInSample: 0 ids}` (no item's corpus is one of the unknown sets).
 */
export interface TrainingRecordSet {
  set: string;
  items: number;
  itemHashes?: readonly string[] | undefined;
}

export interface TrainingOverlap {
  /** Where the record came from (a weights file). */
  source: string;
  /** Item ids found in a set's itemHashes. */
  inSample: ReadonlySet<string>;
  /** Item ids whose corpus is a set recorded without itemHashes. */
  possiblyInSample: ReadonlySet<string>;
  /** Sets recorded without itemHashes. */
  unknownSets: readonly string[];
  /** Per set with itemHashes, how many of the items it holds. */
  perSet: Record<string, number>;
}

export function trainingOverlap(
  source: string,
  record: readonly TrainingRecordSet[],
  items: readonly { id: string; corpus?: string | null | undefined }[],
): TrainingOverlap {
  const inSample = new Set<string>();
  const possiblyInSample = new Set<string>();
  const unknownSets: string[] = [];
  const perSet: Record<string, number> = {};
  for (const t of record) {
    if (t.itemHashes === undefined) {
      unknownSets.push(t.set);
      for (const it of items) if (it.corpus === t.set) possiblyInSample.add(it.id);
      continue;
    }
    const hashes = new Set(t.itemHashes);
    let n = 0;
    for (const it of items) {
      if (hashes.has(trainingItemHash(t.set, it.id)) || (it.corpus && it.corpus !== t.set && hashes.has(trainingItemHash(it.corpus, it.id)))) {
        inSample.add(it.id);
        n++;
      }
    }
    perSet[t.set] = n;
  }
  for (const id of inSample) possiblyInSample.delete(id);
  return { source, inSample, possiblyInSample, unknownSets: unknownSets.sort(), perSet };
}
