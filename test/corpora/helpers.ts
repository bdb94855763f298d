import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Exchange } from "../../schemas/exchange.js";
import type { Label } from "../../schemas/label.js";
import { repoRoot, sharedDatasets } from "../transcripts/fixtures.js";

export { repoRoot, sharedDatasets };
export const bundled = (set: string) => join(repoRoot, "datasets", set);
export const shared = (...p: string[]) => join(sharedDatasets, ...p);
export const hasShared = (...p: string[]) => existsSync(shared(...p));

export function readRows<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T);
}
export const bundledExchanges = (set: string) => readRows<Exchange>(join(bundled(set), "exchanges.jsonl"));
export const bundledLabels = (set: string) => readRows<Label>(join(bundled(set), "labels.jsonl"));

/** Values of one question per exchange, in label order (the rater order of the source). */
export function valuesByItem(labels: readonly Label[], question: string): Map<string, (string | number | boolean)[]> {
  const m = new Map<string, (string | number | boolean)[]>();
  for (const l of labels) {
    if (l.question !== question) continue;
    const list = m.get(l.exchange_id) ?? [];
    list.push(l.value);
    m.set(l.exchange_id, list);
  }
  return m;
}

/**
 * Fleiss' kappa with a variable number of raters per item (items with fewer than 2 ratings
 * are left out): P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1)), Pe = sum_j p_j^2 with p_j
 * pooled over all ratings. Written here, independently of eval/, to check the importers'
 * labels against the reference figures in the shared datasets README.
 */
export function fleissKappa(items: readonly (readonly (string | number | boolean)[])[]): number {
  const totals = new Map<string, number>();
  let sumP = 0;
  let n = 0;
  let ratings = 0;
  for (const item of items) {
    if (item.length < 2) continue;
    const counts = new Map<string, number>();
    for (const v of item) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
    let sq = 0;
    for (const [k, c] of counts) {
      sq += c * c;
      totals.set(k, (totals.get(k) ?? 0) + c);
    }
    sumP += (sq - item.length) / (item.length * (item.length - 1));
    ratings += item.length;
    n++;
  }
  const pBar = sumP / n;
  let pe = 0;
  for (const c of totals.values()) pe += (c / ratings) ** 2;
  return (pBar - pe) / (1 - pe);
}
