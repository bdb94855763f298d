/**
 * A JSON value with every string at any depth passed through `f`; object keys, numbers,
 * booleans and null stay. The redacting writer (for-write.ts) and the server's known-value
 * scrubber (known-scrub.ts) walk records the same way.
 *
 * Example: `mapStrings({a: ["x", 1]}, (s) => s.toUpperCase())` -> `{a: ["X", 1]}`.
 */
export function mapStrings<T>(value: T, f: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return f(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
