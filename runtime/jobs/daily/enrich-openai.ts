import OpenAI from "openai";
import type { Erratum } from "../../../schemas/erratum.js";
import { CLASS_IDS } from "../../../questions/index.js";
import { withDeadline } from "../../engine/index.js";
import { redactTextForWrite } from "../../privacy/index.js";
import { parseProseReply, type ProseReply } from "./enrich-reply.js";

/**
 * The OpenAI lane of enrichment: one chat completion per erratum through the `openai` SDK
 * against any OpenAI-compatible server (base URL), asking for the enrichment as one JSON
 * object, validated with `ProseReplySchema`. The SDK retries 408/409/429/5xx with backoff
 * (`maxRetries: 2`) and times out per request. What is sent: the complaint, the ask before
 * it, the end of the reply and the tool calls; never the erratum id, session id, cwd or
 * reporter. The transport is injectable (`fetch`) so tests drive the real SDK on loopback.
 *
 * Example: `await lane.enrich(erratum)` -> `{ok: true, reply: {how_upset: 2, ...}}` or
 * `{ok: false, reason: "reply is not JSON"}`.
 */
export interface ProseLane {
  readonly model: string;
  enrich(e: Erratum): Promise<{ ok: true; reply: ProseReply } | { ok: false; reason: string }>;
}

export interface OpenAiLaneOptions {
  apiKey: string;
  model: string;
  baseURL?: string;
  timeoutMs?: number;
  serviceTier?: "auto" | "default" | "flex" | "scale" | "priority";
  fetch?: typeof fetch;
  maxRetries?: number;
}

export const ENRICH_SYSTEM_PROMPT = [
  "You read one complaint a person made about an AI assistant, with what they had asked and the end of the assistant's reply.",
  "Reply with ONE JSON object and nothing else, with exactly these keys:",
  'how_upset (0 calm .. 3 furious, integer), which_part (which part of the reply or behaviour they objected to), what_upset (one sentence),',
  "reporter_right (true/false, or null when it cannot be told), reporter_right_reason, root_cause_hypothesis, class (one of: " +
    CLASS_IDS.join(", ") +
    "; or null), proposed_fix, confidence (0..1).",
].join("\n");

export function enrichUserPrompt(e: Erratum): string {
  const parts = [
    `Complaint: ${e.complaint}`,
    `Kind: ${e.kind}`,
    `What they had asked before: ${e.context.requested ?? "(unknown)"}`,
    `End of the assistant's reply: ${e.context.response_preview ?? "(unknown)"}`,
    `Last tool calls: ${e.context.doing ?? "(none)"}`,
  ];
  return parts.join("\n");
}

export function openAiProseLane(opts: OpenAiLaneOptions): ProseLane {
  const client = new OpenAI({
    apiKey: opts.apiKey,
    ...(opts.baseURL !== undefined ? { baseURL: opts.baseURL } : {}),
    timeout: opts.timeoutMs ?? 60_000,
    maxRetries: opts.maxRetries ?? 2,
    ...(opts.fetch !== undefined ? { fetch: opts.fetch } : {}),
  });
  return {
    model: opts.model,
    async enrich(e) {
      // A deadline over the SDK's attempts, body included (its own time-out stops at the headers).
      const ms = opts.timeoutMs ?? 60_000;
      const res = await withDeadline(ms * ((opts.maxRetries ?? 2) + 1), (signal) =>
        client.chat.completions.create(
          {
            model: opts.model,
            messages: [
              { role: "system", content: ENRICH_SYSTEM_PROMPT },
              // Redacted as it leaves, as the engine's lanes do (openai/lane.ts): a row written
              // before the owner's value was known, or by an older version, holds it in clear.
              { role: "user", content: redactTextForWrite(enrichUserPrompt(e)) },
            ],
            response_format: { type: "json_object" },
            ...(opts.serviceTier !== undefined ? { service_tier: opts.serviceTier } : {}),
          },
          { signal },
        ),
      );
      const text = res.choices[0]?.message?.content;
      if (typeof text !== "string" || text.length === 0) return { ok: false, reason: "empty reply" };
      return parseProseReply(text);
    },
  };
}
