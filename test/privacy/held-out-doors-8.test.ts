/**
 * The eighth held-out set (test/fixtures/privacy/held-out-doors-8.yaml: secret shapes in none of
 * the other seven privacy fixture files, written by a helper that never read the redactor, and
 * committed before anyone ran the redactor on it). Held out until its first run, dev since: the
 * lead ran it once (2026-12-07, at f667c9b, before any change made from it) and docs/privacy.md
 * ("An eighth held-out set") reports that run, the held-out figure: 156 of 219 caught by the
 * redactor alone, 22 of 32 look-alikes kept, 63 of 219 found in clear through every door (the
 * same 63: no door-only leak). Since the eighth-set pass every text goes through the redactor alone
 * and through every door Errata writes by (as held-out-doors.test.ts) on every run, and the lists
 * below are what is measured now: a secret newly missed, a look-alike newly hurt, or a new
 * door-only leak fails here. ERRATA_REPORT_DOORS8=1 is no longer needed; the figures are printed
 * either way.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-8.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const set = loadCorpus(FILE);

/**
 * Secrets the redactor leaves in clear (in part or whole), by id: a Windows product key given to
 * `slmgr /ipk` (the set's look-alike is Microsoft's published KMS client key in the same place:
 * nothing but that list tells them apart).
 */
const MISSED: readonly string[] = ["h8-windows-product-key-slmgr"];
/**
 * Look-alikes it changes, by id: Ghost's Content API key (26 hex under a bare `key`, which only
 * the constructor's name tells public); a password-reset request whose e-mail address is
 * redacted (an e-mail address is personal data whatever its place; the null password is kept).
 */
const HURT: readonly string[] = ["h8-look-ghost-content-api-key", "h8-look-graphql-null-password"];
/** Secrets the redactor alone takes but a door leaves in clear, by id. */
const DOOR_ONLY: readonly string[] = [];

describeHeldOutForm({ title: "the eighth held-out set: form", file: FILE, prefix: "h8-", others: OTHER_FILES, minSecrets: 80, minLookAlikes: 20 });

describeHeldOutReport({
  title: "the eighth held-out set (dev since its first run)",
  name: "eighth held-out set",
  tag: "doors8",
  set,
  expected: { missed: MISSED, hurt: HURT, doorOnly: DOOR_ONLY },
});
