/**
 * The rules wing: every rule in the assistant's instruction files, indexed with stable ids
 * (sources, units, ids, build, store) and found again by retrieval (search). Coverage,
 * clusters, recommendations and the rule ledger build on this surface.
 */
export { Bm25, BM25_B, BM25_K1, termCounts, type Bm25Hit } from "./bm25.js";
export { buildIndex, type BuildOptions, type BuildResult } from "./build.js";
export { gitLineDates } from "./git-dates.js";
export { CARRY_OVERLAP, contentHash, headingSlug, ruleId, slug, wordOverlap } from "./ids.js";
export { candidateRules, failureQuery, RuleRetriever, searchRules, type FailureQuery, type RuleHit } from "./search.js";
export { defaultManagedFiles, discoverSources, MAX_IMPORT_HOPS, MAX_SOURCE_BYTES, type LoadedSource, type SourceOptions } from "./sources.js";
export { readRuleIndex, RULE_INDEX_FILE, ruleIndexPath, writeRuleIndex } from "./store.js";
export { terms, words } from "./tokenize.js";
export { parseInstructionFile, type ParsedFile, type RawUnit, type UnitKind } from "./units.js";
