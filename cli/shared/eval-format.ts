/**
 * Number formatting for the eval commands' text output.
 * Example: `withInterval(0.3449, 0.29, 0.401)` → "0.345 [0.290, 0.401]"; `fmt(null)` → "—".
 */
export const fmt = (x: number | null | undefined, digits = 3): string => (x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(digits));

export const signed = (x: number | null | undefined, digits = 3): string => (x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${x.toFixed(digits)}`);

export function withInterval(point: number | null | undefined, lower: number | null | undefined, upper: number | null | undefined, digits = 3, sign = false): string {
  const f = sign ? signed : fmt;
  if (point === null || point === undefined) return "—";
  return lower === null || lower === undefined || upper === null || upper === undefined ? f(point, digits) : `${f(point, digits)} [${f(lower, digits)}, ${f(upper, digits)}]`;
}

export const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));
