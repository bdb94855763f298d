/**
 * The gates before the readers of readers-load.ts: each answers "no" only where the reader it
 * stands before finds nothing, so a text that fails them skips the reader (and a hook process
 * the readers' bundle part) with the same outcome. They are the readers' own opening tests (a
 * reader that fails its opening test returns nothing), or, for the context rule's scan, the
 * searches its finds start from (context-find.ts `hits`: an anchor or a prose stem found in the
 * lower-cased text; context-positions.ts: the starts of its places). test/privacy/reader-gates.test.ts checks that no text a reader
 * changes fails its gate.
 *
 * Example: `mayHoldReadings("run the tests")` -> false; `mayHaveContextHit("db_password=…")` -> true.
 */
import { mayHoldAssembled } from "./assembled-find.js";
import { mayHoldEncoded } from "./assembled-encoded.js";
import { mayHoldTable } from "./carried-tables.js";
import { ANCHORS, PROSE_STEMS } from "./context-words.js";
import { ANCHORS_12, PROSE_STEMS_12 } from "./context-words-12.js";
import { mayHavePosition } from "./context-positions.js";

/**
 * Whether assembledValues, encodedSpans or tableSpans may find anything in `text`: the split
 * value's literals (assembled-find.ts `assembledValues`), or a reader's opening test.
 */
export function mayHoldReadings(text: string): boolean {
  return text.includes("2=") || text.includes("2 =") || text.includes("2:") || mayHoldAssembled(text) || mayHoldEncoded(text) || mayHoldTable(text);
}

/** A character beyond Latin-1: only then are the stems of other scripts searched (as context-find.ts does). */
const WIDE = /[^\u0000-\u00ff]/;
let latinStems: readonly string[] | undefined;
let allStems: readonly string[] | undefined;

/**
 * Whether the context rule's scan may find anything in `text` (`lower`: it lower-cased): one of its
 * anchors, one of the stems it searches, or the start of a place that tells a secret with no word
 * (context-positions.ts `mayHavePosition`).
 */
export function mayHaveContextHit(text: string, lower: string): boolean {
  if (mayHavePosition(text, lower)) return true;
  // Every list the scan may search (context-find.ts `hits`: the anchors of both word lists, the stems
  // of both, the stems of other scripts only in a text that has a character beyond Latin-1).
  for (const a of ANCHORS) if (lower.includes(a)) return true;
  for (const a of ANCHORS_12) if (lower.includes(a)) return true;
  const stems = WIDE.test(lower) ? (allStems ??= [...PROSE_STEMS, ...PROSE_STEMS_12]) : (latinStems ??= [...PROSE_STEMS, ...PROSE_STEMS_12].filter((w) => !WIDE.test(w)));
  for (const w of stems) if (lower.includes(w)) return true;
  return false;
}
