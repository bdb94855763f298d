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

export const rulesHash: string = hashBank(rulesQuestions);

/** The subject line a rules noul is asked with, as the judge reads it. */
export function ruleSubject(ruleText: string): string {
  return `Rule: ${ruleText}`;
}
