/**
 * Shannon entropy, as gitleaks computes it, in a module of its own: the value tests of the hook's
 * pre-filter (silent-shapes.ts, own-shapes.ts) use it, and taken from gitleaks.ts it brought
 * gitleaks' rule data (gitleaks-data.ts, 57 KB of JSON as an object literal) into the hook's
 * capture part, built in every capture (docs/privacy.md "Cost"). gitleaks.ts re-exports it.
 *
 * Example: `shannonEntropy("aaaa")` -> 0; `shannonEntropy("abcd")` -> 2.
 */

/** Shannon entropy in bits per character, as gitleaks computes it. "aaaa" -> 0; "abcd" -> 2. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
