import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { toFile } from "openai";
import { z } from "zod";
import type { BudgetBook } from "../base/budget.js";
import { sha256Hex } from "../base/hash.js";
import type { AnswerMode, ChatMessage } from "../base/prompt.js";
import { BatchStateSchema, type BatchState } from "../base/schemas.js";
import type { OpenAILane } from "./lane.js";
import { tokenBound } from "./lane.js";
import { readLogprobs, readStructured, type ReplyReading } from "./reply.js";

/**
 * The Batch API path for large corpora: write the request file (one line per distinct
 * `custom_id`, which is the answer's cache key), upload it through the files endpoint,
 * create the batch, poll until it ends, download the output and match results by
 * `custom_id`. The state file records the file id, batch id and status after every step, so
 * a run that is interrupted resumes where it stopped (same request content -> same batch;
 * other content -> a new batch). Each request passes the caller's budget before it is written.
 *
 * Example: `await runBatch(lane, requests, {statePath, requestsPath, caller, book, …})`
 * -> `{results: Map {"c7d1…" => {ok: true, pYes: 0.91, …}}, state: {status: "completed", …}}`.
 */
export interface BatchRequest {
  customId: string;
  messages: ChatMessage[];
}

export interface BatchOptions {
  mode: AnswerMode;
  statePath: string;
  requestsPath: string;
  caller: string;
  book: BudgetBook;
  sleep: (ms: number) => Promise<void>;
  nowIso: () => string;
  pollMs: number;
  /** Most polls before giving up (the state stays, so a later run resumes). */
  maxPolls?: number;
  onStatus?: (state: BatchState, counts: { completed: number; failed: number; total: number }) => void;
}

export interface BatchResult {
  results: Map<string, ReplyReading>;
  refused: Map<string, string>;
  state: BatchState;
  resumed: boolean;
}

const TERMINAL = new Set(["completed", "failed", "expired", "cancelled"]);

const OutputLine = z.object({
  custom_id: z.string(),
  response: z.object({ status_code: z.number(), body: z.unknown() }).nullable().optional(),
  error: z.object({ message: z.string().optional(), code: z.string().nullable().optional() }).nullable().optional(),
});

function saveState(path: string, state: BatchState): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, path);
}

function loadState(path: string): BatchState | null {
  if (!existsSync(path)) return null;
  try {
    const r = BatchStateSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

export async function runBatch(lane: OpenAILane, requests: readonly BatchRequest[], opts: BatchOptions): Promise<BatchResult> {
  const refused = new Map<string, string>();
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const r of requests) {
    if (seen.has(r.customId)) continue;
    seen.add(r.customId);
    const body = lane.request(r.messages, opts.mode);
    const reservation = opts.book.reserve(opts.caller, tokenBound(r.messages, body.max_tokens ?? 1));
    if (!reservation.ok) {
      refused.set(r.customId, reservation.reason);
      continue;
    }
    lines.push(JSON.stringify({ custom_id: r.customId, method: "POST", url: "/v1/chat/completions", body }));
  }
  const content = lines.length ? `${lines.join("\n")}\n` : "";
  const inputSha256 = sha256Hex(content);
  const results = new Map<string, ReplyReading>();
  let state = loadState(opts.statePath);
  const resumed = state !== null && state.inputSha256 === inputSha256 && state.status !== "completed";
  if (lines.length === 0) {
    return { results, refused, resumed: false, state: { schema: "engine-batch/1", inputSha256, model: lane.cfg.model, inputFileId: null, batchId: null, status: "empty", outputFileId: null, errorFileId: null, createdAt: opts.nowIso() } };
  }
  if (state === null || state.inputSha256 !== inputSha256 || (state.status === "completed" && state.outputFileId === null)) {
    state = { schema: "engine-batch/1", inputSha256, model: lane.cfg.model, inputFileId: null, batchId: null, status: "new", outputFileId: null, errorFileId: null, createdAt: opts.nowIso() };
  }
  mkdirSync(dirname(opts.requestsPath), { recursive: true });
  writeFileSync(opts.requestsPath, content);
  if (state.inputFileId === null) {
    lane.calls++;
    const file = await lane.sdk.files.create({ file: await toFile(Buffer.from(content, "utf8"), "errata-batch.jsonl"), purpose: "batch" });
    state = { ...state, inputFileId: file.id, status: "uploaded" };
    saveState(opts.statePath, state);
  }
  if (state.batchId === null) {
    lane.calls++;
    const batch = await lane.sdk.batches.create({ input_file_id: state.inputFileId as string, endpoint: "/v1/chat/completions", completion_window: "24h" });
    state = { ...state, batchId: batch.id, status: batch.status };
    saveState(opts.statePath, state);
  }
  const maxPolls = opts.maxPolls ?? Number.POSITIVE_INFINITY;
  for (let polls = 0; !TERMINAL.has(state.status); polls++) {
    if (polls >= maxPolls) return { results, refused, state, resumed };
    if (polls > 0) await opts.sleep(opts.pollMs);
    lane.calls++;
    const b = await lane.sdk.batches.retrieve(state.batchId as string);
    state = { ...state, status: b.status, outputFileId: b.output_file_id ?? null, errorFileId: b.error_file_id ?? null };
    saveState(opts.statePath, state);
    const c = b.request_counts;
    opts.onStatus?.(state, { completed: c?.completed ?? 0, failed: c?.failed ?? 0, total: c?.total ?? lines.length });
  }
  for (const fileId of [state.outputFileId, state.errorFileId]) {
    if (fileId === null) continue;
    lane.calls++;
    const text = await (await lane.sdk.files.content(fileId)).text();
    for (const raw of text.split("\n")) {
      if (raw.trim() === "") continue;
      let parsed: z.infer<typeof OutputLine>;
      try {
        const r = OutputLine.safeParse(JSON.parse(raw));
        if (!r.success) continue;
        parsed = r.data;
      } catch {
        continue; // a torn or malformed output line: its request stays unmatched, so unscored
      }
      const res = parsed.response;
      if (res && res.status_code >= 200 && res.status_code < 300) {
        results.set(parsed.custom_id, opts.mode === "logprobs" ? readLogprobs(res.body) : readStructured(res.body));
      } else {
        const why = parsed.error?.message ?? (res ? `HTTP ${res.status_code}` : "no response");
        results.set(parsed.custom_id, { ok: false, reason: `batch request failed: ${why}`, raw: JSON.stringify(res?.body ?? null).slice(0, 2000) });
      }
    }
  }
  return { results, refused, state, resumed };
}
