/**
 * The local OpenAI-compatible server for the engine benchmark, in its own thread so its event
 * loop does not share the client's. Posts its base URL, then serves until terminated.
 */
import { parentPort, workerData } from "node:worker_threads";
import { startFakeOpenAI } from "../test/engine/helpers/fake-openai.js";

const { latencyMs } = workerData as { latencyMs: number };
const server = await startFakeOpenAI({ latencyMs });
parentPort?.postMessage({ url: server.url });
parentPort?.on("message", (m: unknown) => {
  if (m === "count") parentPort?.postMessage({ chats: server.chatCount() });
});
