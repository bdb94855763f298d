/**
 * Claude Code transcripts: a streaming reader, the typed-prompt filter, the live-branch rule
 * and the exchange builder. See docs/transcripts.md.
 *
 * Example: `for await (const ev of readTranscript(path)) ...` streams parsed lines;
 * `(await scanTranscript(path)).exchanges` gives the exchanges of the live typed prompts.
 */
export { readTranscript, emptyStats, type ReadStats, type TranscriptEvent } from "./reader.js";
export {
  classifyRecord,
  assistantPart,
  contentBlocks,
  hasToolResult,
  graphParent,
  KNOWN_KINDS,
  type TranscriptRecord,
  type RecordKind,
  type AssistantPart,
} from "./records.js";
export { typedPromptVerdict, stripInjected, userText, type PromptVerdict, type NotTypedReason } from "./typed.js";
export { ConversationGraph } from "./graph.js";
export { scanTranscript, freshCarry, type ScanResult, type ScanStats, type CarryState } from "./scan.js";
export { discoverTranscripts, type TranscriptFile } from "./discover.js";
export { summarizeToolCall, tildeHome } from "./tool-summary.js";
export { exchangeId } from "./ids.js";
export { CapturedIndex, type LedgerTurn } from "./captured.js";
export { sweepExchanges, exchangesPath, existingExchangeIds, type SweepReport } from "./sweep.js";
export { typedPrompts, type TypedPrompt } from "./typed-prompts.js";
export { ledgerTurns, loadCapturedIndex } from "./ledger-turns.js";
