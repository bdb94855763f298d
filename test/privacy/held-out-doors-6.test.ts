/**
 * The sixth held-out set (test/fixtures/privacy/held-out-doors-6.yaml: secret shapes in none of
 * the other five privacy fixture files, written by a helper that never read the redactor, and
 * committed before anyone ran the redactor on it). Held out until its first run, dev since: the
 * lead ran it once (2026-12-07, before any change made from it) and docs/privacy.md ("A sixth
 * held-out set") reports that run, the held-out figure: 55 of 65 caught by the redactor alone,
 * 18 of 21 look-alikes kept, 10 of 65 found in clear through every door. Since then every text
 * goes through the redactor alone and through every door Errata writes by (as
 * held-out-doors.test.ts) on every run, and the lists below are what is measured now: a secret
 * newly missed, or a look-alike newly hurt, fails here.
 * ERRATA_REPORT_DOORS6=1 is no longer needed; the figures are printed either way.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-6.yaml");
const FOURTH = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-4.yaml");
const FIFTH = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-5.yaml");
const set = loadCorpus(FILE);

/** Secrets the redactor leaves in clear (in part or whole), by id. */
const MISSED: readonly string[] = [];
/** Look-alikes it changes, by id. */
const HURT: readonly string[] = [];

describeHeldOutForm({ title: "the sixth held-out set: form", file: FILE, prefix: "h6-", others: [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, FOURTH, FIFTH], minSecrets: 55, minLookAlikes: 18 });

describeHeldOutReport({
  title: "the sixth held-out set (dev since its first run)",
  name: "sixth held-out set",
  tag: "doors6",
  set,
  expected: { missed: MISSED, hurt: HURT },
});
