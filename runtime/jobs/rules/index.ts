/** The rules jobs: build the index, cover the diagnosed failures, cluster them (files in the v4 folder). */
export {
  CLUSTERS_FILE,
  coveragePairs,
  loadRuleNoulWeights,
  requireRuleIndex,
  runRulesBuild,
  runRulesCluster,
  runRulesCover,
  type RulesBuildOptions,
  type RulesBuildReport,
  type RulesClusterReport,
  type RulesCoverOptions,
  type RulesCoverReport,
} from "./run.js";
export { FILED_FILE, fileRecommendations, filedRates, MIN_FILED_EXCHANGES, openUpgrades, readFilings, readQueue, ruleClaim, ruleClaimHash, type FiledRateRow, type FilingResult, type JudgedItem, type QueueEntry } from "./filing.js";
export { runM7b, type M7bOutput, type M7bRequest } from "./m7b.js";
export { FALSIFIER_DAYS, readClusters, readRecommendations, recommendationFiles, runRulesRecheck, runRulesRecommend, type RulesRecommendOptions, type RulesRecommendReport, type Writer } from "./recommend.js";
export { renderFiledRates, renderRulesReport, rulesReport, type RulesReport } from "./report.js";
