// The classtier detector's prediction/1 rows (`errata eval score --predictions`): the Combiner's
// detect head decides detection (v4 when no Combiner could be fitted), plus the second look's
// flags when the recorded level turns it on; the class is the ClassTier model judge's.
// The regex, v3 and v4 rows come from `errata eval predictions` (runtime/jobs/v4/predictions.ts),
// the combiner rows straight from `errata combiner eval --predictions`.
//
// Example: classTierPredictions({detectorRows: [{exchange_id: "ex-…", detected: false, …}],
//   verdicts: new Map([["ex-…", {status: "named", class: "fabrication", p: 0.8}]]), level: {second_look: true}})
// -> rows [{schema: "prediction/1", exchange_id: "ex-…", detector: "classtier", detected: true, class: "fabrication"}]
import type { ClassTierVerdict } from "../../classtier/index.js";
import type { ClassTierLevel } from "../../schemas/classtier.js";
import type { Prediction } from "../../schemas/prediction.js";
import type { ClassTierCounts } from "./summary.js";

/** classtier rows for the exchanges the detector (the Combiner's detect head, else v4) scored. */
export function classTierPredictions({ detectorRows, verdicts, level }: {
  detectorRows: readonly Prediction[];
  verdicts: ReadonlyMap<string, ClassTierVerdict>;
  level: Pick<ClassTierLevel, "second_look"> | null;
}): { rows: Prediction[]; counts: ClassTierCounts } {
  const secondLook = level?.second_look === true;
  const counts: ClassTierCounts = { detected: 0, secondLookFlags: 0, named: 0, none: 0, unscored: 0 };
  const rows = detectorRows.map((p): Prediction => {
    const v: ClassTierVerdict = verdicts.get(p.exchange_id) ?? { status: "unscored", reason: "not asked" };
    counts[v.status]++;
    let detected = p.detected;
    if (detected === false && secondLook && v.status === "named") {
      detected = true;
      counts.secondLookFlags++;
    }
    if (detected) counts.detected++;
    const cls = detected && v.status === "named" ? v.class : null;
    return {
      schema: "prediction/1",
      exchange_id: p.exchange_id,
      detector: "classtier",
      detected,
      class: cls,
      ...(p.p_failure !== undefined ? { p_failure: p.p_failure } : {}),
      ...(detected && v.status === "unscored" ? { reason: v.reason } : {}),
    };
  });
  return { rows, counts };
}
