import { createHash } from "node:crypto";

/**
 * The stable exchange id: "ex-" + the first 16 hex digits of SHA-256 over corpus, session and
 * the prompt's own key (its uuid in a transcript, a row or turn position in a corpus), joined
 * by NUL bytes so that no two different triples collide by concatenation.
 *
 * Example: `exchangeId("ab-redial", "F1#1", "turn:2")` is the same string on every run and
 * every machine, and differs from `exchangeId("ab-redial", "F1#1", "turn:3")`.
 */
export function exchangeId(corpus: string, session: string, key: string): string {
  const h = createHash("sha256").update(`${corpus}\u0000${session}\u0000${key}`).digest("hex");
  return `ex-${h.slice(0, 16)}`;
}
