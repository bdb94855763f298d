import { fnv1a32Utf16 } from "../../core/fnv1a.js";

/**
 * A full run (`ERRATA_TEST_FULL=1`, set by .ci/run after `npm test`): a test that measures a
 * fixed part of a large enumeration in `npm test`, to keep that under its five minutes, measures
 * the whole of it then. The part is the same on every run and machine: the cases whose id has an
 * even FNV-1a hash (about half), as test/privacy/metamorphic.test.ts measures its cases under
 * ERRATA_METAMORPHIC_FULL. A test that takes a part says in its header which part and why;
 * docs/testing.md ("Suite time") lists them.
 *
 * Example: `ALL_RULES.filter((r) => inTestPart(r.id))` -> every rule with ERRATA_TEST_FULL=1, about half without.
 */
export const FULL_RUN = process.env["ERRATA_TEST_FULL"] === "1";

/** Whether the case `id` is measured in this run: every case in a full run, those whose id's FNV-1a hash is even in `npm test`. */
export function inTestPart(id: string): boolean {
  return FULL_RUN || (fnv1a32Utf16(id) & 1) === 0;
}
