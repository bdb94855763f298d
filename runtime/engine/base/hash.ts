import { createHash } from "node:crypto";
import type { Exchange } from "../../../schemas/exchange.js";

/**
 * Hashes the engine keys things by. All are SHA-256 in hex, cut to a stated length.
 *
 * Example: `sha256Hex("abc", 16)` -> "ba7816bf8f01cfea".
 */
export function sha256Hex(text: string, length = 64): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, length);
}

/**
 * JSON with object keys sorted at every depth, so equal values always serialise the same.
 * Example: `canonicalJson({b: 1, a: [2, {d: 3, c: 4}]})` -> '{"a":[2,{"c":4,"d":3}],"b":1}'.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** The exchange fields a judge's prompt (and the embedded lane's features) read; nothing else. */
export function promptFields(ex: Exchange): { prompt: string; reply_end: string | null; previous_ask: string | null; tool_calls: { name: string; summary: string }[] } {
  return {
    prompt: ex.prompt,
    reply_end: ex.reply_end,
    previous_ask: ex.previous_ask,
    tool_calls: ex.tool_calls.map((t) => ({ name: t.name, summary: t.summary })),
  };
}

/**
 * Hash of the exchange fields the prompt uses (prompt, reply end, previous ask, tool calls),
 * 16 hex. The exchange id, session, timestamps, corpus and paths are left out on purpose:
 * two exchanges that read the same to a judge get the same answer.
 */
export function exchangeHash(ex: Exchange): string {
  return sha256Hex(canonicalJson(promptFields(ex)), 16);
}
