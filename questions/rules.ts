import type { Question } from "../schemas/question.js";
import { hashBank } from "./hash.js";

/**
 * The rules wing's nouls, asked about a failure and a second thing named in the question (its
 * subject): `rules.rule_covers` about one rule unit of the owner's instruction files,
 * `rules.same_root_cause` about another failure of the same bucket. They are not in the
 * detection bank (`bank`, whose hash promoted configurations record): they have their own
 * hash, `rulesHash`, and their own cuts.
 *
 * Example: `rulesQuestions.map((q) => q.id)` → `["rules.rule_covers", "rules.same_root_cause"]`.
 */
export const rulesQuestions: readonly Question[] = [
  {
    id: "rules.rule_covers",
    version: 1,
    group: "rules",
    text: "Does the rule below already say what the assistant should have done (or not done) here, so that following it would have avoided what went wrong?",
    guidance:
      "Read the failure (the owner's prompt, the reply before it, the tool calls) and the rule. Answer yes when the rule, read as written, asks for the behaviour the owner wanted or forbids what the assistant did: 'Use pnpm, never npm' covers 'why did you run npm install again?'. " +
      "The owner need not quote the rule. Answer no when the rule is only about the same topic ('Prefer small commits' does not cover 'you committed the .env file'), when it would take a new rule to avoid the failure, or when the failure is not the assistant's doing.",
    positive: [
      { reply_end: "Installed it with `npm install lodash`.", prompt: "We use pnpm here, why npm again?", note: "Rule: - Use pnpm for every install; never npm or yarn." },
      { reply_end: "Done, the fix is in and I pushed it to main.", prompt: "You pushed straight to main??", note: "Rule: 1. Never push to main; open a pull request from a branch." },
      { reply_end: "已用 npm 安装依赖。", prompt: "说过了不要用 npm", note: "Rule: - 不要使用 npm 安装依赖，统一使用 pnpm。" },
    ],
    negative: [
      { reply_end: "Installed it with `npm install lodash`.", prompt: "We use pnpm here, why npm again?", note: "Rule: - Keep functions under fifty lines. (Another topic.)" },
      { reply_end: "Committed the config changes.", prompt: "You committed the .env file with the keys in it!", note: "Rule: - Prefer small, focused commits. (Same topic, does not forbid this.)" },
      { reply_end: "The API returned 503, so the sync did not finish.", prompt: "ugh, their service is down again", note: "Rule: - Retry network calls at most three times. (Not the assistant's failure.)" },
    ],
  },
  {
    id: "rules.same_root_cause",
    version: 1,
    group: "rules",
    text: "Do this failure and the other failure below come from the same root cause, so that one fix would have prevented both?",
    guidance:
      "Compare what went wrong, not the words used. Yes when both show the same slip for the same reason (both ran npm where pnpm is required; both skipped the tests before saying done), even in different files or sessions. " +
      "No when they only share a topic or a component (a wrong test command and a missing test file both touch tests but need different fixes), or when either is not the assistant's doing.",
    positive: [
      { reply_end: "Ran `npm install` to add the dependency.", prompt: "npm again? pnpm!", note: "Other: 'I said pnpm, not npm' after 'Added it with npm i date-fns'." },
      { reply_end: "All done, tests should pass.", prompt: "Did you even run them? Two fail.", note: "Other: 'you said done but CI is red' after 'Fixed, it works now'." },
    ],
    negative: [
      { reply_end: "Ran `npm install` to add the dependency.", prompt: "npm again? pnpm!", note: "Other: 'the test file you added is empty' after 'Added tests'. (Another cause.)" },
      { reply_end: "Renamed the function everywhere.", prompt: "You missed the docs.", note: "Other: 'that API does not exist' after 'Use Decimal.roundSafe()'. (Another cause.)" },
    ],
  },
];

/**
 * The checks of a recommendation (docs/rules.md, part 2), asked about an exemplar failure with
 * the recommendation (and, for the doctrine questions, rules) as the subject. Code decides
 * what an answer does: `already_done`, `more_prose` and the three doctrine questions drop a
 * recommendation on yes, `addresses_failure` drops it when most exemplars say no; the
 * doctrine questions over the placement rules and `model_in_hook` only flag.
 */
export const recommendCheckQuestions: readonly Question[] = [
  {
    id: "rules.already_done",
    version: 1,
    group: "rules",
    text: "Is the recommended change below already in place: does one of the installed hooks, checks or rules listed with it already do what the change asks?",
    guidance: "Yes when an installed hook, check or rule already asks for or enforces the same thing, in other words. No when nothing listed does it, or when what is listed only touches the same topic.",
    positive: [
      { reply_end: "Ran `npm install`.", prompt: "pnpm!", note: "Change: block `npm install` before it runs. Installed: hookify.block-npm (blocks npm install)." },
      { reply_end: "Pushed to main.", prompt: "not to main", note: "Change: refuse `git push` to main. Installed: pre-push check denying pushes to main." },
    ],
    negative: [
      { reply_end: "Ran `npm install`.", prompt: "pnpm!", note: "Change: block `npm install` before it runs. Installed: hookify.warn-rm (warns on rm -rf)." },
      { reply_end: "Said done.", prompt: "tests fail", note: "Change: run the tests before saying done. Installed: none." },
    ],
  },
  {
    id: "rules.more_prose",
    version: 1,
    group: "rules",
    text: "The failure broke a rule the owner already has. Is the recommended change below only more prose for that rule (another sentence, a restatement, capitals or stronger words) rather than a check, a hook, or a change to why the rule loses?",
    guidance: "Yes for 'Add IMPORTANT: never use npm' to a file that already says 'never use npm'. No for a check that blocks the command, for moving the rule where it is loaded when it matters, or for removing the line that contradicts it.",
    positive: [
      { reply_end: "Ran `npm install`.", prompt: "pnpm!", note: "Rule: Use pnpm, never npm. Change: add 'ALWAYS use pnpm. NEVER npm.' to CLAUDE.md." },
      { reply_end: "Pushed to main.", prompt: "not to main", note: "Rule: Never push to main. Change: repeat the rule at the top of the file in bold." },
    ],
    negative: [
      { reply_end: "Ran `npm install`.", prompt: "pnpm!", note: "Rule: Use pnpm, never npm. Change: a PreToolUse check that denies `npm install`." },
      { reply_end: "Used tabs.", prompt: "spaces here", note: "Rule: Use spaces. Change: delete the contradicting 'tabs are fine' line in the editor notes." },
    ],
  },
  {
    id: "rules.addresses_failure",
    version: 1,
    group: "rules",
    text: "Had the recommended change below been in place, would it have prevented what went wrong in this moment?",
    guidance: "Read what the owner complained about, then the change. Yes when the change, applied, stops this slip. No when it is about something else, or only about the same topic.",
    positive: [
      { reply_end: "Ran `npm install`.", prompt: "pnpm!", note: "Change: a check that denies `npm install` and says to use pnpm." },
      { reply_end: "Done, tests should pass.", prompt: "you did not run them", note: "Change: do not say done before the test command has run and passed." },
    ],
    negative: [
      { reply_end: "Ran `npm install`.", prompt: "pnpm!", note: "Change: keep functions under fifty lines." },
      { reply_end: "Done, tests should pass.", prompt: "you did not run them", note: "Change: write commit messages in the imperative." },
    ],
  },
  {
    id: "rules.recreates_retired",
    version: 1,
    group: "rules",
    text: "Does the recommended change below re-create something the rules below retired (removed, replaced, or say is no longer done)?",
    guidance: "Yes when a rule says a thing was dropped or replaced and the change brings it back ('we no longer use the pre-commit lint hook' against 'add a pre-commit lint hook'). No when no rule retires what the change adds.",
    positive: [
      { reply_end: "Added a lint step.", prompt: "lint again?", note: "Rules: The pre-commit lint hook was removed; CI lints. Change: add a pre-commit lint hook." },
      { reply_end: "Used yarn.", prompt: "no", note: "Rules: We moved off Makefiles to npm scripts. Change: add a Makefile target for the build." },
    ],
    negative: [
      { reply_end: "Added a lint step.", prompt: "lint again?", note: "Rules: CI lints every push. Change: do not run the linter locally before pushing." },
      { reply_end: "Used yarn.", prompt: "no", note: "Rules: Use pnpm. Change: deny yarn and npm installs." },
    ],
  },
  {
    id: "rules.requires_forbidden",
    version: 1,
    group: "rules",
    text: "Does the recommended change below require something the rules below forbid?",
    guidance: "Yes when doing what the change asks would break one of the rules ('never run commands that need the network' against 'always run npm audit before done'). No when the change and the rules can both be followed.",
    positive: [
      { reply_end: "Skipped the audit.", prompt: "audit?", note: "Rules: Never make network calls in tests. Change: always call the live API in the test suite." },
      { reply_end: "Did not commit.", prompt: "commit it", note: "Rules: Never commit without being asked. Change: commit after every edit." },
    ],
    negative: [
      { reply_end: "Skipped the audit.", prompt: "audit?", note: "Rules: Never make network calls in tests. Change: run the offline audit before done." },
      { reply_end: "Did not commit.", prompt: "commit it", note: "Rules: Never push to main. Change: commit to a branch when asked." },
    ],
  },
  {
    id: "rules.mandates_optional",
    version: 1,
    group: "rules",
    text: "Does the recommended change below make mandatory something the rules below leave optional (a 'may', 'prefer' or 'when useful')?",
    guidance: "Yes when a rule leaves a choice and the change removes it ('you may add a changelog entry' against 'every change must add a changelog entry'). No when the rules say nothing either way, or already require it.",
    positive: [
      { reply_end: "No changelog.", prompt: "changelog?", note: "Rules: You may add a changelog entry for small fixes. Change: every change must add a changelog entry." },
      { reply_end: "No diagram.", prompt: "diagram?", note: "Rules: Prefer a diagram when it helps. Change: every design note must include a diagram." },
    ],
    negative: [
      { reply_end: "No changelog.", prompt: "changelog?", note: "Rules: Every user-facing change needs a changelog entry. Change: do not finish a user-facing change without one." },
      { reply_end: "No tests.", prompt: "tests?", note: "Rules: Use pnpm. Change: do not say done before the tests pass." },
    ],
  },
  {
    id: "rules.model_in_hook",
    version: 1,
    group: "rules",
    text: "Does the recommended change below put a model call (a language model, a judge, any call to a model's API) inside a hook that runs in the assistant's prompt or tool path?",
    guidance: "Yes for 'a PreToolUse hook that asks a model whether the command is safe'. No for a deterministic check (a pattern, a file test) in a hook, or a model call in a nightly job outside the typing path.",
    positive: [
      { reply_end: "Ran rm -rf.", prompt: "careful!", note: "Change: a PreToolUse hook asks an LLM whether each command is destructive." },
      { reply_end: "Wrote a vague reply.", prompt: "be precise", note: "Change: a Stop hook sends every reply to a judge model to score clarity." },
    ],
    negative: [
      { reply_end: "Ran rm -rf.", prompt: "careful!", note: "Change: a PreToolUse check denies commands matching rm -rf /." },
      { reply_end: "Wrote a vague reply.", prompt: "be precise", note: "Change: the nightly job asks a model to review yesterday's replies." },
    ],
  },
];

export const rulesHash: string = hashBank(rulesQuestions);

/** The checks' own hash: a changed check question changes it, and never the coverage nouls'. */
export const recommendChecksHash: string = hashBank(recommendCheckQuestions);

/** The subject line a check is asked with: the recommendation, and for doctrine checks the rules. */
export function recommendationSubject(r: { target: string | null; change: string | null }, rules: readonly string[] = []): string {
  const head = rules.length === 0 ? "" : `Rules:\n${rules.map((t) => `- ${t}`).join("\n")}\n\n`;
  return `${head}Recommendation: target ${r.target ?? "(none)"}; change: ${r.change ?? "(none)"}`;
}

/** The subject line a rules noul is asked with, as the judge reads it. */
export function ruleSubject(ruleText: string): string {
  return `Rule: ${ruleText}`;
}
