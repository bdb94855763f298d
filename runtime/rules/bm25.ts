/**
 * Okapi BM25 over a fixed set of documents (rule units), written here because the scoring is
 * about sixty lines and the retriever must weigh query terms (the complaint and the failure
 * class over the reply's topic), which the library kept as the test oracle
 * (`wink-bm25-text-search`) does not do.
 *
 *   score(d, q) = sum over query terms t of  w(t) * idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))
 *   idf(t)      = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))      (never negative)
 *
 * with k1 = 1.2, b = 0.75, N the number of documents, n(t) the number holding t, |d| the
 * document's length in words and avgdl the mean length; w(t) is the query term's weight (the
 * number of times it occurs in an unweighted query). Ties are broken by document order, so a
 * search is a pure function of the documents and the query.
 *
 * Example: `new Bm25([["use", "bun"], ["no", "mocks"], ["tabs"]]).search(new Map([["bun", 1]]), 1)`
 * -> `[{doc: 0, score: 0.98…}]`.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface Bm25Hit {
  doc: number;
  score: number;
}

export class Bm25 {
  private readonly postings = new Map<string, Array<{ doc: number; tf: number }>>();
  private readonly lengths: number[];
  private readonly avgdl: number;

  constructor(docs: readonly (readonly string[])[]) {
    this.lengths = docs.map((d) => d.length);
    const total = this.lengths.reduce((a, b) => a + b, 0);
    this.avgdl = docs.length === 0 ? 0 : total / docs.length;
    docs.forEach((terms, doc) => {
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let list = this.postings.get(t);
        if (list === undefined) this.postings.set(t, (list = []));
        list.push({ doc, tf: n });
      }
    });
  }

  get size(): number {
    return this.lengths.length;
  }

  idf(term: string): number {
    const n = this.postings.get(term)?.length ?? 0;
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** Scores of every document holding a query term (weights per term), best first, at most `limit`. */
  search(query: ReadonlyMap<string, number>, limit: number): Bm25Hit[] {
    const scores = new Map<number, number>();
    for (const [term, weight] of query) {
      const list = this.postings.get(term);
      if (list === undefined || weight === 0) continue;
      const idf = this.idf(term);
      for (const { doc, tf } of list) {
        const norm = 1 - BM25_B + (BM25_B * (this.lengths[doc] ?? 0)) / this.avgdl;
        const part = (weight * idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
        scores.set(doc, (scores.get(doc) ?? 0) + part);
      }
    }
    return [...scores]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, Math.max(0, limit));
  }
}

/** An unweighted query: each word weighs the number of times it occurs. */
export function termCounts(terms: readonly string[], weight = 1): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of terms) q.set(t, (q.get(t) ?? 0) + weight);
  return q;
}

/** Adds `extra` to `into` (weights summed), for queries built from several weighted parts. */
export function addTerms(into: Map<string, number>, extra: ReadonlyMap<string, number>): Map<string, number> {
  for (const [t, w] of extra) into.set(t, (into.get(t) ?? 0) + w);
  return into;
}
