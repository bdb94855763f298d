import { basename } from "node:path";
import type { Exchange, ToolCall } from "../../schemas/exchange.js";
import { ConversationGraph } from "./graph.js";
import { exchangeId } from "./ids.js";
import { emptyStats, readTranscript, type ReadStats } from "./reader.js";
import { assistantPart, graphParent, hasToolResult, type TranscriptRecord } from "./records.js";
import { clipTail } from "./clip.js";
import { redactSecrets } from "../privacy/index.js";
import { summarizeToolCall } from "./tool-summary.js";
import { typedPromptVerdict, type NotTypedReason } from "./typed.js";

/** Characters kept of the end of the reply before a prompt. */
export const REPLY_END_CHARS = 600;
/** Characters kept of a typed prompt (longer pastes are cut, marked with "…"). */
export const PROMPT_MAX_CHARS = 4000;
/** Characters kept of the ask before the reply. */
export const ASK_MAX_CHARS = 1000;
/** Uuids carried in a cursor (the newest of the current turn), at most: a new line that attaches
 * elsewhere makes the file be read again whole, which is correct, only slower. */
export const CARRY_UUIDS_MAX = 64;

/** A line's bytes `[offset, end)` in its file (what the cursor keeps instead of text). */
export interface LineSpan {
  offset: number;
  end: number;
}

/** A typed prompt on the live branch, with what the exchange builder needs of it. */
export interface PromptEvent {
  k: "prompt";
  node: number;
  at: LineSpan;
  uuid: string | null;
  text: string;
  ts: string | null;
  cwd: string | null;
  version: string | null;
  sessionId: string;
  lineNo: number;
  source: "user" | "queued";
  synthetic: boolean;
}

/** An assistant line reduced to what exchanges read: its text's end and its tool calls. */
interface AssistantEvent {
  k: "assistant";
  node: number;
  at: LineSpan;
  tail: string | null;
  ts: string | null;
  model: string | null;
  tools: ToolCall[];
}

/**
 * Conversation state carried across reads of a growing file. The cursor keeps it without
 * its text: each text field has a span of the line it came from (carry-refs.ts).
 */
export interface CarryState {
  turns: Record<string, number>;
  lastAsk: string | null;
  lastAskAt: LineSpan | null;
  replyEnd: string | null;
  replyEndAt: LineSpan | null;
  replyTs: string | null;
  model: string | null;
  tools: ToolCall[];
  /** For each of `tools`, its line and its index among that line's tool uses. */
  toolsAt: (LineSpan & { index: number })[];
  /** Uuids (nodes and transparent lines) since the last typed prompt, in file order. */
  recentUuids: string[];
}

export interface ScanStats extends ReadStats {
  typedPrompts: number;
  /** Typed prompts on rewound (dead) branches: not emitted. */
  rewoundPrompts: number;
  notTyped: Partial<Record<NotTypedReason, number>>;
  sidechainLines: number;
  repairedParents: number;
  /** Message nodes in the conversation graph, and how many lie on the path from the newest one. */
  nodes: number;
  livePath: number;
  /** Assistant API calls (distinct message ids): usage is counted once per id. */
  assistantMessages: number;
}

export interface ScanResult {
  /** Exchanges of the live typed prompts, `captured` false (the caller joins the ledger). */
  exchanges: Exchange[];
  /** For each exchange, the timestamp of the next live typed prompt in its session, if any. */
  nextPromptTs: (string | null)[];
  /** For each exchange, the prompt line's uuid, line number and source (typed or queued). */
  prompts: { uuid: string | null; lineNo: number; source: "user" | "queued" }[];
  stats: ScanStats;
  carry: CarryState;
  /** A resumed read met a line that attaches to an older part of the file (a rewind there). */
  needsFullRescan: boolean;
}

export interface ScanOptions {
  /** Name used in `source_ref` ("<name>:<line>"), e.g. the path relative to the root. */
  sourceName?: string;
  start?: number;
  firstLineNo?: number;
  carry?: CarryState | null;
  /** Session id when a line has none (default: the file name without ".jsonl"). */
  fallbackSessionId?: string;
}

export function freshCarry(): CarryState {
  return { turns: {}, lastAsk: null, lastAskAt: null, replyEnd: null, replyEndAt: null, replyTs: null, model: null, tools: [], toolsAt: [], recentUuids: [] };
}

/** A tool call's input of several lines, redacted before its summary folds them (tool-summary.ts refold). */
export const redactLines = (text: string): string => redactSecrets(text).text;

function clipEnd(text: string, max: number): string {
  return clipTail(text.trim(), max, "…"); // at whitespace (clip.ts)
}

/** The end of an assistant line's text: its last non-empty text part, clipped to REPLY_END_CHARS. */
export function replyTail(texts: readonly (string | undefined)[]): string | null {
  for (let i = texts.length - 1; i >= 0; i--) {
    const t = texts[i]?.trim() ?? "";
    if (t.length > 0) return clipEnd(t, REPLY_END_CHARS);
  }
  return null;
}

function clipStart(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Reads one transcript (or its new tail, given a cursor's offset and carry) and returns the
 * exchanges of its typed prompts on the live branch.
 *
 * Memory: per line with a uuid, one map entry and two array slots (see ConversationGraph);
 * per typed prompt its text; per assistant line the last REPLY_END_CHARS of its text and its
 * tool calls' short summaries. Never a whole line after it is parsed, never the file.
 *
 * Example: `spotter/tool_heavy.jsonl` gives 2 exchanges; the second has prompt "scrolling
 * back in xterm.js still does not work …" and the last tool calls before it.
 */
export async function scanTranscript(path: string, opts: ScanOptions = {}): Promise<ScanResult> {
  const start = opts.start ?? 0;
  const firstLineNo = opts.firstLineNo ?? 1;
  const stats: ScanStats = {
    ...emptyStats(start, firstLineNo),
    typedPrompts: 0,
    rewoundPrompts: 0,
    notTyped: {},
    sidechainLines: 0,
    repairedParents: 0,
    nodes: 0,
    livePath: 0,
    assistantMessages: 0,
  };
  const fallbackSession = opts.fallbackSessionId ?? basename(path).replace(/\.jsonl$/, "");
  const sourceName = opts.sourceName ?? basename(path);
  const carryIn = opts.carry ?? null;
  const graph = new ConversationGraph();
  if (carryIn !== null) graph.seed(carryIn.recentUuids);
  const seededTip = graph.size - 1;
  let needsFullRescan = false;
  const events: (PromptEvent | AssistantEvent)[] = [];
  const messageIds = new Set<string>();

  const checkResume = (rec: TranscriptRecord, isUserText: boolean): void => {
    if (carryIn === null || needsFullRescan) return;
    const parent = graphParent(rec);
    if (parent === null) return;
    const p = graph.nodeOf(parent);
    // Unknown parent: it lies before the carried turn. A user text line under a carried
    // node other than the tip: the sibling of an earlier prompt, i.e. a rewind.
    if (p === undefined || (isUserText && p < seededTip && p < graph.seededCount)) needsFullRescan = true;
  };

  for await (const ev of readTranscript(path, { start, firstLineNo, stats })) {
    const rec = ev.rec;
    if (rec.isSidechain) {
      stats.sidechainLines++;
      continue;
    }
    if (rec.kind === "user") {
      const isUserText = !hasToolResult(rec);
      checkResume(rec, isUserText);
      const node = graph.addNode(rec.uuid, graphParent(rec), isUserText);
      const verdict = typedPromptVerdict(rec);
      if (verdict !== null && verdict.typed) events.push(promptEvent(rec, node, verdict.text, verdict.source, ev, fallbackSession));
      else if (verdict !== null) stats.notTyped[verdict.reason] = (stats.notTyped[verdict.reason] ?? 0) + 1;
    } else if (rec.kind === "assistant") {
      checkResume(rec, false);
      const node = graph.addNode(rec.uuid, graphParent(rec), false);
      const part = assistantPart(rec);
      if (part === null) continue;
      if (part.messageId !== null) messageIds.add(part.messageId);
      const tail = replyTail(part.texts);
      const model = part.model !== null && part.model !== "<synthetic>" ? part.model : null;
      const tools = part.toolUses.map((u) => summarizeToolCall(u.name, u.input, redactLines));
      if (tail !== null || tools.length > 0 || model !== null) {
        events.push({ k: "assistant", node, at: { offset: ev.offset, end: ev.end }, tail, ts: rec.timestamp, model, tools });
      }
    } else {
      const linked = rec.uuid !== null || graphParent(rec) !== null;
      const node = linked ? graph.addAlias(rec.uuid, graphParent(rec)) : -1;
      if (rec.kind !== "attachment") continue;
      const verdict = typedPromptVerdict(rec);
      if (verdict !== null && verdict.typed) events.push(promptEvent(rec, node, verdict.text, verdict.source, ev, fallbackSession));
      else if (verdict !== null) stats.notTyped[verdict.reason] = (stats.notTyped[verdict.reason] ?? 0) + 1;
    }
  }
  stats.repairedParents = graph.repairedParents;
  stats.assistantMessages = messageIds.size;

  const { live, path: livePath } = graph.liveMask();
  stats.nodes = graph.size - graph.seededCount;
  stats.livePath = livePath.length;
  const carry: CarryState = carryIn === null ? freshCarry() : { ...carryIn, turns: { ...carryIn.turns }, tools: [...carryIn.tools], toolsAt: [...carryIn.toolsAt] };
  const exchanges: Exchange[] = [];
  const nextPromptTs: (string | null)[] = [];
  const prompts: ScanResult["prompts"] = [];
  const lastIndexBySession = new Map<string, number>();
  let lastPromptNode = -1;
  for (const ev of events) {
    if (ev.node >= 0 && live[ev.node] !== 1) {
      if (ev.k === "prompt") stats.rewoundPrompts++;
      continue;
    }
    if (ev.k === "assistant") {
      if (ev.tail !== null) {
        carry.replyEnd = ev.tail;
        carry.replyEndAt = ev.at;
        carry.replyTs = ev.ts;
      }
      if (ev.model !== null) carry.model = ev.model;
      if (ev.tools.length > 0) {
        carry.tools = [...carry.tools, ...ev.tools].slice(-3);
        carry.toolsAt = [...carry.toolsAt, ...ev.tools.map((_, index) => ({ ...ev.at, index }))].slice(-3);
      }
      continue;
    }
    stats.typedPrompts++;
    const turn = carry.turns[ev.sessionId] ?? 0;
    carry.turns[ev.sessionId] = turn + 1;
    const corpus = ev.synthetic ? "synthetic" : "claude-code";
    const prev = lastIndexBySession.get(ev.sessionId);
    if (prev !== undefined) nextPromptTs[prev] = ev.ts;
    lastIndexBySession.set(ev.sessionId, exchanges.length);
    exchanges.push({
      schema: "exchange/1",
      id: exchangeId(corpus, ev.sessionId, ev.uuid ?? `line:${ev.lineNo}`),
      corpus,
      session_id: ev.sessionId,
      turn,
      prompt: clipStart(ev.text, PROMPT_MAX_CHARS),
      prompt_ts: ev.ts,
      reply_end: carry.replyEnd,
      reply_ts: carry.replyEnd === null ? null : carry.replyTs,
      previous_ask: carry.lastAsk === null ? null : clipStart(carry.lastAsk, ASK_MAX_CHARS),
      tool_calls: carry.tools.slice(-3),
      cwd: ev.cwd,
      version: ev.version,
      model: carry.model,
      captured: false,
      synthetic: ev.synthetic,
      source_ref: `${sourceName}:${ev.lineNo}`,
    });
    nextPromptTs.push(null);
    prompts.push({ uuid: ev.uuid, lineNo: ev.lineNo, source: ev.source });
    carry.lastAsk = ev.text;
    carry.lastAskAt = ev.at;
    carry.replyEnd = null;
    carry.replyEndAt = null;
    carry.replyTs = null;
    carry.tools = [];
    carry.toolsAt = [];
    if (ev.node >= 0) lastPromptNode = ev.node;
  }
  carry.recentUuids = graph.uuidsFrom(lastPromptNode >= 0 ? lastPromptNode : 0, CARRY_UUIDS_MAX);
  return { exchanges, nextPromptTs, prompts, stats, carry, needsFullRescan };
}

function promptEvent(
  rec: TranscriptRecord,
  node: number,
  text: string,
  source: "user" | "queued",
  at: { lineNo: number; offset: number; end: number },
  fallbackSession: string,
): PromptEvent {
  const lineNo = at.lineNo;
  return {
    k: "prompt",
    node,
    at: { offset: at.offset, end: at.end },
    uuid: rec.uuid,
    text,
    ts: rec.timestamp,
    cwd: rec.cwd,
    version: rec.version,
    sessionId: rec.sessionId ?? fallbackSession,
    lineNo,
    source,
    synthetic: rec.raw["errataSynthetic"] === true,
  };
}
