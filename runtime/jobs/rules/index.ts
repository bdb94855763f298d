/** The rules jobs: build the index, cover the diagnosed failures, cluster them (files in the v4 folder). */
export {
  CLUSTERS_FILE,
  COVERAGE_FILE,
  coverCut,
  DEFAULT_RULES_CUT,
  latestCoverage,
  loadRuleNoulWeights,
  readCoverage,
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
