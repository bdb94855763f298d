/**
 * A correction the rules wing finds covered by some rule of its project but names no rule for
 * (its best candidate over the cover cut, under the naming cut) is undecided: no incident is
 * counted, and it is no rule gap (gaps.ts drafts no new rule from it). Read on the labelled
 * naming set's real rules with the shipped model and cuts, and on one turn with the naming
 * given (covered or not), so the gap path is seen to depend on it.
 */
import { describe, expect, it } from "vitest";
import { causeModel, gapOf, RuleNamer, turnLines, type Naming } from "../../runtime/ladder/index.js";
import { DEFAULT_COVER_CUT, DEFAULT_NAMING_CUT } from "../../runtime/ladder/naming.js";
import { itemTurn, ledgerRules, namingItems } from "./naming-set.js";

describe("a covered correction with no rule named", () => {
  const model = causeModel();
  const sortOf = (t: { text: string; reply_before: string | null }) => model.sort(t.text, t.reply_before);

  it("is undecided, never a gap, on one turn whose naming is given (and a gap when nothing covers it)", () => {
    const items = namingItems();
    const k = items.findIndex((i) => i.text === "No, that's wrong. Never put emojis in commit messages.");
    expect(k).toBeGreaterThanOrEqual(0);
    const it0 = items[k]!;
    const rules = ledgerRules([it0.repo]);
    const turn = { ...itemTurn(it0, k), tools_before: [{ name: "Bash", input: { command: 'git commit -m "✨ fix"' } }] };
    const namer = new RuleNamer(rules);
    const real = namer.name(turn);
    expect(real.candidates.length).toBeGreaterThan(0);
    const covered: Naming = { ...real, named: null, covered: true };
    const open: Naming = { ...real, named: null, covered: false };
    const a = turnLines(turn, rules, [], sortOf, { namer, naming: covered });
    expect(a.undecidedRule).toBe(true);
    expect(a.lines.filter((l) => l.kind === "incident")).toEqual([]);
    expect(gapOf(turn, a)).toBeNull();
    const b = turnLines(turn, rules, [], sortOf, { namer, naming: open });
    expect(b.undecidedRule).toBeUndefined();
    expect(gapOf(turn, b)).toMatchObject({ kind: "gap", exchange_id: turn.exchange_id });
  });

  it("on the labelled set: undecided exactly when a correction is covered with nothing named, and then no gap and no incident", () => {
    expect(DEFAULT_COVER_CUT.value).toBeLessThan(DEFAULT_NAMING_CUT.value);
    const items = namingItems();
    const rules = ledgerRules([...new Set(items.map((i) => i.repo))]);
    const namer = new RuleNamer(rules);
    let undecided = 0;
    for (const [k, it] of items.entries()) {
      const turn = itemTurn(it, k);
      const naming = namer.name(turn);
      const out = turnLines(turn, rules, [], sortOf, { namer, naming });
      expect(out.undecidedRule === true).toBe(naming.covered && naming.named === null && out.reading.signal !== null);
      expect(naming.covered).toBe(naming.candidates.some((c) => c.p >= DEFAULT_COVER_CUT.value));
      if (out.undecidedRule === true) {
        undecided++;
        expect(gapOf(turn, out)).toBeNull();
        expect(out.lines.some((l) => l.kind === "incident")).toBe(false);
      }
    }
    // The shipped model leaves some items undecided (in sample; naming-oof.test.ts has the out-of-fold count).
    expect(undecided).toBeGreaterThan(0);
    console.log(`labelled set, shipped model: ${undecided} of ${items.length} corrections covered with no rule named (undecided)`);
  });
});
