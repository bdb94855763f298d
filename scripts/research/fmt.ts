// Number formats for the loop's printed and written reports.

/** Three decimals; "—" when undefined. Example: f3(0.4351) -> "0.435". */
export const f3 = (x: number | null | undefined): string => (x === null || x === undefined || Number.isNaN(x) ? "—" : Number(x).toFixed(3));

/** A figure with its interval: "0.585 [0.300, 0.921]"; "—" when undefined. */
export const ci = (fig: { point: number | null; lower: number | null; upper: number | null } | null | undefined): string =>
  fig && fig.point !== null && fig.point !== undefined ? `${f3(fig.point)} [${f3(fig.lower)}, ${f3(fig.upper)}]` : "—";

/** An agreement figure ({value, lower, upper}) with its interval. */
export const kci = (k: { value: number | null; lower: number | null; upper: number | null } | null | undefined): string =>
  k && k.value !== null && k.value !== undefined ? `${f3(k.value)} [${f3(k.lower)}, ${f3(k.upper)}]` : "—";

/** A difference with its sign: "+0.228"; "—" when undefined. */
export const signed = (x: number | null | undefined): string => (x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${Number(x).toFixed(3)}`);
