/**
 * The learners: L2 logistic regression (Newton with conjugate gradients, sparse rows, sample
 * weights) and softmax regression. Pure: rows in, a model out.
 */
export { LogisticError, fitLogistic, predictLogistic, sigmoid, type LogisticModel, type Row } from "./logistic.js";
export { fitSoftmax, predictSoftmax } from "./softmax.js";
export { normaliseToMeanOne } from "./normalise-weights.js";
