/**
 * The twelfth and thirteenth passes' families of context evidence by name (docs/privacy.md "Generalisation,
 * twelfth pass"), and which of them are left out: empty in use (every family runs); the
 * leave-one-set-out measure (test/privacy/leave-one-out.test.ts) leaves families out one at a time
 * to count what each takes. A family left out costs nothing.
 *
 * Example: `familyOn("calls")` -> true unless the measure put "calls" in `FAMILIES_OFF`.
 */
export type Family = "words" | "names" | "pairs" | "calls" | "printed" | "lines" | "tongues" | "codes" | "announced" | "letters";
export const FAMILIES: readonly Family[] = ["words", "names", "pairs", "calls", "printed", "lines"];
/** The thirteenth pass's classes (made-values.ts; docs/privacy.md "Thirteenth pass: general rules"), switched the same way. */
export const FAMILIES_13: readonly Family[] = ["tongues", "codes", "announced", "letters"];

/** Families left out (a measure's switch; never written by the redactor). */
export const FAMILIES_OFF = new Set<Family>();

export const familyOn = (f: Family): boolean => FAMILIES_OFF.size === 0 || !FAMILIES_OFF.has(f);
