/**
 * A key that is a URL's or a request path's segment, nothing naming it but its place
 * (docs/privacy.md "A twelfth held-out set"): a whole segment that a generator made (a random
 * token, a random run of one case, hex of 24 or more, a UUID; a feed's `.rss` or `.ics` taken off)
 * - after a segment that says the path is addressed by a key: an ingest, hook, push, ping, alert,
 *   invite or private path, a key's or token's or secret's, an RPC path (`/ingest/<key>/events`,
 *   `/alert/<uuid>/platform`, `/private/<uuid>.rss`, `/rpc/<hex>`);
 * - as the path of an RPC endpoint (`rpc` in the host, or the line's `RPC_URL` or
 *   `JsonRpcProvider`): its last segment;
 * - after an RTMP or SRT URL's application (`rtmp://host/live/<stream key>`): the stream key, any
 *   run of sixteen letters and digits (`-` grouped too);
 * - before a file's name, a random token of both cases (`/d/<token>/installer.exe`): a capability
 *   link's token.
 * Not: a digest after `sha256/`, a commit after `commit/`, a public dashboard's id, a request id
 * after `requests/`, a font's file name (none of those places is one above).
 *
 * Example: `findSilentPaths('POST /ingest/<32 random letters and digits>/events')` -> the token's
 * span; `findSilentPaths('https://github.com/acme/ledger/commit/a14155b5…')` -> none.
 */
import { generatedRun } from "./silent-shapes.js";
import { strongRandom } from "./own-shapes.js";

const KEY_PLACE = /^(?:ingest|hooks?|webhooks?|push|ping|heartbeat|alerts?|invite|private|secrets?|tokens?|keys?|api-?keys?|rpc|notify|trigger)$/i;
const RPC = /rpc/i;
const STREAM_SCHEME = /^(?:rtmps?|rtmpt|srt):\/\//i;
const FILE_NAME = /^[\w.-]+\.[a-z][a-z0-9]{1,5}$/i;

/** The spans of the keys in one path's segments (`segs[i]` at `ats[i]`). */
function keysIn(segs: string[], ats: number[], rpc: boolean, stream: boolean, found: Array<[number, number]>): void {
  for (let i = 1; i < segs.length; i++) {
    const raw = segs[i]!;
    const v = raw.replace(/\.(?:rss|ics|xml|json|atom)$/i, "");
    if (v.length < 16) continue;
    const prev = segs[i - 1]!;
    const next = segs[i + 1];
    const last = i === segs.length - 1 || (i === segs.length - 2 && next === "");
    const taken =
      (KEY_PLACE.test(prev) && generatedRun(v)) ||
      (rpc && last && i >= 1 && generatedRun(v)) ||
      (stream && i >= 2 && /\d/.test(v) && /[A-Za-z]/.test(v) && /^[\w-]+$/.test(v)) || // a stream key, whatever its shape (grouped too)
      (next !== undefined && FILE_NAME.test(next) && strongRandom(v) && generatedRun(v, false));
    if (taken) found.push([ats[i]!, ats[i]! + v.length]);
  }
}

/** Every key the file's comment describes, in the text's URLs and absolute paths. */
export function findSilentPaths(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  // Only the lines holding a path segment of sixteen token characters with a digit are read (the URL pattern over a whole text cost more).
  const read = new Set<number>();
  for (const g of text.matchAll(/\/[A-Za-z0-9_~-]{16,}/g)) {
    if (!/\d/.test(g[0])) continue;
    const base = text.lastIndexOf("\n", g.index) + 1;
    if (read.has(base)) continue;
    read.add(base);
    const nl = text.indexOf("\n", g.index);
    urlKeys(text, base, nl < 0 ? text.length : nl, found);
  }
  return found;
}

/** The keys of the URLs and paths of text[from, to), one line. */
function urlKeys(text: string, from: number, to: number, found: Array<[number, number]>): void {
  const line = text.slice(from, to);
  for (const lm of line.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()`]+|(?<=^|[\s"'=(\[,])\/[A-Za-z0-9_.~%+-][^\s"'<>()`]*/gi)) {
    const m = { 0: lm[0], index: from + lm.index };
    const url = m[0].replace(/[?#].*$/, "").replace(/[.,;:]+$/, "");
    const scheme = url.indexOf("://");
    const pathAt = scheme >= 0 ? url.indexOf("/", scheme + 3) : 0;
    if (pathAt < 0) continue;
    const host = scheme >= 0 ? url.slice(scheme + 3, pathAt) : "";
    const lineStart = text.lastIndexOf("\n", m.index) + 1;
    const lineEnd = text.indexOf("\n", m.index);
    const rpc = RPC.test(host) || RPC.test(text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).replace(url, ""));
    const segs: string[] = [];
    const ats: number[] = [];
    let at = m.index + pathAt;
    for (const seg of url.slice(pathAt).split("/")) {
      segs.push(seg);
      ats.push(at);
      at += seg.length + 1;
    }
    // The path's first segment is "" (before its leading "/"); the host stands before it for an RPC URL.
    if (scheme >= 0) segs[0] = host;
    keysIn(segs, ats, rpc, STREAM_SCHEME.test(url), found);
  }
}
