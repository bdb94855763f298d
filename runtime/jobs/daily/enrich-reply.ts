import { z } from "zod";

/**
 * What the OpenAI lane must reply for one erratum: the enrichment's fields, validated with
 * zod before anything reaches the ledger. A reply that is not this shape is malformed: the
 * entry stays unenriched and the stage counts it (never a guess, never a partial write).
 *
 * Example reply: `{"how_upset": 2, "which_part": "the git push", "what_upset": "pushed
 * without asking", "reporter_right": true, "reporter_right_reason": "the rule says ask first",
 * "root_cause_hypothesis": "standing rule not in context", "class": "broke_standing_rule",
 * "proposed_fix": "re-read the rules before any push", "confidence": 0.8}`
 */
export const ProseReplySchema = z.strictObject({
  how_upset: z.number().int().min(0).max(3),
  which_part: z.string().max(500),
  what_upset: z.string().max(1000),
  reporter_right: z.boolean().nullable(),
  reporter_right_reason: z.string().max(1000),
  root_cause_hypothesis: z.string().max(1000),
  class: z.string().nullable(),
  proposed_fix: z.string().max(1000),
  confidence: z.number().min(0).max(1),
});
export type ProseReply = z.infer<typeof ProseReplySchema>;

/** The fields an enrichment carries, and which lane may fill each. */
export const ENRICH_FIELDS = [
  "how_upset",
  "which_part",
  "what_upset",
  "reporter_right",
  "reporter_right_reason",
  "root_cause_hypothesis",
  "class",
  "proposed_fix",
  "confidence",
] as const;
export type EnrichField = (typeof ENRICH_FIELDS)[number];

/** Parses a reply text (a JSON object, optionally inside a ```json fence). */
export function parseProseReply(text: string): { ok: true; reply: ProseReply } | { ok: false; reason: string } {
  const stripped = text.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  let value: unknown;
  try {
    value = JSON.parse(stripped);
  } catch {
    return { ok: false, reason: "reply is not JSON" };
  }
  const parsed = ProseReplySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `reply does not match the enrichment schema (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "?"})` };
  }
  return { ok: true, reply: parsed.data };
}
