/** The Combiner: learned heads over the engine's probabilities (detect and class). Pure. */
export { rawFeatures, featureNames, logit, fitStandardiser, standardise, type AnswerTable, type Standardiser } from "./features.js";
export { sessionFolds, pickL2, DEFAULT_L2_GRID, type CvPoint } from "./cv.js";
export { fitDetectHead, detectProbability, type DetectHead, type HeadItem, type HeadOptions } from "./detect-head.js";
export { fitClassHead, classDistribution, type ClassHead } from "./class-head.js";
export { assertSameBank, CombinerBankError } from "./model.js";
export { CombinerInputError, type CombinerErrorCode } from "./errors.js";
