/**
 * The v4 pass: detect, diagnose and the v3 comparison through the engine, answers stored raw
 * through the judgments room (`runtime/judgments/`, which also composes and reports). The CLI
 * is `cli/commands/v4/`.
 */
export { answerKey, askPlanned, planAsk, type AskPlan, type AskSummary, type JudgeId } from "./ask.js";
export { judgeProjection } from "./judge-input.js";
export { buildPredictions, composedPredictions, parseDetectors, PREDICTION_DETECTORS, regexPredictions, regexVerdict, type PredictionDetector, type PredictionsResult } from "./predictions.js";
export { doneAnswers, MAX_UNSCORED_ATTEMPTS, runV4Stage, stageQuestions, type V4PassOptions, type V4PassResult, type V4Stage } from "./pass.js";
