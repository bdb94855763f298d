/** ClassTier: the model judge for failure class, through the engine; second look; which level ships. */
export { classTierQuestions, classTierQuestionsFrom, classTierPromptHash, promptHashOf, CLASSTIER_PREFIX } from "./questions.js";
export { classTierVerdict, type ClassTierVerdict } from "./verdict.js";
export { askClassTier, verdictsFromCache, cacheKeyOf, type CachedAnswer } from "./ask.js";
export { decideLevel, type LevelDecision, type LevelItem } from "./level.js";
export { resolveClass, modelJudgeActive, secondLookFlags, type LevelRecordLike, type Resolution } from "./resolve.js";
