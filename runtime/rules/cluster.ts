/**
 * Clusters of failures with one root cause. A covered failure's bucket is its rule id and
 * stays whole (the rule is the cause; enforcing it is the fix). An uncovered one's bucket is
 * failure class x component (component.ts). Inside a gap bucket each member is compared with
 * its three nearest neighbours (word overlap of prompt and reply), the judge answers
 * `rules.same_root_cause` for each pair, and code merges the pairs answered yes at or over
 * the cut: the clusters are the connected components (union-find). Failures with no fix type
 * (an answer missing) and those that predate their rule are left out.
 *
 * Example: three "npm again" failures covered by one rule -> one cluster "rule:<id>" of 3;
 * two uncovered fabrications about `pandas.read_magic` -> one cluster "gap:fabrication×api".
 */
import type { Exchange } from "../../schemas/exchange.js";
import type { CoverageRecord, RuleCluster } from "../../schemas/rules.js";
import { wordOverlap } from "./ids.js";
import { askSameRoot, type RulesJudge } from "./judge.js";

export const NEIGHBOURS = 3;

class UnionFind {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r] ?? r;
    let c = i;
    while (this.parent[c] !== r) {
      const next = this.parent[c] ?? r;
      this.parent[c] = r;
      c = next;
    }
    return r;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

export function bucketOf(r: CoverageRecord): string {
  return r.covering !== null ? `rule:${r.covering}` : `gap:${r.failure_class ?? "unclassed"}×${r.component}`;
}

function summary(id: string, bucket: string, members: readonly CoverageRecord[]): RuleCluster {
  const sev = members.map((m) => m.severity).filter((s): s is number => s !== null);
  const first = members[0];
  return {
    id,
    bucket,
    kind: bucket.startsWith("rule:") ? "rule" : "gap",
    rule_id: first?.covering ?? null,
    failure_class: bucket.startsWith("gap:") ? (first?.failure_class ?? null) : null,
    component: bucket.startsWith("gap:") ? (first?.component ?? null) : null,
    exchange_ids: members.map((m) => m.exchange_id),
    sessions: new Set(members.map((m) => m.session_id)).size,
    mean_severity: sev.length === 0 ? null : Math.round((sev.reduce((a, b) => a + b, 0) / sev.length) * 1000) / 1000,
  };
}

export async function clusterFailures(coverage: readonly CoverageRecord[], exchanges: ReadonlyMap<string, Exchange>, judge: RulesJudge, cut: number): Promise<RuleCluster[]> {
  const buckets = new Map<string, CoverageRecord[]>();
  for (const r of coverage) {
    if (r.fix === null || r.before_rule || !exchanges.has(r.exchange_id)) continue;
    const b = bucketOf(r);
    buckets.set(b, [...(buckets.get(b) ?? []), r]);
  }
  const clusters: RuleCluster[] = [];
  for (const [bucket, members] of [...buckets].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (bucket.startsWith("rule:") || members.length === 1) {
      clusters.push(summary(bucket, bucket, members));
      continue;
    }
    const ex = members.map((m) => exchanges.get(m.exchange_id) as Exchange);
    const text = ex.map((e) => `${e.prompt} ${e.reply_end ?? ""}`);
    const pairs: Array<[number, number]> = [];
    const seen = new Set<string>();
    members.forEach((_, i) => {
      const near = members
        .map((__, j) => ({ j, sim: j === i ? -1 : wordOverlap(text[i] ?? "", text[j] ?? "") }))
        .filter((n) => n.j !== i)
        .sort((a, b) => b.sim - a.sim || a.j - b.j)
        .slice(0, NEIGHBOURS);
      for (const n of near) {
        const key = i < n.j ? `${i}:${n.j}` : `${n.j}:${i}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push([i, n.j]);
      }
    });
    const candidates = members.map((m) => m.candidates.map((c) => c.rule_id));
    const answers = await askSameRoot(
      judge,
      pairs.map(([i, j]) => ({
        a: { ...(ex[i]!), cls: members[i]?.failure_class ?? null, candidates: candidates[i] ?? [] },
        b: { ...(ex[j]!), cls: members[j]?.failure_class ?? null, candidates: candidates[j] ?? [] },
      })),
    );
    const uf = new UnionFind(members.length);
    pairs.forEach(([i, j], k) => {
      const a = answers[k];
      if (a?.status === "scored" && a.p_yes !== null && a.p_yes >= cut) uf.union(i, j);
    });
    const groups = new Map<number, CoverageRecord[]>();
    members.forEach((m, i) => {
      const r = uf.find(i);
      groups.set(r, [...(groups.get(r) ?? []), m]);
    });
    let n = 0;
    for (const g of [...groups.values()]) clusters.push(summary(`${bucket}#${++n}`, bucket, g));
  }
  return clusters;
}
