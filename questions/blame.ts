import type { Question } from "../schemas/question.js";

/**
 * Blame: whose doing is the thing that went wrong? Several may be true. Only
 * `blame.assistant` makes a failure a defect of the assistant; the outside world, a change
 * of mind and the host's machinery (hooks, permissions, tools, limits) are failures the
 * assistant did not cause.
 *
 * Example: `blameQuestions.map(q => q.id)` → `["blame.assistant", "blame.world",
 * "blame.change_of_mind", "blame.host"]`.
 */
export const blameQuestions: readonly Question[] = [
  {
    id: "blame.assistant",
    version: 1,
    group: "blame",
    text: "If something went wrong, was it the assistant's own doing: its reply, its reasoning or its actions?",
    guidance:
      "Yes when the assistant's reply or actions caused the problem the person reacts to (it misread, invented, broke, skipped or overstepped). " +
      "No when nothing went wrong, or when the cause was outside the assistant: the world, the person's change of mind, or the host's machinery.",
    positive: [
      { reply_end: "Use the --auto-migrate flag.", prompt: "That flag doesn't exist." },
      { reply_end: "Done, pushed to main.", prompt: "I said ask before pushing!" },
    ],
    negative: [
      { reply_end: "The API returned 503; the service seems down.", prompt: "Ugh, their status page says outage." },
      { reply_end: "Here's the blue theme you asked for.", prompt: "Actually I've changed my mind, make it green." },
    ],
  },
  {
    id: "blame.world",
    version: 1,
    group: "blame",
    text: "Was the problem caused by the outside world rather than the assistant: a service down, missing or bad data, a task that cannot be done?",
    guidance:
      "Yes when a third-party service, the network, the data, the person's environment or the nature of the task caused the trouble. " +
      "No when the assistant could reasonably have avoided it, or nothing went wrong.",
    positive: [
      { reply_end: "npm install failed: registry returned 503.", prompt: "npm is down again, great." },
      { reply_end: "No restaurant in that area matches all your criteria.", prompt: "Hm, that's annoying. Try the next town." },
    ],
    negative: [
      { reply_end: "Here's the function.", prompt: "It doesn't compile, you forgot an import." },
      { reply_end: "Booked for Friday.", prompt: "Thanks!" },
    ],
  },
  {
    id: "blame.change_of_mind",
    version: 1,
    group: "blame",
    text: "Is the person changing their own mind or adding new information, rather than reacting to a mistake?",
    guidance:
      "Yes when the new prompt reverses or refines the person's earlier wish without saying the assistant got it wrong ('actually', 'on second thought', new constraints the assistant could not know). " +
      "No when the person says the assistant misunderstood or ignored what they said.",
    positive: [
      { reply_end: "Here's the blue theme.", prompt: "Actually, let's go with green after all." },
      { reply_end: "Booked for 2 people.", prompt: "Oh, my sister is coming too, make it 3." },
    ],
    negative: [
      { reply_end: "Booked for 2 people.", prompt: "I said 3 people. Read my message." },
      { reply_end: "Here's the blue theme.", prompt: "I asked for green, why blue?" },
    ],
  },
  {
    id: "blame.host",
    version: 1,
    group: "blame",
    text: "Was the problem caused by the host's machinery around the assistant: a hook, a permission prompt, a tool or harness error, a rate limit, lost context?",
    guidance:
      "Yes when the setup the assistant runs in got in the way: a hook blocked a command, a tool crashed, the API hit a limit, a context compaction lost earlier instructions. " +
      "No when the assistant itself erred or the outside world did.",
    positive: [
      { reply_end: "The PreToolUse hook blocked the command.", prompt: "That hook is misconfigured again, disable it." },
      { reply_end: "API error: rate limit exceeded.", prompt: "Ugh, the limits. Retry in a minute." },
    ],
    negative: [
      { reply_end: "I ran rm -rf build/ and src/.", prompt: "Why did you delete src?!" },
      { reply_end: "The answer is 42.", prompt: "Thanks." },
    ],
  },
];
