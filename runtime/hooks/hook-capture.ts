/**
 * The hook's write: one erratum for a capturing verdict (secrets redacted by the store's
 * zod-free append), a deep-context attachment for a rating <= 3 or an explicit correction
 * (the reply, the ask, the turn's tool calls, the verdict), and the one line the host shows.
 * If the append fails the attachment is removed, so the ledger and the attachments folder
 * stay as they were.
 *
 * Example: -> "Errata captured this prompt as a correction (er-20261130-3fa9c1); acceptance pending."
 */
import { rmSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "../paths.js";
import { knowProjectValues } from "../privacy/known-store.js";
import { allCleared, redactSecrets } from "../privacy/redact.js";
import { refold } from "../transcripts/tool-summary.js";
import { writeAttachment } from "../store/attachments.js";
import { appendErratumRaw } from "../store/raw-append.js";
import { captureRow } from "./capture-row.js";
import { hookIdentity } from "./hook-identity.js";
import type { ReplyContext } from "./hook-reply.js";
import { hostOutputsFile, readOutputIds } from "./outputs.js";
import { typedPart } from "../classifier/text.js";
import type { CaptureVerdict } from "../classifier/verdict.js";

export interface CaptureInput {
  env: Record<string, string | undefined>;
  cwd: string;
  nowMs: number;
  prompt: string;
  sessionId: string | null;
  hostCwd: string | null;
  transcriptPath: string | null;
  verdict: CaptureVerdict;
  reply: ReplyContext;
  stderr: (line: string) => void;
}

/** Writes the row; returns the line for the host, or null when the verdict writes nothing. */
export function captureToLedger(c: CaptureInput): string | null {
  const paths = resolvePaths(c.env, c.cwd);
  // The .env values of the folder the hook runs in (the client runs it in the project; the
  // intake server in the developer's own folder there, never the payload's cwd): a capture in a
  // project `errata secrets learn` never read is scrubbed of them too (docs/privacy.md).
  knowProjectValues(c.cwd);
  const { tail, reply } = c.reply;
  const since = tail.previousPromptTs === null ? null : Date.parse(tail.previousPromptTs);
  const outputIds = readOutputIds(hostOutputsFile(c.env, paths.ledgerDir), c.sessionId, since, c.nowMs);
  const identity = hookIdentity(paths.stateDir, c.env["USER"] ?? userName(), hostname());
  const reporter = { id: identity.reporter, role: "owner" };
  // A tool call's input of several lines is redacted before its summary folds them (refold: the
  // redactor reads lines; the tenth-set pass's door bug), unless the pre-filter clears it.
  const toolCalls = tail.toolCalls.map((t) => refold(t, (s) => (allCleared([s]) ? s : redactSecrets(s).text)));
  const built = captureRow(
    c.verdict,
    typedPart(c.prompt).text,
    {
      sessionId: c.sessionId,
      cwd: c.hostCwd,
      reply,
      replyHash: c.reply.replyHash,
      requested: tail.previousPrompt,
      toolCalls,
      outputIds,
      version: tail.version,
      model: tail.model ?? c.reply.keptModel,
    },
    { nowMs: c.nowMs, reporter, channel: "hook", instance: identity.instance },
  );
  if (built === null) return null;
  const { erratum } = built;
  const deep = built.deepContext && (reply !== null || toolCalls.length > 0);
  // One pre-filter run for every text this capture writes: the row's free-text fields (the
  // store's redactErratum then finds them cleared) and the deep context's. In a fresh hook
  // process each run pays its searches again, and the reply (which the Stop hook no longer
  // scans) is most of the text. When the whole is not cleared, each text is redacted.
  const e = erratum.context;
  const deepTexts = deep ? [tail.previousPrompt, reply, ...toolCalls.map((t) => t.summary)] : [];
  const clear = allCleared([erratum.complaint, e.requested, e.doing, e.response_preview, e.component, e.cwd, ...deepTexts]);
  let attachmentDir: string | null = null;
  if (deep) {
    const v = c.verdict;
    const redact = (t: string): string => (clear ? t : redactSecrets(t).text);
    const ctx = {
      schema: "hook-context/1",
      captured_ts: erratum.ts,
      verdict: { kind: v.kind, rating: v.rating, frustration: v.frustration, language: v.language, signals: v.signals, ...(v.repeat === true ? { repeat: true } : {}) },
      requested: tail.previousPrompt === null ? null : redact(tail.previousPrompt),
      reply: reply === null ? null : redact(reply),
      tool_calls: toolCalls.map((t) => ({ name: t.name, summary: redact(t.summary) })),
      transcript_path: c.transcriptPath,
    };
    erratum.links = { attachments: [writeAttachment(paths.attachmentsDir, erratum.id, "context.json", `${JSON.stringify(ctx, null, 2)}\n`)] };
    attachmentDir = join(paths.attachmentsDir, erratum.id);
  }
  try {
    appendErratumRaw(paths, erratum, c.stderr);
  } catch (err) {
    if (attachmentDir !== null) rmSync(attachmentDir, { recursive: true, force: true });
    throw err;
  }
  const what = c.verdict.kind === "directive" ? "a standing directive" : erratum.kind === "praise" ? "praise" : `a ${erratum.kind}`;
  return `Errata captured this prompt as ${what} (${erratum.id}); acceptance pending.`;
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return "owner";
  }
}
