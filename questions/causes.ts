import type { Question } from "../schemas/question.js";
import { hashBank } from "./hash.js";

/**
 * The ladder's cause nouls: before a correction touches a rule it is sorted into one of five
 * classes, and only a rule gap becomes or touches a rule (the seed: "Sort by cause before
 * writing a rule"). One noul per class, asked of the owner's correction with the reply before
 * it; exactly one should be yes. Offline they are answered by the ladder's small cause model
 * (runtime/ladder/causes.ts), whose quality is measured on synthetic items only. Their own
 * hash, `causesHash`; not in the detection bank.
 *
 * Example: `causeQuestions.map((q) => q.id)` -> ["cause.rule_gap", "cause.missing_tool",
 * "cause.environment", "cause.beyond_model", "cause.wrong_fact"].
 */
export const causeQuestions: readonly Question[] = [
  {
    id: "cause.rule_gap",
    version: 1,
    group: "rules",
    text: "Did the assistant go against a preference or standing instruction of the owner's that a written rule could carry (how to work here, what to use, what never to do)?",
    guidance: "Yes when the owner restates or corrects a way of working that a line in an instruction file or a check would have kept: a tool choice, a language, a process step. No when the slip came from a missing capability, a broken environment, a task too hard for the model, or a wrong fact.",
    positive: [
      { reply_end: "Installed it with npm install.", prompt: "I told you, we use pnpm here." },
      { reply_end: "Here is the summary in English.", prompt: "Reply in the language I write in." },
    ],
    negative: [
      { reply_end: "The API returned 503.", prompt: "their server is down again, never mind" },
      { reply_end: "Use Array.prototype.flatten().", prompt: "that method does not exist" },
    ],
  },
  {
    id: "cause.missing_tool",
    version: 1,
    group: "rules",
    text: "Did the slip come from the assistant lacking a tool, access or permission it would need (no browser, no database access, a missing plugin or MCP server)?",
    guidance: "Yes when no rule could have helped because the assistant could not do the thing with what it had. No when it had the means and chose badly.",
    positive: [
      { reply_end: "I can't open that dashboard from here.", prompt: "you don't have access to grafana, I need to give you a tool for that" },
      { reply_end: "I guessed the table layout.", prompt: "you can't query prod, so don't guess; we need a DB tool" },
    ],
    negative: [
      { reply_end: "Installed it with npm install.", prompt: "I told you, we use pnpm here." },
      { reply_end: "The build timed out.", prompt: "CI is flaky today" },
    ],
  },
  {
    id: "cause.environment",
    version: 1,
    group: "rules",
    text: "Did the slip come from the environment (an outage, a restart, a timeout, a full disk, a flaky network or CI) rather than from the assistant's choices?",
    guidance: "Yes when the same request would have worked another day. No when the assistant caused it.",
    positive: [
      { reply_end: "The API returned 503.", prompt: "their server is down again, never mind" },
      { reply_end: "The session restarted and lost the branch.", prompt: "the machine rebooted overnight, start over" },
    ],
    negative: [
      { reply_end: "Use Array.prototype.flatten().", prompt: "that method does not exist" },
      { reply_end: "Here is the summary in English.", prompt: "Reply in the language I write in." },
    ],
  },
  {
    id: "cause.beyond_model",
    version: 1,
    group: "rules",
    text: "Was the task beyond what the model can do reliably (too long, too complex, needs reasoning it keeps failing), so that a rule would not fix it?",
    guidance: "Yes when the owner gives up on the model doing it or asks to split or simplify it because it keeps failing. No for a preference, a tool, the environment or a fact.",
    positive: [
      { reply_end: "Here is the whole refactor of the 40 modules.", prompt: "this is too much for you in one go, let's split it" },
      { reply_end: "The proof is complete.", prompt: "still wrong after five tries, this is beyond you, I'll do it" },
    ],
    negative: [
      { reply_end: "Installed it with npm install.", prompt: "I told you, we use pnpm here." },
      { reply_end: "The API returned 503.", prompt: "their server is down again, never mind" },
    ],
  },
  {
    id: "cause.wrong_fact",
    version: 1,
    group: "rules",
    text: "Did the assistant state or use a wrong fact (an API that does not exist, a wrong version, a wrong date or name)?",
    guidance: "Yes when the owner corrects a fact. A fact that should be remembered may later become a note, but the cause is the fact, not a missing rule.",
    positive: [
      { reply_end: "Use Array.prototype.flatten().", prompt: "that method does not exist, it's flat()" },
      { reply_end: "Node 18 is the current LTS.", prompt: "that's outdated, it's 22 now" },
    ],
    negative: [
      { reply_end: "Here is the summary in English.", prompt: "Reply in the language I write in." },
      { reply_end: "The build timed out.", prompt: "CI is flaky today" },
    ],
  },
];

export const causesHash: string = hashBank(causeQuestions);
