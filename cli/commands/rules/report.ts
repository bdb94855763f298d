/** `errata rules report`: clusters, recommendations and before/after rates; defined beside recheck. */
export { registerReport as register } from "./recheck.js";
