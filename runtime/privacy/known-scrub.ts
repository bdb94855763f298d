/**
 * The known-value scrubber over stores that are not this process's own: an Errata server
 * holds the stores its developers pushed (`errata secrets push`, known-push.ts), and every
 * text a request brings is scrubbed with its tenant's before anything reads it
 * (runtime/server/known.ts). Every string of a JSON value, at any depth, is searched with every
 * store (known-values.ts `storeSpans`); object keys, numbers, booleans and null stay.
 *
 * Example: with a store holding `Zq8vT2bLpR7sWk3mQ9xD`,
 * `scrubWithStores({prompt: "it is Zq8vT2bLpR7sWk3mQ9xD"}, [store])`
 * -> `{value: {prompt: "it is [REDACTED:known-secret]"}, replaced: 1}`.
 */
import { storeSpans, type KnownStore } from "./known-values.js";
import { applySpans } from "./spans.js";
import { mapStrings } from "./map-strings.js";

export function scrubWithStores<T>(value: T, stores: readonly KnownStore[]): { value: T; replaced: number } {
  let replaced = 0;
  if (stores.every((s) => s.entries.length === 0)) return { value, replaced };
  const out = mapStrings(value, (v) => {
    const spans: Array<[number, number]> = [];
    for (const s of stores) spans.push(...storeSpans(v, s));
    if (spans.length === 0) return v;
    replaced += spans.length;
    return applySpans(v, spans.map(([start, end]) => ({ start, end, rank: 0, kind: "known-secret" }))).text;
  });
  return { value: out, replaced };
}
