// What a rule costs in tokens (an approximation: @anthropic-ai/tokenizer), and the incidents
// its holdout shows prevented per thousand tokens.
import { describe, expect, it } from "vitest";
import { ruleCosts, ruleTokens, TOKENIZER } from "../../runtime/ladder/cost.js";
import type { HoldoutRow } from "../../runtime/ladder/holdout.js";
import { holdoutInterval } from "../../calibration/index.js";

describe("rule tokens", () => {
  it("counts with the published tokenizer and says it approximates", () => {
    console.log(`"Use pnpm, never npm." = ${ruleTokens("Use pnpm, never npm.")} tokens; "hello world!" = ${ruleTokens("hello world!")}`);
    expect(ruleTokens("hello world!")).toBe(3); // the package's README example
    expect(ruleTokens("")).toBe(0);
    expect(ruleTokens("Use pnpm, never npm.")).toBe(REF_PNPM);
    expect(TOKENIZER).toMatch(/approximation/);
  });
  it("prevented per 1k tokens from a holdout row, null without one", () => {
    const acting = Array.from({ length: 240 }, (_, i) => ({ incidents: i === 0 ? 1 : 0, chances: 1 }));
    const held = Array.from({ length: 60 }, (_, i) => ({ incidents: i < 9 ? 1 : 0, chances: 1 }));
    const row = { check: "c", rule_id: "r1", one_in: 5, treated_sessions: 240, held_out_sessions: [], counts: { acting: { incidents: 1, chances: 240 }, held: { incidents: 9, chances: 60 } }, interval: holdoutInterval(acting, held), line: "" } satisfies HoldoutRow;
    const [a, b] = ruleCosts([{ rule_id: "r1", text: "Use pnpm, never npm." }, { rule_id: "r2", text: "Keep commits small." }], [row]);
    expect(a!.prevented).toBeCloseTo((0.15 - 1 / 240) * 240, 9); // 35
    expect(a!.prevented_per_1k_tokens).toBeCloseTo((35 / REF_PNPM) * 1000, 6);
    expect(b).toMatchObject({ rule_id: "r2", prevented: null, prevented_per_1k_tokens: null });
  });
});
const REF_PNPM = 8;
