// Number formats for the loop's printed and written reports.
export const f3 = (x) => (x === null || x === undefined || Number.isNaN(x) ? "—" : Number(x).toFixed(3));
/** A figure with its interval: "0.585 [0.300, 0.921]"; "—" when undefined. */
export const ci = (fig) => (fig && fig.point !== null && fig.point !== undefined ? `${f3(fig.point)} [${f3(fig.lower)}, ${f3(fig.upper)}]` : "—");
/** An agreement figure ({value, lower, upper}) with its interval. */
export const kci = (k) => (k && k.value !== null && k.value !== undefined ? `${f3(k.value)} [${f3(k.lower)}, ${f3(k.upper)}]` : "—");
export const signed = (x) => (x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${Number(x).toFixed(3)}`);
