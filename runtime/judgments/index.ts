/**
 * The one owner of the v4 folder's judgments: exchanges and answers read once
 * (`openJudgments`), whose answers count (`chooseJudge`), the one cuts chooser (`chooseCuts`:
 * a `--cuts` file, the promoted configuration, the judge's calibrated cuts, else 0.5, with
 * its origin), the composition (`composeAll`, called nowhere else), the v4 report with its
 * unscored tally by reason code (`judgmentsReport`) and the most-broken rules (`mostBroken`).
 */
export { answersByExchange, type Composed } from "./compose.js";
export { chooseCuts, JUDGE_CUTS_FILE, readCutsFile, readJudgeCuts, writeJudgeCuts, type ChosenCuts, type CutsRequest, type CutsSource } from "./cuts.js";
export { appendAnswers, readAnswers, readExchanges, readLabels, v4Files, type Read, type ReadOptions } from "./files.js";
export { chooseJudge, dominantJudge, judgedExchanges, type JudgeId } from "./judge.js";
export { openJudgments, type Judgments, type JudgmentsInput } from "./judgments.js";
export { COVERAGE_FILE, coverCutOf, DEFAULT_RULES_CUT, latestCoverage, mostBroken, readCoverage, underCut, type MostBroken } from "./most-broken.js";
export { readPlan } from "./plan.js";
export { readPromoted, type PromotedInfo } from "./promoted.js";
export { judgmentsReport } from "./report-of.js";
export { buildReport, planFromLabels, plantedFromLabels, renderMostBroken, renderReport, unscoredTally, type V4Report } from "./report.js";
