/**
 * The capture's mapping from a verdict to the erratum row a door writes (the hook, and
 * `errata mine` for transcripts), following the seed's "The doors": a numeric rating is one
 * row, kind praise at >= 7 (rating null: praise never carries a number) and complaint below
 * (the rating kept); an explicit correction is kind correction, a standing
 * directive kind directive;
 * praise is kind praise. Anything else is no row (that choice is row-kind.ts, one switch on
 * the verdict's kind, which the hook asks before it loads this part). The person typed it,
 * so the source is "owner" (a machine source may not carry a rating) and the channel names
 * the door. zod-free: it is on the hook path (the capture part's bundle).
 *
 * Example: verdict `{kind: "rating", rating: 3, ...}` -> `{kind: "complaint", rating: 3,
 * deepContext: true}`; `{kind: "rating", rating: 8}` -> `{kind: "praise", rating: null,
 * deepContext: false}`; `{kind: "none"}` -> null.
 */
import type { Erratum } from "../../schemas/erratum.js";
import { sha256Tagged } from "../../core/sha256.js";
import { newErratum, type NewErratumInput } from "../store/new-erratum.js";
import type { CaptureVerdict } from "../classifier/verdict.js";
import { rowKind } from "./row-kind.js";
import { clipHead, clipTail } from "../transcripts/clip.js";

/** A complaint longer than this keeps its head and says how much was cut (a ledger line stays small). */
export const MAX_COMPLAINT_CHARS = 20_000;
export const RESPONSE_PREVIEW_CHARS = 2_000;
export const REQUESTED_CHARS = 2_000;

export function clipComplaint(text: string): string {
  if (text.length <= MAX_COMPLAINT_CHARS) return text;
  return `${text.slice(0, MAX_COMPLAINT_CHARS)} […${text.length - MAX_COMPLAINT_CHARS} more characters not kept]`;
}

export function responseHash(reply: string): string {
  return sha256Tagged(reply);
}

export interface CaptureContext {
  sessionId: string | null;
  cwd: string | null;
  reply: string | null;
  /** `sha256:<hex>` of `reply` when already known (or of the reply the Stop hook recorded, when `reply` is null); else computed here. */
  replyHash?: string | null;
  /** False when `reply` is only the end of the reply: then no hash is written (it would not match the whole reply's). */
  replyComplete?: boolean;
  requested: string | null;
  toolCalls: ReadonlyArray<{ name: string; summary: string }>;
  outputIds: string[];
  version: string | null;
  model: string | null;
}

export interface BuiltRow {
  erratum: Erratum;
  deepContext: boolean;
}

export function captureRow(
  v: CaptureVerdict,
  typedText: string,
  ctx: CaptureContext,
  base: Pick<NewErratumInput, "nowMs" | "reporter" | "ts" | "instance" | "random"> & { channel: string },
): BuiltRow | null {
  const k = rowKind(v);
  if (k === null || typedText.trim() === "") return null;
  const doing = ctx.toolCalls.slice(-3).map((t) => `${t.name}: ${t.summary}`);
  const input: NewErratumInput = {
    nowMs: base.nowMs,
    reporter: base.reporter,
    source: "owner",
    channel: base.channel,
    kind: k.kind,
    rating: k.rating,
    frustration: v.frustration,
    complaint: clipComplaint(typedText),
    context: {
      requested: ctx.requested === null ? null : clipHead(ctx.requested, REQUESTED_CHARS), // at whitespace (clip.ts)
      doing: doing.length > 0 ? doing.join("\n") : null,
      response_preview: ctx.reply === null ? null : clipTail(ctx.reply, RESPONSE_PREVIEW_CHARS),
      // With no text (the transcript could not be read) the Stop hook's record may still name the reply.
      response_hash: ctx.replyComplete === false ? null : ctx.reply === null ? (ctx.replyHash ?? null) : (ctx.replyHash ?? responseHash(ctx.reply)),
      session_id: ctx.sessionId,
      output_ids: ctx.outputIds,
      cwd: ctx.cwd,
      version: ctx.version,
      model: ctx.model,
    },
  };
  if (base.ts !== undefined) input.ts = base.ts;
  if (base.instance !== undefined) input.instance = base.instance;
  if (base.random !== undefined) input.random = base.random;
  return { erratum: newErratum(input), deepContext: k.deepContext };
}
