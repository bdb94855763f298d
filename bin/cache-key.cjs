"use strict";
// The key of a V8 code cache file (`<bundle>.v8cache`): its first line names the bundle text it
// was made from. Shared by bin/errata.cjs's loader and bin/errata-tool-hook.cjs (bundled into
// it from runtime/hooks/tool-hook-bin.ts), so both read and write one format.
//
// Keyed on the text's length and content (a build id the bundler writes), not the file's modification time: an installed
// package's files carry the time the package manager gives them, so a time-keyed cache made at
// build time was never used after `npm install`.
//
// Example: `require("./cache-key.cjs").cacheHeader("x")` -> "errata-v8cache 1 fnv-<hash>\n".

/**
 * FNV-1a (32 bits) over the text's UTF-16 code units. Written here rather than node:crypto's
 * hash: crypto is not loaded on the hook path (its load costs more than this loop over a
 * 30-75 KB bundle), and the hash only tells one build's bundle from another (V8 checks the
 * cache against the source again), so a small non-cryptographic hash is enough.
 * @param {string} src
 * @returns {string}
 */
function textHash(src) {
  let h = 0x811c9dc5;
  for (let i = 0; i < src.length; i++) {
    h ^= src.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

const BUILD_ID = "\n//errata-build:";

/**
 * The line scripts/bundle-hook.js ends each bundle with: its build id, a digest of the text
 * before it, made at build time.
 * @param {string} id
 * @returns {string}
 */
function buildIdLine(id) {
  return `${BUILD_ID}${id}\n`;
}

/**
 * The first line of a cache file for the bundle text `src`: its length and its build id, read
 * from its last line (one backwards search: hashing a 45-75 KB bundle in a cold hook process
 * cost ~2.4 ms, most of what the cache saves); a text without one (not built by
 * scripts/bundle-hook.js) is hashed whole.
 * @param {string} src
 * @returns {string}
 */
function cacheHeader(src) {
  const at = src.lastIndexOf(BUILD_ID);
  const id = at >= 0 && src.length - at <= BUILD_ID.length + 40 ? src.slice(at + BUILD_ID.length).trim() : `fnv-${textHash(src)}`;
  return `errata-v8cache ${src.length} ${id}\n`;
}

module.exports = { buildIdLine, cacheHeader, textHash };
