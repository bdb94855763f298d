/**
 * The rules wing: every rule in the assistant's instruction files, indexed with stable ids
 * (sources, units, ids, build, store) and found again by retrieval (search). Coverage,
 * clusters, recommendations and the rule ledger build on this surface.
 */
export { Bm25, BM25_B, BM25_K1, termCounts, type Bm25Hit } from "./bm25.js";
export { buildIndex, type BuildOptions, type BuildResult } from "./build.js";
export { gitLineDates } from "./git-dates.js";
export { CARRY_OVERLAP, contentHash, headingSlug, normalisedText, ruleId, slug, wordOverlap } from "./ids.js";
export { appliesTo, candidateRules, COMPLAINT_WEIGHT, failureQuery, RuleRetriever, searchRules, unitTerms, type FailureQuery, type RuleHit } from "./search.js";
export { clusterFailures, bucketOf } from "./cluster.js";
export { componentOf } from "./component.js";
export { coverFailures, type CoverCut, type CoverFailure } from "./cover.js";
export { classText, retrievalRecall } from "./evaluate.js";
export { askRuleCovers, askSameRoot, COVERAGE_CALLER, type RulesJudge } from "./judge.js";
export { mostBrokenRules, type BrokenRuleRow, type Leaderboard } from "./leaderboard.js";
export { noulProbability, ruleCoversFeatures, sameRootFeatures } from "./nouls.js";
export { heldOutQuality, trainRuleNouls, type RuleNoulWeights } from "./train-nouls.js";
export { defaultManagedFiles, discoverProjects, discoverSources, sourcesFromTexts, MAX_IMPORT_HOPS, MAX_SOURCE_BYTES, type LoadedSource, type SourceOptions } from "./sources.js";
export { readRuleIndex, RULE_INDEX_FILE, ruleIndexPath, writeRuleIndex } from "./store.js";
export { terms, words } from "./tokenize.js";
export { parseInstructionFile, type ParsedFile, type RawUnit, type UnitKind } from "./units.js";
export { DEFAULT_CHECK_CUT, DOCTRINE_NEAREST, nearestRules, runChecks, type CheckInput, type CheckVerdict } from "./checks.js";
export { PLACEMENT_RULES, RUNG_NAMES, rungOf, SELF_HEALING_DOCTRINE } from "./doctrine.js";
export { addDays, beforeAfter, bucketItems, bucketOfCited, rateWindow, type BeforeAfter, type FalsifierState, type RateItem } from "./rates.js";
export { clusterScore, falsifierOf, installedChecks, MAX_EXEMPLARS, MIN_EXEMPLARS, MIN_FAILURES, parseWriterReply, pickExemplars, rankClusters, recommendationId, writerMessages, type OpenUpgrade, type RankedCluster, type WriterInput } from "./recommend.js";
