/**
 * `context.output_ids` from the host's `outputs.jsonl` (format: `schemas/host.ts`,
 * `output/1`: `{schema, id, ts, session_id, turn?, skill, model?, run_id?}`), read from its
 * last 1 MB without zod. The outputs a complaint is about are those of its session delivered
 * since the previous typed prompt; when that prompt's time is unknown, the session's outputs
 * from the last 30 minutes; at most 20, newest kept, returned oldest first.
 *
 * Where the file is: `ERRATA_HOST_DIR`, else `host_dir` in the ledger's `daily.json`
 * (relative to the ledger folder), else none.
 *
 * Example: outputs o1 (10:00), o2 (10:05) in session s; previous prompt at 10:02 ->
 * `outputIdsSince(lines, "s", Date.parse("…10:02…"), now)` -> ["o2"].
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readTailText } from "./transcript-tail.js";

export const OUTPUTS_WINDOW_MS = 30 * 60 * 1000;
export const MAX_OUTPUT_IDS = 20;
const OUTPUTS_TAIL_BYTES = 1024 * 1024;

export function hostOutputsFile(env: Record<string, string | undefined>, ledgerDir: string): string | null {
  const fromEnv = env["ERRATA_HOST_DIR"];
  if (fromEnv) return join(resolve(fromEnv), "outputs.jsonl");
  const daily = join(ledgerDir, "daily.json");
  if (!existsSync(daily)) return null;
  try {
    const hostDir = (JSON.parse(readFileSync(daily, "utf8")) as { host_dir?: unknown }).host_dir;
    if (typeof hostDir !== "string" || hostDir === "") return null;
    return join(isAbsolute(hostDir) ? hostDir : join(ledgerDir, hostDir), "outputs.jsonl");
  } catch {
    return null;
  }
}

export function outputIdsSince(text: string, sessionId: string, sinceMs: number | null, nowMs: number): string[] {
  const from = sinceMs ?? nowMs - OUTPUTS_WINDOW_MS;
  const found: Array<{ id: string; t: number }> = [];
  for (const line of text.split("\n")) {
    if (!line.includes(sessionId)) continue;
    let o: { schema?: unknown; id?: unknown; ts?: unknown; session_id?: unknown };
    try {
      o = JSON.parse(line) as typeof o;
    } catch {
      continue;
    }
    if (o.schema !== "output/1" || o.session_id !== sessionId || typeof o.id !== "string" || typeof o.ts !== "string") continue;
    const t = Date.parse(o.ts);
    if (Number.isNaN(t) || t <= from || t > nowMs + 60_000) continue;
    found.push({ id: o.id, t });
  }
  found.sort((a, b) => a.t - b.t);
  return [...new Set(found.slice(-MAX_OUTPUT_IDS).map((f) => f.id))];
}

export function readOutputIds(file: string | null, sessionId: string | null, sinceMs: number | null, nowMs: number): string[] {
  if (file === null || sessionId === null || !existsSync(file)) return [];
  return outputIdsSince(readTailText(file, OUTPUTS_TAIL_BYTES), sessionId, sinceMs, nowMs);
}
