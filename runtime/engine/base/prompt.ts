import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";
import { canonicalJson, sha256Hex } from "./hash.js";
import { scrubForJudge, type ScrubContext } from "./scrub.js";

/**
 * The prompt a model judge reads for one (exchange, question), and its hash.
 *
 * How P(yes) is read decides the reply format, so it is part of the prompt:
 * - "logprobs": the judge answers with one word, yes or no; P(yes) comes from the first
 *   token's top_logprobs;
 * - "structured": the judge replies `{"answer": "yes"|"no", "confidence": 0..1}` (strict JSON
 *   schema); P(yes) = confidence for yes, 1 - confidence for no.
 *
 * The prompt hash covers the template, the question (id, version, text) and the mode, not the
 * exchange: an answer is keyed by prompt hash and exchange hash together.
 *
 * Example: `judgePrompt({exchange, question: detect.unhappy}, "logprobs").promptHash` -> "1f0c…" (16 hex).
 */
export type AnswerMode = "logprobs" | "structured";

export const PROMPT_TEMPLATE = "judge-prompt/1";

const SYSTEM = [
  "You judge one moment in a conversation between a person and an AI assistant.",
  "You see the person's previous request, the end of the assistant's reply, the assistant's last tool calls, and what the person typed next.",
  "Answer the question about that moment. Judge only from what is shown.",
].join(" ");

const MODE_INSTRUCTION: Record<AnswerMode, string> = {
  logprobs: "Reply with exactly one word: yes or no.",
  structured: 'Reply with JSON only: {"answer": "yes" or "no", "confidence": your probability (0 to 1) that your answer is right}.',
};

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

export interface JudgePrompt {
  messages: ChatMessage[];
  promptHash: string;
}

/** The hash of everything in the prompt that is not the exchange. */
const promptHashes = new Map<string, string>();

export function promptHashFor(question: Pick<Question, "id" | "version" | "text">, mode: AnswerMode): string {
  const memoKey = `${mode}\u0000${question.id}\u0000${question.version}\u0000${question.text}`;
  let h = promptHashes.get(memoKey);
  if (h === undefined) {
    h = sha256Hex(canonicalJson({ template: PROMPT_TEMPLATE, system: SYSTEM, instruction: MODE_INSTRUCTION[mode], question: { id: question.id, version: question.version, text: question.text } }), 16);
    if (promptHashes.size > 10_000) promptHashes.clear();
    promptHashes.set(memoKey, h);
  }
  return h;
}

function section(title: string, body: string | null): string {
  return `## ${title}\n${body === null || body.trim() === "" ? "(none)" : body}`;
}

export function judgePrompt(exchange: Exchange, question: Question, mode: AnswerMode, scrub: Pick<ScrubContext, "home"> = {}): JudgePrompt {
  const ctx: ScrubContext = { ...scrub, sessionId: exchange.session_id };
  const s = (t: string | null): string | null => (t === null ? null : scrubForJudge(t, ctx));
  const tools = exchange.tool_calls.length === 0 ? null : exchange.tool_calls.map((t) => `- ${s(t.name)}: ${s(t.summary)}`).join("\n");
  const user = [
    section("The person's previous request", s(exchange.previous_ask)),
    section("The end of the assistant's reply", s(exchange.reply_end)),
    section("The assistant's last tool calls", tools),
    section("What the person typed next", s(exchange.prompt)),
    `## Question\n${question.text}`,
    MODE_INSTRUCTION[mode],
  ].join("\n\n");
  return { messages: [{ role: "system", content: SYSTEM }, { role: "user", content: user }], promptHash: promptHashFor(question, mode) };
}
