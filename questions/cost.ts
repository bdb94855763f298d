import type { Question } from "../schemas/question.js";

/**
 * Cost: what the failure cost the owner. Asked only of composed failures; each yes raises
 * severity by one (see composers/severity.ts).
 *
 * Example: `costQuestions.map(q => q.id)` → `["cost.lost_time", "cost.risky", "cost.blocked"]`.
 */
export const costQuestions: readonly Question[] = [
  {
    id: "cost.lost_time",
    version: 1,
    group: "cost",
    text: "Did this failure cost the person noticeable time or effort: redoing work, re-explaining, waiting, checking by hand?",
    guidance:
      "Yes when the prompt shows, or the exchange makes plain, that the person had to spend effort because of the failure (several attempts, manual checks, long waits, re-explaining). " +
      "No for a slip fixed in one short correction with no sign of wasted effort.",
    positive: [
      { reply_end: "Let's try the timeout again.", prompt: "Third time. I've spent an hour on this with you." },
      { reply_end: "All tests pass.", prompt: "They don't, I just spent 20 minutes finding that out." },
    ],
    negative: [
      { reply_end: "The meeting is at 3pm.", prompt: "2pm." },
      { reply_end: "Voici le résumé.", prompt: "In English please." },
    ],
  },
  {
    id: "cost.risky",
    version: 1,
    group: "cost",
    text: "Did this failure put something at risk or do damage: lost or exposed data, production systems, money, security?",
    guidance:
      "Yes when the failure deleted, overwrote, leaked or endangered something of value, or could have. " +
      "No when the harm is only an unhelpful or wrong answer that nobody acted on.",
    positive: [
      { reply_end: "Ran git reset --hard.", prompt: "I had uncommitted work! It's gone." },
      { reply_end: "I pasted your .env into the issue for context.", prompt: "You just published my API keys!" },
    ],
    negative: [
      { reply_end: "Paris is the capital of Italy.", prompt: "No, Rome is." },
      { reply_end: "Here's a long answer…", prompt: "Too long, shorter please." },
    ],
  },
  {
    id: "cost.blocked",
    version: 1,
    group: "cost",
    text: "Is the person blocked: unable to go on with their task until this failure is fixed?",
    guidance:
      "Yes when the person cannot continue (the build is broken, the deploy is down, the answer they need is still missing). " +
      "No when they can carry on and the failure is a nuisance.",
    positive: [
      { reply_end: "Deployed.", prompt: "The site is down now, nobody can log in. Fix it." },
      { reply_end: "I updated the lockfile.", prompt: "Now nothing installs. I can't work." },
    ],
    negative: [
      { reply_end: "You're absolutely right! Great question!", prompt: "Less flattery please." },
      { reply_end: "Renamed the variable everywhere.", prompt: "Only in billing next time; fine for now." },
    ],
  },
];
