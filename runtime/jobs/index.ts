/**
 * The batch jobs: daily and weekly (a file per stage in daily/), the v4 pass (v4/), the rules
 * jobs (rules/), mining transcripts and backfilling older signal stores.
 */
export { readFailures, readRatings, readUpgrades as readBackfillUpgrades, type BackfillRead } from "./backfill/backfill.js";
export { loadDailyConfig } from "./daily/config.js";
export { runDaily, runWeekly } from "./daily/daily.js";
export { runEnrich } from "./daily/enrich.js";
export { readHost, type HostData } from "./daily/host.js";
export { DAY_MS, runId } from "./daily/ids.js";
export { landedImpacts, skillImpact, type Impact } from "./daily/impact.js";
export { falsePassClaim, findMisses, modelRates, skillRates } from "./daily/joins.js";
export { runLabel } from "./daily/label.js";
export { makeReceipt, writeRunReceipt } from "./daily/receipts.js";
export { computeReport, runReport } from "./daily/report.js";
export { runLoop, type LoopResult, type LoopStage, type StageResult } from "./daily/run-loop.js";
export { markReports, runTriage } from "./daily/triage.js";
export { fileUpgrades, readUpgrades, type UpgradeDraft } from "./daily/upgrades.js";
export { wireDaily } from "./daily/wire.js";
export { mineTranscripts } from "./mine/mine.js";
export { coveragePairs, FALSIFIER_DAYS, fileRecommendations, filedRates, loadRuleNoulWeights, readFilings, readQueue, readRecommendations, recommendationFiles, renderFiledRates, renderRulesReport, requireRuleIndex, ruleClaimHash, rulesReport, runM7b, runRulesBuild, runRulesCluster, runRulesCover, runRulesRecheck, runRulesRecommend, type M7bRequest, type RulesRecommendOptions, type RulesRecommendReport, type Writer } from "./rules/index.js";
export { PREDICTION_DETECTORS, buildPredictions, parseDetectors, runV4Stage, type V4Stage } from "./v4/index.js";
