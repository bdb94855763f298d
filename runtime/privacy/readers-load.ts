/**
 * Gives the readers of the eleventh held-out set's pass (assembled-find.ts, assembled-encoded.ts,
 * carried-tables.ts) and the context rule's scan (context-find.ts) to the redactor's front
 * (assembled.ts) and the pre-filter (prefilter.ts). As an ES module it is a static import; the
 * hook's capture bundle replaces this module with a `require` of the readers' own bundle part
 * (scripts/bundle-hook.js), loaded only when a gate of reader-gates.ts says a reader may find
 * something, so that a capture whose texts hold no trace of one never reads their code (about
 * 11 M instructions a capture: docs/privacy.md "Cost").
 *
 * Example: `loadReaders().encodedSpans(text)`.
 */
import { assembledValues } from "./assembled-find.js";
import { encodedSpans } from "./assembled-encoded.js";
import { tableSpans } from "./carried-tables.js";
import { contextSecretWitness, scanContext } from "./context-find.js";

// scanContext too: the hook's redactor part takes the context rule's scan from the readers part (scripts/bundle-hook.js).
const readers = { assembledValues, encodedSpans, tableSpans, contextSecretWitness, scanContext };

export function loadReaders(): typeof readers {
  return readers;
}
