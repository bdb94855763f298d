/**
 * The binding ladder's data formats, shared by the hooks that write them and the ladder that
 * reads them: the ladder folder and its file names (files.ts, ladder-dir.ts), checks as data and their
 * evaluation (checks.ts, vocabulary in core/check-vocabulary.ts), the installed checks' file
 * (checks-file.ts) and the shipped cause model (cause-model.ts). The tool-event and
 * InstructionsLoaded records the hooks write are typed by their zod schemas
 * (schemas/ladder-checks.ts), which the ladder reads them with. Every file is zod-free: the hook path imports them one by one
 * (so its bundles hold only what a call needs); the ladder imports this surface.
 */
export { CHECKS_FILE, INSTRUCTIONS_LOADED_FILE, LADDER_DIR, LINE_HOLDOUTS_FILE, RECEIPTS_FILE, SORTED_FILE, TOOL_EVENTS_FILE } from "./files.js";
export { ladderDir } from "./ladder-dir.js";
export {
  CheckFileError,
  checkApplies,
  compileChecks,
  compileRegex,
  evaluateChecks,
  evaluateCompiled,
  fieldValue,
  MAX_OUTPUT_CHARS,
  readsOutput,
  validateCheck,
  type Check,
  type CheckCondition,
  type CheckOutcome,
  type CheckRewrite,
  type Decision,
  type ToolCall,
} from "./checks.js";
export { attachmentFile, heldOut, heldOutLines, holdoutProblem, parseLineHoldouts, withholdLines, type Holdout, type LineHoldout } from "./holdout.js";
export { parseChecksFile } from "./checks-file.js";
export { ifRules, nativeDenyRules } from "./permission-rules.js";
export {
  CAUSE_WEIGHTS_SCHEMA,
  causeWeightsUrl,
  compileCauseModel,
  cueFeatures,
  loadCauseWeights,
  parseCauseWeights,
  type CauseFeature,
  type CauseWeights,
  type CompiledCauseModel,
  type CueSide,
} from "./cause-model.js";
export { hookifyCheck } from "./hookify.js";
