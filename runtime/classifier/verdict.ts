/**
 * The capture classifier's verdict: a closed union of kinds plus the stable names of the
 * signals that fired, so a reader can tell why.
 *
 * Example: `classify("No, that's wrong. I already told you to use pnpm!!")` ->
 * `{ kind: "correction", rating: null, frustration: 1, language: "en",
 *    signals: ["correction.en.no_strong", "correction.en.thats_wrong",
 *              "correction.en.already_told", "frustration.punctuation"] }`
 */

/**
 * - skip: text a person did not type (system reminder, task notification, command echo,
 *   continuation preamble, slash command); nothing else is computed.
 * - none: typed, but nothing explicit fired.
 * - rating: an explicit numeric rating (1-10) the person typed.
 * - praise: explicit praise of the assistant's work.
 * - correction: an explicit correction or complaint about the previous reply.
 * - directive: a standing instruction for the future ("from now on", "always ...", "never ...").
 */
export type CaptureKind = "skip" | "none" | "rating" | "praise" | "correction" | "directive";

export type Frustration = 0 | 1 | 2 | 3;

export interface CaptureVerdict {
  kind: CaptureKind;
  /** The number the person typed, 1-10 (halves and tenths kept), only when kind is "rating". */
  rating: number | null;
  /** 0-3 from countable signals; null when not computed (skipped text). */
  frustration: Frustration | null;
  /** ISO 639-1 code of the language whose rules decided, or null when nothing fired. */
  language: string | null;
  /** Stable names of what fired, e.g. "correction.en.no_strong", "frustration.caps". */
  signals: string[];
  /**
   * Present (true) only on a correction that says it restates an earlier one ("I told you
   * already", "again", "for the third time"): the cue the ladder reads to count a repeat.
   */
  repeat?: true;
}

/** What the classifier may know besides the text: the assistant reply the person answered. */
export interface ClassifyContext {
  /**
   * The previous assistant reply (its end is enough), or null/undefined when unknown.
   * Two rules need it: a weak "no" opener is a correction only after a reply that did not
   * end in a question (other than a check such as "is that right?"), and a bare number is
   * a rating only after a reply that asked for a rating.
   * A function is called only when one of those rules needs the reply (the hook reads the
   * transcript only then).
   */
  previousReply?: string | null | (() => string | null);
}
