/**
 * Pages people look at rather than read: static self-contained HTML (figures as SVG rendered
 * from Vega-Lite in Node, data and spec embedded, nothing fetched at view time) for the
 * notebooks and the Pulse page, and the labelling page's loopback server.
 */
export { renderSvg, type VegaLiteSpec } from "./vega.js";
export { esc, figure, fmt, fmtInterval, h2, jsonForScript, para, renderPage, table, type Block, type Page } from "./html.js";
export { isLoopback, MAX_BODY_BYTES, startLabelServer, type LabelServer, type LabelServerOptions } from "./label-server.js";
export { filledSheet, loadProgress, SKIP_NOTE, type Progress } from "./label-store.js";
export { gatherPulse, type PulseData, type PulseHoldout, type PulseInput } from "./pulse-data.js";
export { renderPulse } from "./pulse.js";
export { appendAdjudication, readAdjudications } from "./adjudication-store.js";
