/**
 * Words of a text for retrieval and overlap: Unicode NFKC normalisation, case folding
 * (`toLowerCase` after NFKC, which folds the compatibility forms first) and word
 * segmentation by `Intl.Segmenter`, which splits Chinese and Japanese by dictionary, so a
 * rule written in either is searchable. Only word-like segments are kept (no spaces or
 * punctuation).
 *
 * Example: `words("Never use NPM; 不要使用npm")` -> `["never", "use", "npm", "不要", "使用", "npm"]`.
 */
import { stemmer } from "stemmer";

const SEGMENTER = new Intl.Segmenter("und", { granularity: "word" });

export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of SEGMENTER.segment(text.normalize("NFKC").toLowerCase())) {
    if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

/**
 * Retrieval terms: `words`, with English words (ASCII letters only) reduced to their Porter
 * stem by the `stemmer` package, so "deleted", "deleting" and "delete" meet. Words of other
 * scripts, and words with digits or accents, are kept whole: no stemmer is applied where its
 * language is not known.
 *
 * Example: `terms("Ask before deleting files")` -> `["ask", "befor", "delet", "file"]`.
 */
export function terms(text: string): string[] {
  return words(text).map((w) => (/^[a-z]+$/.test(w) ? stemmer(w) : w));
}
