import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OpenAI-compatible server on 127.0.0.1 for tests and benchmarks: chat completions
 * (with or without logprobs, structured replies, scripted errors and delays), the files
 * endpoints and the batches endpoints. Never reaches outside the machine.
 *
 * Example: `const s = await startFakeOpenAI(); s.url` -> "http://127.0.0.1:41234/v1".
 */
export interface ChatReply {
  status?: number;
  /** A JSON body; `text` wins when both are given. */
  json?: unknown;
  text?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChatBody = any;
export type ChatHandler = (body: ChatBody, n: number) => ChatReply | Promise<ChatReply>;

export interface Recorded {
  method: string;
  path: string;
  body: string;
}

export interface FakeServer {
  url: string;
  requests: Recorded[];
  chatCount: () => number;
  maxInFlight: () => number;
  setChat: (h: ChatHandler) => void;
  files: Map<string, { filename: string; purpose: string; content: string }>;
  close: () => Promise<void>;
}

/** P(yes) the default judge gives: high when the prompt reads like a complaint. */
export function defaultPYes(body: ChatBody): number {
  const user = String(body?.messages?.at(-1)?.content ?? "");
  const typed = user.split("## What the person typed next")[1] ?? user;
  return /\b(wrong|no,|not what|again)\b/i.test(typed) ? 0.9 : 0.1;
}

export function completion(content: string, extra: Record<string, unknown> = {}, usage = { prompt_tokens: 50, completion_tokens: 1 }): unknown {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_764_504_000,
    model: "fake-judge",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, refusal: null }, ...extra }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

export function logprobsCompletion(pYes: number): unknown {
  const top = [
    { token: "Yes", logprob: Math.log(pYes), bytes: null },
    { token: "No", logprob: Math.log(1 - pYes), bytes: null },
    { token: "yes", logprob: Math.log(1e-4), bytes: null },
  ].sort((a, b) => b.logprob - a.logprob);
  const first = top[0] as { token: string; logprob: number };
  return completion(first.token, { logprobs: { content: [{ token: first.token, logprob: first.logprob, bytes: null, top_logprobs: top }], refusal: null } });
}

export function structuredCompletion(pYes: number): unknown {
  const answer = pYes >= 0.5 ? "yes" : "no";
  return completion(JSON.stringify({ answer, confidence: answer === "yes" ? pYes : 1 - pYes }), {}, { prompt_tokens: 50, completion_tokens: 12 });
}

/** A judge that supports both modes. */
export const defaultChat: ChatHandler = (body) => {
  const p = defaultPYes(body);
  if (body?.logprobs) return { json: logprobsCompletion(p) };
  return { json: structuredCompletion(p) };
};

/** A server without logprobs (e.g. some llama.cpp builds): JSON replies only. */
export const structuredOnlyChat: ChatHandler = (body) => ({ json: structuredCompletion(defaultPYes(body)) });

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

/** The file part of a multipart/form-data body. */
function multipartFile(body: Buffer, contentType: string): { filename: string; content: string; purpose: string } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2] ?? "";
  const parts = body.toString("utf8").split(`--${b}`);
  let filename = "";
  let content = "";
  let purpose = "";
  for (const part of parts) {
    const [head, ...rest] = part.split("\r\n\r\n");
    const value = rest.join("\r\n\r\n").replace(/\r\n$/, "");
    if (head?.includes('name="file"')) {
      filename = /filename="([^"]*)"/.exec(head)?.[1] ?? "";
      content = value;
    } else if (head?.includes('name="purpose"')) purpose = value;
  }
  return { filename, content, purpose };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startFakeOpenAI(opts: { chat?: ChatHandler; latencyMs?: number; batchPollsToComplete?: number; port?: number } = {}): Promise<FakeServer> {
  let chat = opts.chat ?? defaultChat;
  let chatN = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: Recorded[] = [];
  const files = new Map<string, { filename: string; purpose: string; content: string }>();
  const batches = new Map<string, { id: string; input_file_id: string; polls: number; status: string; output_file_id: string | null; error_file_id: string | null; total: number }>();
  const pollsToComplete = opts.batchPollsToComplete ?? 2;

  const batchObject = (b: { id: string; input_file_id: string; status: string; output_file_id: string | null; error_file_id: string | null; total: number }): unknown => ({
    id: b.id,
    object: "batch",
    endpoint: "/v1/chat/completions",
    input_file_id: b.input_file_id,
    completion_window: "24h",
    status: b.status,
    output_file_id: b.output_file_id,
    error_file_id: b.error_file_id,
    created_at: 1_764_504_000,
    request_counts: { total: b.total, completed: b.status === "completed" ? b.total : 0, failed: 0 },
  });

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? "").replace(/\?.*$/, "");
      const isMultipart = (req.headers["content-type"] ?? "").startsWith("multipart/");
      requests.push({ method: req.method ?? "", path, body: isMultipart ? "(multipart)" : raw.toString("utf8") });
      if (req.method === "POST" && path === "/v1/chat/completions") {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          const body = JSON.parse(raw.toString("utf8"));
          const reply = await chat(body, chatN++);
          const delay = (opts.latencyMs ?? 0) + (reply.delayMs ?? 0);
          if (delay > 0) await sleep(delay);
          if (res.destroyed) return;
          send(res, reply.status ?? 200, reply.text ?? reply.json ?? {}, reply.headers);
        } finally {
          inFlight--;
        }
        return;
      }
      if (req.method === "POST" && path === "/v1/files") {
        const f = multipartFile(raw, req.headers["content-type"] ?? "");
        const id = `file-${files.size + 1}`;
        files.set(id, f);
        send(res, 200, { id, object: "file", bytes: Buffer.byteLength(f.content), created_at: 1_764_504_000, filename: f.filename, purpose: f.purpose, status: "processed" });
        return;
      }
      const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
      if (req.method === "GET" && content) {
        const f = files.get(content[1] as string);
        if (!f) return send(res, 404, { error: { message: "no such file", type: "invalid_request_error" } });
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(f.content);
        return;
      }
      if (req.method === "POST" && path === "/v1/batches") {
        const body = JSON.parse(raw.toString("utf8")) as { input_file_id: string };
        const input = files.get(body.input_file_id);
        if (!input) return send(res, 400, { error: { message: "unknown input file", type: "invalid_request_error" } });
        const id = `batch_${batches.size + 1}`;
        const b = { id, input_file_id: body.input_file_id, polls: 0, status: "validating", output_file_id: null, error_file_id: null, total: input.content.split("\n").filter((l) => l.trim()).length };
        batches.set(id, b);
        send(res, 200, batchObject(b));
        return;
      }
      const batchGet = /^\/v1\/batches\/([^/]+)$/.exec(path);
      if (req.method === "GET" && batchGet) {
        const b = batches.get(batchGet[1] as string);
        if (!b) return send(res, 404, { error: { message: "no such batch", type: "invalid_request_error" } });
        b.polls++;
        if (b.status !== "completed") b.status = "in_progress";
        if (b.polls >= pollsToComplete && b.status !== "completed") {
          const out: string[] = [];
          const errs: string[] = [];
          const lines = (files.get(b.input_file_id)?.content ?? "").split("\n").filter((l) => l.trim());
          for (const [i, line] of lines.entries()) {
            const r = JSON.parse(line) as { custom_id: string; body: unknown };
            const reply = await chat(r.body, chatN++);
            const row = { id: `batch_req_${i}`, custom_id: r.custom_id, response: { status_code: reply.status ?? 200, request_id: `req_${i}`, body: reply.json ?? reply.text ?? null }, error: null };
            ((reply.status ?? 200) < 300 ? out : errs).push(JSON.stringify(row));
          }
          const outId = `file-${files.size + 1}`;
          files.set(outId, { filename: "output.jsonl", purpose: "batch_output", content: out.map((l) => `${l}\n`).join("") });
          b.output_file_id = outId;
          if (errs.length) {
            const errId = `file-${files.size + 1}`;
            files.set(errId, { filename: "errors.jsonl", purpose: "batch_output", content: errs.map((l) => `${l}\n`).join("") });
            b.error_file_id = errId;
          }
          b.status = "completed";
        }
        send(res, 200, batchObject(b));
        return;
      }
      send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "invalid_request_error" } });
    })().catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(e), type: "server_error" } });
    });
  });
  // Node's default keep-alive (5 s) lets undici reuse connections: it drops any socket whose
  // server hint is under its 2 s threshold, so a shorter timeout here means a connect per request.
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatCount: () => chatN,
    maxInFlight: () => maxInFlight,
    setChat: (h) => (chat = h),
    files,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
