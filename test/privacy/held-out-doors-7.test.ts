/**
 * The seventh held-out set (test/fixtures/privacy/held-out-doors-7.yaml: secret shapes in none of
 * the other six privacy fixture files, written by a helper that never read the redactor, and
 * committed before anyone ran the redactor on it). Held out until its first run, dev since: the
 * lead ran it once (2026-12-07, before any change made from it) and docs/privacy.md ("A seventh
 * held-out set") reports that run, the held-out figure: 65 of 89 caught by the redactor alone,
 * 20 of 23 look-alikes kept, 28 of 89 found in clear through every door. Since the ninth pass
 * every text goes through the redactor alone and through every door Errata writes by (as
 * held-out-doors.test.ts) on every run, and the lists below are what is measured now: a secret
 * newly missed, a look-alike newly hurt, or a new door-only leak fails here.
 * ERRATA_REPORT_DOORS7=1 is no longer needed; the figures are printed either way.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-7.yaml");
const FOURTH = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-4.yaml");
const FIFTH = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-5.yaml");
const SIXTH = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-6.yaml");
const set = loadCorpus(FILE);

/** Secrets the redactor leaves in clear (in part or whole), by id. */
const MISSED: readonly string[] = [];
/**
 * Look-alikes it changes, by id: a NATS public nkey whose CRC-16 does not check (own-shapes.ts
 * keeps only nkeys whose checksum checks: a random run of the same letters is not one).
 */
const HURT: readonly string[] = ["h7-look-nats-public-nkey"];
/** Secrets the redactor alone takes but a door leaves in clear, by id. */
const DOOR_ONLY: readonly string[] = [];

const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, FOURTH, FIFTH, SIXTH];

describeHeldOutForm({ title: "the seventh held-out set: form", file: FILE, prefix: "h7-", others: OTHER_FILES, minSecrets: 80, minLookAlikes: 20 });

describeHeldOutReport({
  title: "the seventh held-out set (dev since its first run)",
  name: "seventh held-out set",
  tag: "doors7",
  set,
  expected: { missed: MISSED, hurt: HURT, doorOnly: DOOR_ONLY },
});
