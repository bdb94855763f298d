/**
 * Stable rule ids and how an edited rule keeps its id.
 *
 * An id is `<source>.<nearest heading slug>.<6 hex of the unit's content hash>`, so an edit
 * elsewhere in the file (a new rule above, a reworded neighbour) never moves it. The content
 * hash is SHA-256 of the unit's text after Unicode NFC and whitespace collapsing, so
 * re-wrapping a line keeps the id. Two identical units under one heading get `-2`, `-3`, ...
 * in file order.
 *
 * An edited unit keeps its id when its words overlap a vanished unit of the same source by
 * 60% or more: overlap(a, b) = |A ∩ B| / max(|A|, |B|) over the sets of words (see
 * `words`: NFKC, case-folded, `Intl.Segmenter` word segments). Dividing by the larger set
 * makes a short rule that grew into a long one (or shrank) a new rule, not a carry. Pairs are
 * matched one to one, best overlap first (ties: nearer position, then id).
 *
 * Example: `ruleId("claude", ["Style", "Tabs"], "- Use tabs")` -> "claude.tabs.1b7c4e" (the hash
 * part depends on the text).
 */
import { sha256Hex } from "../../core/sha256.js";
import { words } from "./tokenize.js";

export const CARRY_OVERLAP = 0.6;

/** Lower-case letters and digits of any script, runs of anything else as one "-", at most 48 characters. */
export function slug(text: string): string {
  const s = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return s.slice(0, 48).replace(/-+$/, "");
}

/**
 * The text a content hash is taken of: NFC, whitespace collapsed, and a list item's marker
 * dropped ("- ", "* ", "3. ", "3) ", a task box), so renumbering a list after an insertion
 * above changes no hash.
 */
export function normalisedText(text: string): string {
  return text
    .normalize("NFC")
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function contentHash(text: string): string {
  return sha256Hex(normalisedText(text)).slice(0, 6);
}

/** The section part of an id: the nearest heading's slug, or "top" above the first heading. */
export function headingSlug(headingPath: readonly string[]): string {
  const last = headingPath[headingPath.length - 1];
  const s = last === undefined ? "" : slug(last);
  return s.length > 0 ? s : "top";
}

export function ruleId(source: string, headingPath: readonly string[], text: string): string {
  return `${source}.${headingSlug(headingPath)}.${contentHash(text)}`;
}

export function wordOverlap(a: string, b: string): number {
  const A = new Set(words(a));
  const B = new Set(words(b));
  const larger = Math.max(A.size, B.size);
  if (larger === 0) return 0;
  let common = 0;
  for (const w of A) if (B.has(w)) common++;
  return common / larger;
}

export interface CarryCandidate {
  key: number;
  text: string;
  position: number;
}

export interface CarryMatch {
  fresh: number;
  vanished: number;
  overlap: number;
}

/** One-to-one matches of new units onto vanished ones with overlap >= 0.6, best first. */
export function matchCarries(fresh: readonly CarryCandidate[], vanished: readonly (CarryCandidate & { id: string })[]): CarryMatch[] {
  const pairs: Array<CarryMatch & { distance: number; id: string }> = [];
  for (const f of fresh) {
    for (const v of vanished) {
      const overlap = wordOverlap(f.text, v.text);
      if (overlap >= CARRY_OVERLAP) pairs.push({ fresh: f.key, vanished: v.key, overlap, distance: Math.abs(f.position - v.position), id: v.id });
    }
  }
  pairs.sort((a, b) => b.overlap - a.overlap || a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || a.fresh - b.fresh);
  const usedF = new Set<number>();
  const usedV = new Set<number>();
  const out: CarryMatch[] = [];
  for (const p of pairs) {
    if (usedF.has(p.fresh) || usedV.has(p.vanished)) continue;
    usedF.add(p.fresh);
    usedV.add(p.vanished);
    out.push({ fresh: p.fresh, vanished: p.vanished, overlap: p.overlap });
  }
  return out;
}
