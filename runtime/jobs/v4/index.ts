/**
 * The v4 pass: detect, diagnose and the v3 comparison through the engine, answers stored
 * raw, and a report recomposed from them under any cuts. The CLI is `cli/commands/v4/`.
 */
export { answerKey, askPlanned, planAsk, type AskPlan, type AskSummary, type JudgeId } from "./ask.js";
export { answersByExchange, composeAll, dominantJudge, type Composed } from "./compose-all.js";
export { appendAnswers, readAnswers, readExchanges, readLabels, v4Files } from "./files.js";
export { judgeProjection } from "./judge-input.js";
export { buildPredictions, composedPredictions, parseDetectors, PREDICTION_DETECTORS, regexPredictions, regexVerdict, type PredictionDetector, type PredictionsResult } from "./predictions.js";
export { resolveCuts } from "./cuts.js";
export { doneAnswers, MAX_UNSCORED_ATTEMPTS, runV4Stage, stageQuestions, type V4PassOptions, type V4PassResult, type V4Stage } from "./pass.js";
export { buildReport, planFromLabels, plantedFromLabels, renderReport, type V4Report } from "./report.js";
export { readPlan } from "./plan.js";
