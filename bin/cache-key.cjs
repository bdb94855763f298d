"use strict";
// The key of a V8 code cache file (`<bundle>.v8cache`): its first line names the bundle text it
// was made from. Shared by bin/errata.cjs's loader and bin/errata-tool-hook.cjs (bundled into
// it from runtime/hooks/tool-hook-bin.ts), so both read and write one format.
//
// Keyed on the text's length and content hash, not the file's modification time: an installed
// package's files carry the time the package manager gives them, so a time-keyed cache made at
// build time was never used after `npm install`.
//
// Example: `require("./cache-key.cjs").cacheHeader("x")` -> "errata-v8cache 1 <hash>\n".

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

/**
 * The first line of a cache file for the bundle text `src`.
 * @param {string} src
 * @returns {string}
 */
function cacheHeader(src) {
  return `errata-v8cache ${src.length} ${textHash(src)}\n`;
}

module.exports = { cacheHeader, textHash };
