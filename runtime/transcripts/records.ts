/**
 * The line types of a Claude Code transcript (`~/.claude/projects/<cwd>/<session>.jsonl`), as
 * plain type guards over `JSON.parse` output: no schema library on this path, because it runs
 * over hundreds of megabytes and must accept every version's lines.
 *
 * Kinds: user; assistant (one line per content block, blocks of one API call share
 * `message.id`); system (subtypes turn_duration, api_error, compact_boundary with
 * `logicalParentUuid`, microcompact_boundary, local_command, stop_hook_summary, away_summary,
 * ...); summary; progress; file-history-snapshot; queue-operation; attachment (e.g.
 * `queued_command`, a prompt typed mid-turn). Any other type is kept as kind "unknown" with its
 * raw object, never dropped.
 *
 * Example: `classifyRecord({type:"system", subtype:"compact_boundary", uuid:"c1",
 * parentUuid:null, logicalParentUuid:"t1"})` → `{kind:"system", subtype:"compact_boundary",
 * uuid:"c1", parentUuid:null, logicalParentUuid:"t1", ...}`.
 */

export const KNOWN_KINDS = [
  "user",
  "assistant",
  "system",
  "summary",
  "progress",
  "file-history-snapshot",
  "queue-operation",
  "attachment",
] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];
export type RecordKind = KnownKind | "unknown";

export type Json = Record<string, unknown>;

/** One parsed transcript line: the fields every consumer needs, plus the raw object. */
export interface TranscriptRecord {
  kind: RecordKind;
  /** The raw `type` field (kept for unknown kinds). */
  type: string | null;
  subtype: string | null;
  uuid: string | null;
  parentUuid: string | null;
  /** Set on compact boundaries: the last line before the compaction. */
  logicalParentUuid: string | null;
  sessionId: string | null;
  timestamp: string | null;
  isSidechain: boolean;
  agentId: string | null;
  cwd: string | null;
  version: string | null;
  raw: Json;
}

const knownKindSet: ReadonlySet<string> = new Set(KNOWN_KINDS);

export function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Classifies a parsed line; returns null when the value is not a JSON object. */
export function classifyRecord(raw: unknown): TranscriptRecord | null {
  if (!isObject(raw)) return null;
  const type = str(raw["type"]);
  return {
    kind: type !== null && knownKindSet.has(type) ? (type as KnownKind) : "unknown",
    type,
    subtype: str(raw["subtype"]),
    uuid: str(raw["uuid"]),
    parentUuid: str(raw["parentUuid"]),
    logicalParentUuid: str(raw["logicalParentUuid"]),
    sessionId: str(raw["sessionId"]),
    timestamp: str(raw["timestamp"]),
    isSidechain: raw["isSidechain"] === true,
    agentId: str(raw["agentId"]),
    cwd: str(raw["cwd"]),
    version: str(raw["version"]),
    raw,
  };
}

/** The message object of a user or assistant line, if any. */
export function messageOf(rec: TranscriptRecord): Json | null {
  const m = rec.raw["message"];
  return isObject(m) ? m : null;
}

/** A content block of a message (text, image, tool_result, thinking, tool_use, ...). */
export type Block = Json & { type?: unknown };

/** `message.content` as blocks: a string becomes one text block. */
export function contentBlocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content)) return content.filter(isObject) as Block[];
  return [];
}

/** The tool_use blocks of an assistant line. */
export interface ToolUse {
  id: string | null;
  name: string;
  input: unknown;
}

/** What an assistant line carries: one or more blocks of one API message. */
export interface AssistantPart {
  /** `message.id`: lines that share it are one API call. */
  messageId: string | null;
  model: string | null;
  texts: string[];
  toolUses: ToolUse[];
}

export function assistantPart(rec: TranscriptRecord): AssistantPart | null {
  if (rec.kind !== "assistant") return null;
  const msg = messageOf(rec);
  if (msg === null) return { messageId: null, model: null, texts: [], toolUses: [] };
  const texts: string[] = [];
  const toolUses: ToolUse[] = [];
  for (const b of contentBlocks(msg["content"])) {
    if (b.type === "text" && typeof b["text"] === "string") texts.push(b["text"]);
    else if (b.type === "tool_use") {
      toolUses.push({ id: str(b["id"]), name: str(b["name"]) ?? "?", input: b["input"] });
    }
  }
  return { messageId: str(msg["id"]), model: str(msg["model"]), texts, toolUses };
}

/** True when a user line carries a tool result (it answers a tool call; nobody typed it). */
export function hasToolResult(rec: TranscriptRecord): boolean {
  const msg = messageOf(rec);
  if (msg === null) return false;
  const c = msg["content"];
  if (!Array.isArray(c)) return false;
  return c.some((b) => isObject(b) && b["type"] === "tool_result");
}

/** The parent used for the conversation graph: `parentUuid`, or across a compaction its logical parent. */
export function graphParent(rec: TranscriptRecord): string | null {
  return rec.parentUuid ?? rec.logicalParentUuid;
}
