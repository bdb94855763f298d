/**
 * A scripted model on loopback: enough of the Messages API for the real Claude Code client to
 * hold a session against it. The scenario gives the model's turns in order (a reply text, or a
 * tool call); every request is recorded whole so a test asserts what reached the model (the
 * tool_result text, a hook's additionalContext, the system prompt and its instruction files).
 *
 * The client also makes side requests (a title or summary on a small model, token counting,
 * a quota probe): a request is the session's own when it offers tools; any other is answered
 * generically and recorded apart, so the script never has to know how many there are.
 *
 * Written by hand rather than with a mock-HTTP library: the client is a separate native
 * process, so it needs a real socket, and the SSE frames it parses are few and fixed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One turn of the scripted model: a reply, or a tool call (optionally with a text before it). */
export type Turn = { text: string } | { tool: string; input: Record<string, unknown>; text?: string };

export interface RecordedRequest {
  path: string;
  /** True for the session's own requests (they offer tools); false for the client's side requests. */
  main: boolean;
  stream: boolean;
  body: MessagesBody;
  /** The content blocks the server answered with (a tool call's block carries its id). */
  answered: Array<Record<string, unknown>>;
}

export interface MessagesBody {
  model?: string;
  system?: string | Array<{ type: string; text?: string }>;
  messages?: Array<{ role: string; content: string | ContentBlock[] }>;
  tools?: Array<{ name: string }>;
  stream?: boolean;
  [k: string]: unknown;
}

export interface ContentBlock {
  type: string;
  text?: string;
  content?: string | Array<{ type: string; text?: string }>;
  tool_use_id?: string;
  is_error?: boolean;
  [k: string]: unknown;
}

export interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  /** Replace the turns still to come (a new scenario or a new session on the same server). */
  script(turns: readonly Turn[]): void;
  /** The turns the script has not yet served. */
  pending(): number;
  close(): Promise<void>;
}

/** The final line of every scripted session once the script runs out. */
export const FALLBACK_REPLY = "Done.";

let ids = 0;
const nextId = (p: string) => `${p}_e2e${String(++ids).padStart(6, "0")}`;

/** Text of a message's content, blocks joined (tool_result contents included). */
export function contentText(content: string | ContentBlock[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((b) => {
      if (typeof b.text === "string") return b.text;
      if (typeof b.content === "string") return b.content;
      if (Array.isArray(b.content)) return b.content.map((c) => c.text ?? "").join("\n");
      return "";
    })
    .join("\n");
}

/** The system prompt as one string. */
export function systemText(body: MessagesBody): string {
  const s = body.system;
  if (s === undefined) return "";
  return typeof s === "string" ? s : s.map((b) => b.text ?? "").join("\n");
}

/** The tool_result blocks of a request's last user message. */
export function toolResults(body: MessagesBody): ContentBlock[] {
  const last = body.messages?.at(-1);
  if (!last || typeof last.content === "string") return [];
  return last.content.filter((b) => b.type === "tool_result");
}

/** The tool_result block answering one tool call, wherever in the request's messages it is. */
export function toolResultFor(body: MessagesBody, toolUseId: string): ContentBlock | undefined {
  for (const m of body.messages ?? []) {
    if (typeof m.content === "string") continue;
    const b = m.content.find((x) => x.type === "tool_result" && x.tool_use_id === toolUseId);
    if (b) return b;
  }
  return undefined;
}

/** The id of the tool call the server answered a request with, if it answered with one. */
export function toolUseIdOf(q: RecordedRequest): string | undefined {
  const b = q.answered.find((x) => x["type"] === "tool_use");
  return b ? String(b["id"]) : undefined;
}

function usage(input: number, output: number) {
  return { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

function blocksFor(turn: Turn): Array<Record<string, unknown>> {
  if ("tool" in turn) {
    const out: Array<Record<string, unknown>> = [];
    if (turn.text) out.push({ type: "text", text: turn.text });
    out.push({ type: "tool_use", id: nextId("toolu"), name: turn.tool, input: turn.input });
    return out;
  }
  return [{ type: "text", text: turn.text }];
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function answer(res: ServerResponse, body: MessagesBody, content: Array<Record<string, unknown>>): void {
  const model = body.model ?? "claude-e2e";
  const stop = content.some((b) => b["type"] === "tool_use") ? "tool_use" : "end_turn";
  const id = nextId("msg");
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null, usage: usage(10, 5) }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  sse(res, "message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: usage(10, 1) } });
  content.forEach((block, index) => {
    if (block["type"] === "text") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block["text"] } });
    } else {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: block["id"], name: block["name"], input: {} } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block["input"]) } });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the server on 127.0.0.1 with a free port. */
export async function startModelServer(turns: readonly Turn[] = []): Promise<ModelServer> {
  let queue: Turn[] = [...turns];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      let body: MessagesBody = {};
      try {
        body = raw === "" ? {} : (JSON.parse(raw) as MessagesBody);
      } catch {
        body = {};
      }
      if (req.method !== "POST" || !path.endsWith("/v1/messages") && !path.endsWith("/count_tokens")) {
        // Anything else the client probes (a quota or account endpoint): an empty success.
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
        return;
      }
      if (path.endsWith("/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
        return;
      }
      const main = Array.isArray(body.tools) && body.tools.length > 0;
      const turn: Turn = main ? (queue.shift() ?? { text: FALLBACK_REPLY }) : { text: "Scripted session" };
      const answered = blocksFor(turn);
      requests.push({ path, main, stream: body.stream === true, body, answered });
      answer(res, body, answered);
    })().catch((e: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(e) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (t) => void (queue = [...t]),
    pending: () => queue.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
