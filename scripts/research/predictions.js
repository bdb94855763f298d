// The detectors the loop scores, as prediction/1 rows (`errata eval score --predictions`).
//
// - regex: the capture classifier (runtime/capture/classify.js, the hook's), read as "the
//   person is unhappy with the previous reply" by its own `unhappyWithReply`; it names no class.
// - v3: the seed's single choice. v3 "only sees what the regex capture already caught", so
//   it detects what the regex caught and names the argmax of the 14 `class.*` answers
//   (composers' v3Choice) for it; unscored class when any of the 14 answers is missing.
// - v4: the composition of stored answers under the calibrated cuts (composers' compose):
//   detected = is_failure, class = primary_class, p_failure = P(yes) of detect.unhappy.
// - classtier: the Combiner's detect head decides detection (v4 when no Combiner could be
//   fitted), plus the second look's flags when the recorded level turns it on; the class is
//   the ClassTier model judge's.
// (combiner rows come straight from `errata combiner eval --predictions`.)
//
// Example: regexPredictions([{id: "ex-…", prompt: "No, that's wrong.", reply_end: "Done."}], classify)
// -> [{schema: "prediction/1", exchange_id: "ex-…", detector: "regex", detected: true, class: null}]

const row = (exchange_id, detector, detected, cls, extra = {}) => ({ schema: "prediction/1", exchange_id, detector, detected, class: cls, ...extra });

export function regexPredictions(exchanges, capture) {
  const counts = { flagged: 0, skip: 0 };
  const rows = exchanges.map((e) => {
    const v = capture.classify(e.prompt, { previousReply: e.reply_end });
    if (v.kind === "skip") counts.skip++;
    const hit = capture.unhappyWithReply(v);
    if (hit) counts.flagged++;
    return row(e.id, "regex", hit, null, { p_failure: hit ? 1 : 0 });
  });
  return { rows, counts };
}

/** v4 and v3 rows from composed answers (`composeAll` under `cuts`), v3 detection from the regex rows. */
export function composedPredictions({ exchanges, answers, judge, cuts, regexRows, dist }) {
  const composed = dist.v4.composeAll(exchanges, answers, judge, cuts);
  const regexHit = new Map(regexRows.map((r) => [r.exchange_id, r.detected]));
  const pUnhappy = new Map();
  for (const a of answers) if (a.question_id === "detect.unhappy" && a.status === "scored" && a.lane === judge.lane && a.model === judge.model) pUnhappy.set(a.exchange_id, a.p_yes);
  const v4 = [];
  const v3 = [];
  const counts = { v4: { detected: 0, unscored: 0, classNamed: 0, classMissing: 0 }, v3: { detected: 0, classNamed: 0, classMissing: 0 } };
  for (const c of composed) {
    const id = c.exchange.id;
    if (c.composition === null) {
      counts.v4.unscored++;
      v4.push(row(id, "v4", null, null, { reason: "detect.unhappy unanswered or unscored" }));
    } else {
      const det = c.composition.is_failure;
      const cls = det ? c.composition.primary_class : null;
      if (det) {
        counts.v4.detected++;
        if (cls) counts.v4.classNamed++;
        else counts.v4.classMissing++;
      }
      v4.push(row(id, "v4", det, cls, { p_failure: pUnhappy.get(id) ?? (det ? 1 : 0), ...(det && !cls ? { reason: "class: a mode answer is missing or unscored" } : {}) }));
    }
    const hit = regexHit.get(id) ?? null;
    const cls3 = hit ? (c.v3?.class_id ?? null) : null;
    if (hit) {
      counts.v3.detected++;
      if (cls3) counts.v3.classNamed++;
      else counts.v3.classMissing++;
    }
    v3.push(row(id, "v3", hit, cls3, hit && !cls3 ? { reason: "class: a class.* answer is missing or unscored" } : {}));
  }
  return { v4, v3, counts };
}

/** classtier rows for the exchanges the detector (the Combiner's detect head, else v4) scored. */
export function classTierPredictions({ detectorRows, verdicts, level }) {
  const secondLook = level?.second_look === true;
  const counts = { detected: 0, secondLookFlags: 0, named: 0, none: 0, unscored: 0 };
  const rows = detectorRows.map((p) => {
    const v = verdicts.get(p.exchange_id) ?? { status: "unscored", reason: "not asked" };
    counts[v.status]++;
    let detected = p.detected;
    if (detected === false && secondLook && v.status === "named") {
      detected = true;
      counts.secondLookFlags++;
    }
    if (detected) counts.detected++;
    const cls = detected && v.status === "named" ? v.class : null;
    return row(p.exchange_id, "classtier", detected, cls, { ...(p.p_failure !== undefined ? { p_failure: p.p_failure } : {}), ...(detected && v.status === "unscored" ? { reason: v.reason } : {}) });
  });
  return { rows, counts };
}
