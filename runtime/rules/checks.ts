/**
 * The checks of a recommendation, asked of the judge as nouls (questions/rules.ts) under the
 * caller `errata-coverage`, all of one recommendation in one call. Code decides what each
 * answer does:
 *
 * - drop on yes: `already_done` (an installed hook, check or rule does it), `more_prose` (for a
 *   covered rule only), and the doctrine questions (`recreates_retired`, `requires_forbidden`,
 *   `mandates_optional`) asked of the rules nearest the change (the coverage retriever, BM25)
 *   together and of each rule read whole;
 * - drop when most exemplars say no: `addresses_failure`, asked of each exemplar;
 * - flag, never drop: the doctrine questions over the placement rules, and `model_in_hook`.
 *
 * A drop check without an answer drops too (a recommendation is only worth keeping once code
 * has checked it), with that reason. A recommendation without a change has nothing to check:
 * every check is skipped and said so.
 *
 * Example: a change "Add IMPORTANT: never npm" for the rule "Use pnpm, never npm" -> dropped
 * `["more prose for a covered rule (rules.more_prose P(yes)=0.91)"]`.
 */
import { recommendationSubject, recommendCheckQuestions } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Question } from "../../schemas/question.js";
import type { CheckResult } from "../../schemas/recommendations.js";
import type { RuleUnit } from "../../schemas/rules.js";
import type { AskPair, Engine } from "../engine/index.js";
import { termCounts } from "./bm25.js";
import { PLACEMENT_RULES } from "./doctrine.js";
import { COVERAGE_CALLER } from "./judge.js";
import type { RuleRetriever } from "./search.js";
import { terms } from "./tokenize.js";

export const DOCTRINE_NEAREST = 4;
export const DEFAULT_CHECK_CUT = 0.5;

const Q = (id: string): Question => recommendCheckQuestions.find((q) => q.id === id) as Question;
const DOCTRINE = [
  { id: "rules.recreates_retired", says: "re-creates what a rule retired" },
  { id: "rules.requires_forbidden", says: "requires what a rule forbids" },
  { id: "rules.mandates_optional", says: "makes mandatory what a rule leaves optional" },
] as const;

export interface CheckInput {
  target: string | null;
  change: string | null;
  fix: "enforce_rule" | "add_rule";
  rule: RuleUnit | null;
  exemplars: readonly Exchange[];
  catalogue: readonly string[];
}

export interface CheckVerdict {
  checks: CheckResult[];
  flags: string[];
  dropped: string[];
}

interface Planned {
  check: string;
  scope: string;
  role: "drop" | "flag";
  /** True when a yes is the bad answer. */
  yesFails: boolean;
  pair: AskPair;
  says: string;
}

function bound(q: Question, subject: string): Question {
  return { ...q, text: `${q.text}\n\n${subject}` };
}

/** The rules nearest the change, by the coverage retriever. */
export function nearestRules(retriever: RuleRetriever, change: string, k = DOCTRINE_NEAREST): RuleUnit[] {
  return retriever.search(termCounts(terms(change)), k).map((h) => h.unit);
}

export async function runChecks(input: CheckInput, engine: Engine, retriever: RuleRetriever, cut = DEFAULT_CHECK_CUT): Promise<CheckVerdict> {
  const all = [...recommendCheckQuestions.map((q) => q.id)];
  if (input.change === null || input.exemplars.length === 0) {
    const why = input.change === null ? "no change to check" : "no exemplar to ask about";
    return { checks: all.map((check) => ({ check, scope: "recommendation", role: check === "rules.model_in_hook" ? "flag" : "drop", status: "skipped", p_yes: null, reason: why })), flags: [], dropped: [] };
  }
  const rec = { target: input.target, change: input.change };
  const carrier = input.exemplars[0]!;
  const plan: Planned[] = [];
  const add = (check: string, scope: string, role: "drop" | "flag", yesFails: boolean, exchange: Exchange, subject: string, says: string): void => {
    plan.push({ check, scope, role, yesFails, pair: { exchange, question: bound(Q(check), subject) }, says });
  };
  add("rules.already_done", "recommendation", "drop", true, carrier, `${recommendationSubject(rec)}\n\nInstalled hooks, checks and the rule: ${[...input.catalogue, ...(input.rule ? [input.rule.text] : [])].join(" | ") || "(none)"}`, "already done");
  if (input.fix === "enforce_rule" && input.rule !== null) add("rules.more_prose", "recommendation", "drop", true, carrier, recommendationSubject(rec, [input.rule.text]), "more prose for a covered rule");
  for (const e of input.exemplars) add("rules.addresses_failure", e.id, "drop", false, e, recommendationSubject(rec), "does not address the exemplars");
  const near = nearestRules(retriever, `${input.target ?? ""} ${input.change}`);
  for (const d of DOCTRINE) {
    if (near.length > 0) add(d.id, "together", "drop", true, carrier, recommendationSubject(rec, near.map((u) => u.text)), d.says);
    for (const u of near) add(d.id, u.id, "drop", true, carrier, recommendationSubject(rec, [u.text]), `${d.says} (${u.id})`);
    add(d.id, "placement", "flag", true, carrier, recommendationSubject(rec, PLACEMENT_RULES), `placement: ${d.says.replace("a rule", "a placement rule")}`);
  }
  add("rules.model_in_hook", "recommendation", "flag", true, carrier, recommendationSubject(rec), "puts a model call inside a hook");

  const answers: Answer[] = await engine.ask(plan.map((p) => p.pair), { caller: COVERAGE_CALLER });
  const checks: CheckResult[] = [];
  const flags = new Set<string>();
  const dropped: string[] = [];
  const addressed = { yes: 0, scored: 0 };
  plan.forEach((p, i) => {
    const a = answers[i];
    const pYes = a?.status === "scored" ? a.p_yes : null;
    if (pYes === null) {
      checks.push({ check: p.check, scope: p.scope, role: p.role, status: "unscored", p_yes: null, reason: a?.status === "unscored" ? a.reason : "no answer" });
      if (p.role === "drop" && p.check !== "rules.addresses_failure") dropped.push(`${p.check} not answered (${p.scope}): ${a?.status === "unscored" ? a.reason : "no answer"}`);
      return;
    }
    const yes = pYes >= cut;
    const failed = yes === p.yesFails;
    checks.push({ check: p.check, scope: p.scope, role: p.role, status: failed ? "fail" : "pass", p_yes: Math.round(pYes * 1e4) / 1e4, reason: failed ? p.says : null });
    if (p.check === "rules.addresses_failure") {
      addressed.scored++;
      if (yes) addressed.yes++;
      return;
    }
    if (!failed) return;
    if (p.role === "flag") flags.add(p.says);
    else dropped.push(`${p.says} (${p.check} P(yes)=${pYes.toFixed(2)})`);
  });
  // Most exemplars, not any: one odd member of a cluster should not sink a fix for the rest.
  if (addressed.scored === 0) dropped.push("rules.addresses_failure not answered for any exemplar");
  else if (addressed.yes * 2 < addressed.scored) dropped.push(`does not address the exemplars (${addressed.yes} of ${addressed.scored} would have been prevented)`);
  return { checks, flags: [...flags], dropped };
}
