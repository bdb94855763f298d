/**
 * The own rules' case-insensitive patterns rewritten without the `i` flag (caseless-expand.ts),
 * for the hook's redactor part: scripts/bundle-hook.js replaces this module in that bundle with
 * one that holds the rewrites of every own rule's `i` pattern, made when the bundle is built,
 * so that a hook process compiles no case-insensitive class (docs/privacy.md "Cost"). The
 * unbundled module holds none: there every rule runs as written (the tests install the
 * rewrites with `setCaselessSources` and compare the redactions).
 *
 * Example: with the rewrite of "key" installed, `caselessOf(/key/gi).source` -> "[Kk][Ee][Yy]".
 */

/**
 * Pairs of a pattern's source (as `RegExp.prototype.source` gives it, of a pattern with the `i`
 * flag) and the same pattern without it. Pairs, not a Map: a Map would hash every long source
 * when the part loads; a lookup here compares lengths first.
 */
let sources: ReadonlyArray<readonly [string, string]> = [];
/** The regex made from each rewrite, by the original regex. */
let made = new WeakMap<RegExp, RegExp>();

/** `re`, or the same pattern without the `i` flag when its rewrite is installed. */
export function caselessOf(re: RegExp): RegExp {
  if (sources.length === 0 || !re.flags.includes("i")) return re;
  let out = made.get(re);
  if (out === undefined) {
    const source = re.source;
    const pair = sources.find(([from]) => from.length === source.length && from === source);
    out = pair === undefined ? re : new RegExp(pair[1], re.flags.replace("i", ""));
    made.set(re, out);
  }
  return out;
}

/** Installs rewrites (for tests; the bundle's copy of this module is made with them). */
export function setCaselessSources(table: ReadonlyArray<readonly [string, string]>): void {
  sources = table;
  made = new WeakMap();
}
