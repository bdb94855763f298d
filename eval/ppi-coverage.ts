import { EvalInputError } from "./errors.js";
import { ppiMeanCi } from "./ppi-mean.js";
import { clusteredPpiMeanCi } from "./ppi-design.js";
import { mulberry32, sampleIndices } from "./prng.js";

/**
 * Coverage of plain PPI++ (`ppiMeanCi`, items independent) and clustered PPI++ on simulated
 * clustered data, seeded. Each replication builds a corpus of sessions: a session effect u_g
 * moves the failure probability of all its items, and the judge carries its own session-level
 * error b_g (a judge that misreads a whole conversation), so the rectifier's residuals are
 * correlated within a session. `labelledSessions` whole sessions are drawn without replacement
 * and labelled; the unlabelled set is the whole corpus, as `eval score` passes it. The truth is
 * the corpus's own failure rate; an interval covers when it holds it.
 *
 * Example: 60 labelled of 660 sessions of 3, 600 replications, seed 7, alpha 0.1 → clustered
 * and plain coverage as the test and docs/eval.md record.
 */
export interface CoverageOptions {
  replications: number;
  seed: number;
  labelledSessions: number;
  unlabelledSessions: number;
  sessionSize: number;
  alpha?: number;
  /** Standard deviation of the session effect on the logit scale (default 1.2). */
  sessionSd?: number;
  /** Standard deviation of the judge's session-level error (default 0.25, probability scale). */
  judgeSessionSd?: number;
}

export interface CoverageFigures { coverage: number; meanWidth: number }
export interface CoverageResult { replications: number; level: number; plain: CoverageFigures; clustered: CoverageFigures }

export function ppiCoverageSimulation(o: CoverageOptions): CoverageResult {
  if (!(o.replications >= 1) || !(o.labelledSessions >= 2) || !(o.sessionSize >= 1) || !(o.unlabelledSessions >= 1)) {
    throw new EvalInputError("BAD_VALUE", "coverage simulation sizes", "replications >= 1, labelled sessions >= 2, session size >= 1", JSON.stringify(o));
  }
  const alpha = o.alpha ?? 0.1;
  const rnd = mulberry32(o.seed);
  const normal = (): number => {
    const u = Math.max(rnd(), 1e-300);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
  };
  const S = o.labelledSessions + o.unlabelledSessions;
  const m = o.sessionSize;
  const sdU = o.sessionSd ?? 1.2;
  const sdB = o.judgeSessionSd ?? 0.25;
  let coverPlain = 0;
  let coverClustered = 0;
  let widthPlain = 0;
  let widthClustered = 0;
  for (let r = 0; r < o.replications; r++) {
    const y = new Float64Array(S * m);
    const yhat = new Float64Array(S * m);
    const session: string[] = new Array<string>(S * m);
    let truth = 0;
    for (let g = 0; g < S; g++) {
      const u = normal() * sdU;
      const b = normal() * sdB;
      for (let k = 0; k < m; k++) {
        const i = g * m + k;
        const p = 1 / (1 + Math.exp(-(-1.5 + u + 0.3 * normal())));
        y[i] = rnd() < p ? 1 : 0;
        yhat[i] = Math.min(1, Math.max(0, p + b + 0.1 * normal()));
        session[i] = `s${g}`;
        truth += y[i]!;
      }
    }
    truth /= S * m;
    const drawn = sampleIndices(S, o.labelledSessions, rnd);
    const ly: number[] = [];
    const lh: number[] = [];
    const ls: string[] = [];
    for (const g of drawn) for (let k = 0; k < m; k++) { ly.push(y[g * m + k]!); lh.push(yhat[g * m + k]!); ls.push(session[g * m + k]!); }
    const plain = ppiMeanCi(ly, lh, yhat, { alpha });
    const clustered = clusteredPpiMeanCi({ y: ly, yhat: lh, clusters: ls, yhatUnlabelled: yhat, clustersUnlabelled: session }, { alpha });
    if (plain.lower <= truth && truth <= plain.upper) coverPlain++;
    if (clustered.lower <= truth && truth <= clustered.upper) coverClustered++;
    widthPlain += plain.upper - plain.lower;
    widthClustered += clustered.upper - clustered.lower;
  }
  const R = o.replications;
  return {
    replications: R,
    level: 1 - alpha,
    plain: { coverage: coverPlain / R, meanWidth: widthPlain / R },
    clustered: { coverage: coverClustered / R, meanWidth: widthClustered / R },
  };
}
