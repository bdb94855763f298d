import { z } from "zod";

/**
 * Reading P(yes) from a chat completion. Pure: takes the parsed response body.
 *
 * - logprobs: the first generated token's `top_logprobs`; tokens that read "yes" or "no"
 *   (case, spaces and punctuation ignored) are summed per side, and P(yes) = yes / (yes + no).
 *   A reply whose top tokens hold neither is unscored.
 * - structured: the content must parse as `{"answer": "yes"|"no", "confidence": 0..1}` (zod,
 *   strict: no other keys); P(yes) = confidence for yes, 1 - confidence for no.
 *
 * Example: top_logprobs `[{token: "Yes", logprob: -0.105}, {token: "No", logprob: -2.303}]`
 * -> `{ok: true, pYes: 0.9, from: "logprobs"}`.
 */
export type ReplyReading = { ok: true; pYes: number; from: "logprobs" | "structured"; raw: string } | { ok: false; reason: string; raw: string };

export const StructuredReplySchema = z.strictObject({
  answer: z.enum(["yes", "no"]),
  confidence: z.number().min(0).max(1),
});

/** The JSON schema sent as `response_format` (strict). */
export const STRUCTURED_RESPONSE_FORMAT = {
  type: "json_schema" as const,
  json_schema: {
    name: "yes_no_answer",
    strict: true,
    schema: {
      type: "object",
      properties: { answer: { type: "string", enum: ["yes", "no"] }, confidence: { type: "number", minimum: 0, maximum: 1 } },
      required: ["answer", "confidence"],
      additionalProperties: false,
    },
  },
};

const TopLogprob = z.object({ token: z.string(), logprob: z.number() });
const CompletionShape = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }).optional(),
        logprobs: z
          .object({ content: z.array(z.object({ token: z.string(), logprob: z.number(), top_logprobs: z.array(TopLogprob).optional() })).nullable().optional() })
          .nullable()
          .optional(),
      }),
    )
    .min(1),
});

function side(token: string): "yes" | "no" | null {
  const t = token.trim().toLowerCase().replace(/[^a-z]/g, "");
  return t === "yes" ? "yes" : t === "no" ? "no" : null;
}

function contentOf(body: unknown): string {
  const parsed = CompletionShape.safeParse(body);
  return parsed.success ? (parsed.data.choices[0]?.message?.content ?? "") : "";
}

/** Whether the body carries top_logprobs for its first token (what the probe looks for). */
export function hasTopLogprobs(body: unknown): boolean {
  const parsed = CompletionShape.safeParse(body);
  const first = parsed.success ? parsed.data.choices[0]?.logprobs?.content?.[0] : undefined;
  return first?.top_logprobs !== undefined && first.top_logprobs.length > 0;
}

export function readLogprobs(body: unknown): ReplyReading {
  const parsed = CompletionShape.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "malformed reply: not a chat completion", raw: JSON.stringify(body ?? null).slice(0, 2000) };
  const choice = parsed.data.choices[0];
  const raw = choice?.message?.content ?? "";
  const first = choice?.logprobs?.content?.[0];
  if (!first?.top_logprobs || first.top_logprobs.length === 0) return { ok: false, reason: "the server returned no top_logprobs", raw };
  let yes = 0;
  let no = 0;
  for (const t of first.top_logprobs) {
    if (!Number.isFinite(t.logprob)) continue;
    const s = side(t.token);
    if (s === "yes") yes += Math.exp(t.logprob);
    else if (s === "no") no += Math.exp(t.logprob);
  }
  if (yes + no === 0) return { ok: false, reason: `neither yes nor no among the top tokens (${first.top_logprobs.map((t) => JSON.stringify(t.token)).slice(0, 5).join(", ")})`, raw };
  return { ok: true, pYes: yes / (yes + no), from: "logprobs", raw };
}

export function readStructured(body: unknown): ReplyReading {
  const raw = contentOf(body);
  if (raw === "") return { ok: false, reason: "malformed reply: no message content", raw };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "malformed structured reply: not JSON", raw };
  }
  const r = StructuredReplySchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, reason: `malformed structured reply: ${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid"}`, raw };
  }
  return { ok: true, pYes: r.data.answer === "yes" ? r.data.confidence : 1 - r.data.confidence, from: "structured", raw };
}
