/**
 * Which of many secrets leak into a text: the same answer as `leakIn(text, secret) !== null`
 * (corpus.ts) for each secret, in one pass over the text instead of one search per secret and
 * piece. The doors' files (doors.ts) are about 30,000 texts and 2.8 million characters for a
 * set of 212 secrets with 1,900 pieces: searched secret by secret that was 5 s of a held-out
 * file's run (docs/testing.md, "Suite time"), the same texts searched once for every piece.
 *
 * How: every piece of every secret (leakPieces: the whole, and its 12-character windows) is
 * filed under its first min(12, length) characters; at each place of the text, the
 * characters there are looked up under each such key length, and a piece filed there is
 * checked in full (`startsWith` at that place). A piece is in the text exactly when it starts
 * at some place, so the answer is includes()'s.
 *
 * Example: `new LeakFinder(["sk_live_abcdefghijklmnop"]).foundIn("key sk_live_abcdefghijklmnop")` -> Set {0}.
 */
import { leakPieces } from "./corpus.js";

export class LeakFinder {
  /** Key length -> key -> the pieces filed under it, with their secret's index. */
  private readonly byKey = new Map<number, Map<string, { secret: number; piece: string }[]>>();
  /** Secrets with an empty piece: in every text, as `"x".includes("")` is true. */
  private readonly everywhere: number[] = [];

  constructor(secrets: readonly string[]) {
    secrets.forEach((secret, i) => {
      for (const piece of leakPieces(secret)) {
        if (piece.length === 0) {
          this.everywhere.push(i);
          continue;
        }
        const k = Math.min(12, piece.length);
        let keys = this.byKey.get(k);
        if (keys === undefined) this.byKey.set(k, (keys = new Map()));
        const key = piece.slice(0, k);
        const list = keys.get(key);
        if (list === undefined) keys.set(key, [{ secret: i, piece }]);
        else list.push({ secret: i, piece });
      }
    });
  }

  /** The indices of the secrets some piece of which is in `text`, added to `into`. */
  foundIn(text: string, into: Set<number> = new Set()): Set<number> {
    for (const i of this.everywhere) into.add(i);
    for (const [k, keys] of this.byKey) {
      for (let at = 0; at + k <= text.length; at++) {
        const list = keys.get(text.slice(at, at + k));
        if (list === undefined) continue;
        for (const c of list) if (!into.has(c.secret) && text.startsWith(c.piece, at)) into.add(c.secret);
      }
    }
    return into;
  }
}
