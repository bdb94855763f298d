/**
 * What an always-loaded rule costs: its tokens, read on every turn. Counted with
 * `@anthropic-ai/tokenizer` (Anthropic's published tokenizer, made for its pre-Claude-3
 * models): it approximates the current models' count, which Anthropic does not publish as a
 * library (its token-counting API gives the exact figure, and needs the network). So every
 * figure here is "about", and says which tokenizer made it.
 *
 * Beside a rule: incidents its holdout shows prevented per thousand of its tokens, when the
 * owner opted the check that carries it into the randomised holdout (runtime/ladder/holdout.ts):
 * prevented = (held-out rate − acting rate) × acting chances; the held-out unit is the check,
 * so the figure is the check's effect charged against the line's tokens. No holdout: null.
 *
 * Example: ruleTokens("Use pnpm, never npm.") -> 8 (about); with a holdout of 1/240 acting vs
 * 9/60 held out, prevented ≈ 35 incidents, per 1k tokens ≈ 4375.
 */
import { countTokens } from "@anthropic-ai/tokenizer";
import type { HoldoutRow } from "./holdout.js";

export const TOKENIZER = "@anthropic-ai/tokenizer 0.0.4 (Anthropic's published pre-Claude-3 tokenizer: an approximation of the current models' count)";

export function ruleTokens(text: string): number {
  return text === "" ? 0 : countTokens(text);
}

export interface RuleCost {
  rule_id: string;
  tokens: number;
  /** Incidents the holdout shows prevented (null: no holdout for the rule's check, or no interval yet). */
  prevented: number | null;
  prevented_per_1k_tokens: number | null;
}

export function ruleCosts(rules: readonly { rule_id: string; text: string }[], holdout: readonly HoldoutRow[]): RuleCost[] {
  const byRule = new Map(holdout.filter((h) => h.rule_id !== null && h.interval !== null).map((h) => [h.rule_id!, h]));
  return rules.map((r) => {
    const tokens = ruleTokens(r.text);
    const h = byRule.get(r.rule_id);
    const prevented = h?.interval ? (h.interval.heldOut.rate - h.interval.treated.rate) * h.interval.treated.chances : null;
    return { rule_id: r.rule_id, tokens, prevented, prevented_per_1k_tokens: prevented !== null && tokens > 0 ? (prevented / tokens) * 1000 : null };
  });
}

export interface TokenBudget {
  tokenizer: string;
  /** The file's tokens, read on every turn (about). */
  file_tokens: number;
  budget_tokens: number | null;
  over_tokens: number | null;
  rules: RuleCost[];
}

/** The file against a budget in tokens (null: no token budget set, the count is still given). */
export function tokenBudget(text: string, rules: readonly { rule_id: string; text: string }[], holdout: readonly HoldoutRow[], budgetTokens: number | null): TokenBudget {
  const fileTokens = ruleTokens(text);
  return { tokenizer: TOKENIZER, file_tokens: fileTokens, budget_tokens: budgetTokens, over_tokens: budgetTokens === null ? null : Math.max(0, fileTokens - budgetTokens), rules: ruleCosts(rules, holdout) };
}
