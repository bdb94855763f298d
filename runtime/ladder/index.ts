/**
 * The binding ladder (docs/ladder.md): the rule ledger (one row per rule, its incidents
 * counted once, mentions kept apart), the owner's signals strongest first, the cause sort
 * before any rule is touched, the ladder's diagnosis and climbs, the attention budget,
 * checks in shadow and their replay, the owner's approvals, receipts, the journey of one
 * correction as a transition table, and the simulated pilot. The check runner itself lives
 * in the hook path (runtime/hooks/pre-tool-use.ts); the formats both share (checks, their
 * file, the tool events, the cause model) in runtime/ladder-formats/.
 */
export { foldLedger, incidentId, openRuleLedger, RULE_LEDGER_FILE, type FoldedLedger, type LedgerRule, type RuleLedger } from "./ledger.js";
export { signalOf, undoEvidence, type OwnerTurn, type Origin, type SignalReading, type ToolUseLite } from "./signals.js";
export { inView, rulesNamed, turnLines, witnessSays, type TurnOutcome } from "./incidents.js";
export { causeFeatures, causeFeatureSpec, causeModel, causeQuality, causeWeightsText, trainCauseModel, CAUSE_FEATURES, type CauseModel, type CauseQuality } from "./causes.js";
export { causeItems, type CauseItem } from "./cause-data.js";
export { preToolUsePayload, transcriptTurns, type RecordedToolCall, type TranscriptTurns } from "./transcript-turns.js";
export { LadderError, type LadderErrorCode } from "./errors.js";
export { CONTRADICTION_NOUL, contradictions, DEFAULT_CONTRADICTION_CUT, diagnose, isVague, nearestOthers, placement, reachesContradiction, readContradiction, REPEAT, type ContradictionCut, type ContradictionReading, type Diagnosis, type DiagnosisResult, type NearRule, type Placement } from "./diagnose.js";
export { draftCheck, draftLeaveShadow, draftProposal, OFFLINE_REVIEW, type DraftContext } from "./drafts.js";
export { planNativeDeny, SETTINGS_PATH, type NativeDenyPlan } from "./native-deny.js";
export { addProposal, approve, editSummary, fileHash, proposalId, PROPOSALS_FILE, readInstalledChecks, readProposals, reject, sha256, standingNativeDeny, undo, type ProposalState, type Status } from "./proposals.js";
export { GATE, liveShadow, readShadowLines, replayShadow, SHADOW_FILE, shadowVerdict, TRUE_ALARM_TURNS, verdictLine, writeShadowVerdicts } from "./shadow.js";
export { budgetReport, DEFAULT_BUDGET, harm, type BudgetReport } from "./budget.js";
export { missingNights, readReceipts, RECEIPTS_FILE, writeReceipt } from "./receipts.js";
export { runAudit, type AuditInput, type AuditReport } from "./auditor.js";
export { morningReport } from "./morning.js";
export { memoryDir, memoryRuleRow, memoryUnits, noteReads, projectSlug, syncMemoryRules, type MemoryUnit } from "./memory.js";
export { ruleCosts, ruleTokens, tokenBudget, TOKENIZER, type RuleCost, type TokenBudget } from "./cost.js";
export { holdoutFromDir, holdoutLines, holdoutRows, installedCheckIds, lineHoldoutFromDir, lineHoldoutLines, lineHoldoutRows, pulseHoldout, pulseLineHoldout, readLineHoldouts, setHoldout, setLineHoldout, worthTesting, type HoldoutRow, type LineHoldoutRow, type WorthTesting } from "./holdout.js";
export { ruleRowsForIndex, syncIndexRules } from "./sync.js";
export { capture, capturedIds, JOURNEY, reflect, sortedCauses, type JourneyEvent, type JourneyState, type Transition } from "./journey.js";
export { InjectedCrash } from "./auditor.js";
export { PILOT_RULES, runPilot, type PilotOptions, type PilotRow, type Rate } from "./pilot.js";
export { ladderDir, onLadder } from "./scratch.js";
export { appendGaps, contentTerms, draftNewRules, gapOf, GAPS_FILE, groupGaps, readGaps, ruleTextOf, sameSubject } from "./gaps.js";
export { loosenProposal } from "./loosen.js";
export { reviewed, reviewerFromConfig, reviewerOf, reviewMessages, REVIEW_CALLER, REVIEW_MAX_TOKENS, type Reviewer } from "./review.js";
export { draftOverrideLoosens, toolResults } from "./overrides.js";
export { correctedFromIncidents, draftFromEvidence, MAX_FIRE_SHARE, replayCheck, replayLine, type Drafted, type RecordedCall, type Replay } from "./checks-draft.js";
export { commandPatterns, commandRegex, derivedWitness, type CommandPattern } from "./derive.js";
export { DEFAULT_COVER_CUT, DEFAULT_NAMING_CUT, inScope, NAMING_CANDIDATES, RuleNamer, shippedRuleNouls, type Naming, type NamingCut, type NamedRule } from "./naming.js";
export { repeatMarker } from "./signals.js";
export { checksInForce, handlerFiles, handlersFor, planHandlers, recordHandlerFile, refreshHandlers, TOOL_HANDLERS_FILE, TOOL_HOOK_COMMAND, writeHandlers, type HandlersPlan, type ToolHandler, type ToolHandlerEntry } from "./tool-handlers.js";
export { approvalLines } from "./approval-lines.js";
