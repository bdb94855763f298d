/**
 * Every property test draws from one seed, so a run is reproducible and CI does not turn red on
 * a draw no change caused. ERRATA_FC_SEED picks another seed to explore (docs/testing.md); a
 * counterexample found that way is fixed and kept as an example test.
 */
import fc from "fast-check";

const raw = process.env["ERRATA_FC_SEED"];
const seed = raw === undefined || raw === "" ? 20261206 : Number(raw);
if (!Number.isInteger(seed)) throw new Error(`ERRATA_FC_SEED: expected an integer, found ${JSON.stringify(raw)}`);
fc.configureGlobal({ seed });
