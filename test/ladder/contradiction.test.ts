// The diagnosis's contradiction step through part 2's doctrine check: the nearest rules by
// BM25, the noul rules.requires_forbidden through the engine both ways round, code deciding at
// a cut whose origin is recorded; offline (the embedded lane cannot answer the noul) the
// polarity/choice-set heuristic decides, and every diagnosis says which decided.
import { describe, expect, it } from "vitest";
import { createEngine, type AskPair, type Engine } from "../../runtime/engine/index.js";
import { scored, unscored, baseAnswer } from "../../runtime/engine/index.js";
import { CONTRADICTION_NOUL, contradictions, diagnose, nearestOthers, readContradiction } from "../../runtime/ladder/diagnose.js";
import { foldLedger, openRuleLedger, type LedgerRule } from "../../runtime/ladder/ledger.js";
import { runAudit } from "../../runtime/ladder/auditor.js";
import type { IncidentRow, RuleRow } from "../../schemas/rule-ledger.js";
import { tempDir } from "../helpers/io.js";
import { finnish, pnpm } from "./helpers.js";

const inc = (rule: RuleRow, k: number): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i-${rule.rule_id}-${k}`, rule_id: rule.rule_id, exchange_id: `ex-${k.toString(16).padStart(16, "0")}`, session_id: "s", date: `2026-11-1${k}`, severity: 2, signal: "explicit", in_view: true, rung: rule.rung, cause: "rule_gap" });
const ruleWith = (rule: RuleRow, incidents: IncidentRow[] = []): LedgerRule => foldLedger([rule, ...incidents]).rules.get(rule.rule_id)!;
const place = { position: 5, lines: 40 };
const english: RuleRow = { ...finnish, rule_id: "claude.lang.en", text: "Always answer in English.", keywords: [] };
const npmOk: RuleRow = { ...pnpm, rule_id: "claude.tools.npm", text: "Use npm for installs in the docs folder." };
const tests: RuleRow = { ...pnpm, rule_id: "claude.tests", text: "Keep commits small and focused." };

/** A judge that answers the noul from the subject it is asked with, and records what it was asked. */
function fakeEngine(p: (subject: string) => number | null): Engine & { asked: AskPair[]; callers: string[] } {
  const asked: AskPair[] = [];
  const callers: string[] = [];
  return {
    lane: "openai",
    model: "fake-judge",
    stats: { calls: 0, cacheHits: 0, refused: 0 },
    asked,
    callers,
    ask: async (pairs, opts) => {
      asked.push(...pairs);
      callers.push(opts.caller);
      return pairs.map((pair) => {
        const base = baseAnswer(pair, "openai", "fake-judge", "sha256:x", "2026-12-01T00:00:00.000Z");
        const v = p(pair.question.text);
        return v === null ? unscored(base, "the judge timed out") : scored(base, v, "logprobs", "", 1, 0);
      });
    },
  };
}

describe("the contradiction step", () => {
  it("retrieves the nearest other rules (never itself, only rules sharing a word), at most four", () => {
    const fi = ruleWith(finnish);
    const others = [fi, ruleWith(english), ruleWith(tests), ...[1, 2, 3, 4].map((k) => ruleWith({ ...english, rule_id: `en${k}`, text: `Answer in English in file ${k}.` }))];
    const near = nearestOthers(fi, others);
    expect(near.length).toBe(4);
    expect(near.map((n) => n.rule.rule_id)).not.toContain(fi.rule_id);
    expect(near.map((n) => n.rule.rule_id)).not.toContain("claude.tests");
    expect(nearestOthers(fi, [fi, ruleWith(tests)])).toEqual([]);
  });

  it("offline: the embedded lane leaves the noul unscored, the heuristic decides, and the evidence says so", async () => {
    const fi = ruleWith(finnish, [inc(finnish, 1), inc(finnish, 2)]);
    const others = [fi, ruleWith(english)];
    const reading = await readContradiction(fi, others, createEngine({ lane: "embedded" }));
    expect(reading).toMatchObject({ decided_by: "heuristic", noul: CONTRADICTION_NOUL, lane: "embedded", against: contradictions(fi, others) });
    expect(reading.nearest).toEqual([expect.objectContaining({ rule_id: "claude.lang.en", p_yes: null, unscored: `no weights for question ${CONTRADICTION_NOUL}@1` })]);
    const d = diagnose(fi, others, place, 200, reading);
    expect(d.diagnosis).toBe("contradicted");
    expect(d.evidence).toContain(`contradiction: decided by the polarity/choice-set heuristic (${CONTRADICTION_NOUL} unscored on the embedded lane: no weights for question ${CONTRADICTION_NOUL}@1); the heuristic finds 1`);
  });

  it("with a judge: the noul decides at the cut, asked both ways round under errata-coverage; the heuristic is the second voice", async () => {
    const fi = ruleWith(finnish, [inc(finnish, 1), inc(finnish, 2)]);
    const others = [fi, ruleWith(english)];
    const judge = fakeEngine((q) => (q.includes("Finnish") && q.includes("English") ? 0.83 : 0.1));
    const reading = await readContradiction(fi, others, judge);
    expect(judge.callers).toEqual(["errata-coverage"]);
    expect(judge.asked.map((a) => a.question.id)).toEqual([CONTRADICTION_NOUL, CONTRADICTION_NOUL]);
    expect(judge.asked[0]!.question.text).toContain(`Rules:\n- Always answer in English.\n\nRecommendation: target CLAUDE.md (Language); change: ${finnish.text}`);
    expect(judge.asked[1]!.question.text).toContain(`Rules:\n- ${finnish.text}\n\nRecommendation: target CLAUDE.md (Language); change: Always answer in English.`);
    expect(reading.decided_by).toBe("doctrine_noul");
    expect(reading.against).toEqual([`claude.lang.en says "Always answer in English." (${CONTRADICTION_NOUL} P(yes)=0.83 >= cut 0.5)`]);
    expect(reading.note).toBe(`contradiction: decided by the doctrine noul ${CONTRADICTION_NOUL} at cut 0.5 (the recommend checks' cut (runtime/rules DEFAULT_CHECK_CUT), uncalibrated); 1 of 1 nearest scored on the openai lane (fake-judge); second voice: the heuristic finds 1, it agrees`);
    expect(diagnose(fi, others, place, 200, reading).diagnosis).toBe("contradicted");

    // The judge says no where the heuristic says yes: the noul decides, and the note records the disagreement.
    const no = await readContradiction(fi, others, fakeEngine(() => 0.2));
    expect([no.decided_by, no.against, no.heuristic.length]).toEqual(["doctrine_noul", [], 1]);
    expect(no.note).toMatch(/second voice: the heuristic finds 1, it disagrees$/);
    expect(diagnose(fi, others, place, 200, no).diagnosis).toBe("climb");

    // The cut is the caller's, and its origin is said.
    const strict = await readContradiction(fi, others, judge, { cut: 0.9, origin: "a test's cut" });
    expect(strict.against).toEqual([]);
    expect(strict.note).toContain("at cut 0.9 (a test's cut)");
  });

  it("a pair the judge leaves unscored does not count as a no: the scored ones decide, and none scored falls back", async () => {
    const p = ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2)]);
    const others = [p, ruleWith(npmOk), ruleWith(english)];
    const partial = await readContradiction(p, others, fakeEngine((q) => (q.includes("docs folder") ? 0.7 : null)));
    expect(partial.nearest.map((n) => [n.rule_id, n.p_yes])).toEqual([["claude.tools.npm", 0.7]]);
    expect(partial.against).toHaveLength(1);
    const none = await readContradiction(p, others, fakeEngine(() => null));
    expect(none.decided_by).toBe("heuristic");
    expect(none.note).toContain("unscored on the openai lane: the judge timed out");
  });

  it("the auditor asks through the engine it is given, and its diagnoses say which voice decided", async () => {
    const t = tempDir("errata-contradiction-audit-");
    try {
      openRuleLedger(t.dir).append([finnish, english, inc(finnish, 1), inc(finnish, 2)]);
      const judge = fakeEngine((q) => (q.includes("Finnish") && q.includes("English") ? 0.9 : 0.1));
      const r = await runAudit({ ladderDir: t.dir, projectDir: t.dir, transcripts: [], at: "2026-12-01T03:00:00.000Z", engine: judge });
      const d = r.diagnoses.find((x) => x.rule_id === finnish.rule_id)!;
      expect(d.diagnosis).toBe("contradicted");
      expect(d.contradiction?.decided_by).toBe("doctrine_noul");
      expect(d.evidence.some((e) => e.startsWith("contradiction: decided by the doctrine noul"))).toBe(true);
      // Without an engine the auditor uses the embedded lane: offline, the heuristic decides.
      const t2 = tempDir("errata-contradiction-audit2-");
      try {
        openRuleLedger(t2.dir).append([finnish, english, inc(finnish, 1), inc(finnish, 2)]);
        const r2 = await runAudit({ ladderDir: t2.dir, projectDir: t2.dir, transcripts: [], at: "2026-12-01T03:00:00.000Z" });
        expect(r2.diagnoses.find((x) => x.rule_id === finnish.rule_id)?.contradiction).toMatchObject({ decided_by: "heuristic", lane: "embedded" });
      } finally {
        t2.cleanup();
      }
    } finally {
      t.cleanup();
    }
  });
});
