/**
 * Which erratum a verdict becomes, per the seed's "The doors": a numeric rating is kind
 * praise at >= 7 with rating null (praise never carries a number) and kind complaint below
 * with the rating kept; an explicit correction is kind correction and a standing directive
 * kind directive (so that `errata list --kind directive` lists them);
 * praise is kind praise; anything else writes no row. One switch on the verdict's kind: a new
 * verdict kind is decided here. Pure and tiny: the hook decides with it before loading the
 * capture part (capture-row.ts builds the row).
 *
 * Example: `rowKind({kind: "rating", rating: 3, ...})` -> `{kind: "complaint", rating: 3,
 * deepContext: true}`; `rowKind({kind: "none", ...})` -> null.
 */
import type { CaptureVerdict } from "../classifier/verdict.js";

export interface RowKind {
  kind: "praise" | "complaint" | "correction" | "directive";
  rating: number | null;
  /** A rating <= 3 or an explicit correction: worth a deep-context attachment. */
  deepContext: boolean;
}

export function rowKind(v: CaptureVerdict): RowKind | null {
  switch (v.kind) {
    case "rating":
      if (v.rating === null) return null;
      return v.rating >= 7 ? { kind: "praise", rating: null, deepContext: false } : { kind: "complaint", rating: v.rating, deepContext: v.rating <= 3 };
    case "correction":
      return { kind: "correction", rating: null, deepContext: true };
    case "directive":
      return { kind: "directive", rating: null, deepContext: false };
    case "praise":
      return { kind: "praise", rating: null, deepContext: false };
    default:
      return null;
  }
}
