// The scripted model speaks the Messages API as the client parses it: streamed events in order
// with a tool call's input rebuilt from its input_json_delta, the same turn non-streamed, side
// requests answered apart without using the script, and every request recorded.
import { afterEach, describe, expect, it } from "vitest";
import { FALLBACK_REPLY, startModelServer, systemText, toolResults, type ModelServer } from "./model-server.js";

let server: ModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const tools = [{ name: "Bash", input_schema: { type: "object" } }];
const post = (url: string, body: unknown, path = "/v1/messages?beta=true") =>
  fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** The events of an SSE body, each `{event, data}`. */
function events(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .split("\n\n")
    .filter((f) => f.trim() !== "")
    .map((f) => {
      const event = /^event: (.+)$/m.exec(f)?.[1] ?? "";
      const data = JSON.parse(/^data: (.+)$/m.exec(f)?.[1] ?? "{}") as Record<string, unknown>;
      return { event, data };
    });
}

describe("the scripted model server", () => {
  it("streams a tool call whose input the deltas rebuild, then a text turn, then the fallback", async () => {
    server = await startModelServer([{ tool: "Bash", input: { command: "pnpm test" }, text: "Running it." }, { text: "All green." }]);
    const r1 = await post(server.url, { model: "m", stream: true, tools, system: [{ type: "text", text: "SYS" }], messages: [{ role: "user", content: "go" }] });
    expect(r1.headers.get("content-type")).toBe("text/event-stream");
    const ev = events(await r1.text());
    expect(ev.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const json = (ev[5]!.data["delta"] as { type: string; partial_json: string });
    expect(json.type).toBe("input_json_delta");
    expect(JSON.parse(json.partial_json)).toEqual({ command: "pnpm test" });
    expect((ev[4]!.data["content_block"] as { type: string; name: string }).name).toBe("Bash");
    expect((ev[7]!.data["delta"] as { stop_reason: string }).stop_reason).toBe("tool_use");
    const toolId = (ev[4]!.data["content_block"] as { id: string }).id;

    const r2 = await post(server.url, {
      model: "m",
      stream: false,
      tools,
      messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content: "blocked: use the other tool" }] }],
    });
    const m2 = (await r2.json()) as { content: Array<{ text: string }>; stop_reason: string };
    expect(m2.content[0]!.text).toBe("All green.");
    expect(m2.stop_reason).toBe("end_turn");

    const r3 = await post(server.url, { model: "m", tools, messages: [{ role: "user", content: "more" }] });
    expect(((await r3.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe(FALLBACK_REPLY);

    expect(server.requests.map((q) => q.main)).toEqual([true, true, true]);
    expect(systemText(server.requests[0]!.body)).toBe("SYS");
    expect(toolResults(server.requests[1]!.body).map((b) => b.content)).toEqual(["blocked: use the other tool"]);
  });

  it("answers side requests (no tools, token counting, other paths) without using the script", async () => {
    server = await startModelServer([{ text: "the scripted reply" }]);
    const side = await post(server.url, { model: "small", messages: [{ role: "user", content: "title this" }] });
    expect(((await side.json()) as { content: Array<{ text: string }> }).content[0]!.text).not.toBe("the scripted reply");
    const count = await post(server.url, { messages: [{ role: "user", content: "x".repeat(40) }] }, "/v1/messages/count_tokens");
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/api/anything`)).status).toBe(200);
    expect(server.pending()).toBe(1);
    expect(server.requests.map((q) => q.main)).toEqual([false]);
  });
});
