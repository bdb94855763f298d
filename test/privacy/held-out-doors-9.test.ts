/**
 * The ninth held-out set (test/fixtures/privacy/held-out-doors-9.yaml: secrets as they appear in
 * an AI coding assistant's sessions — pasted command output, tool results, transcripts, stack
 * traces, request dumps, CI logs, mixed-language chats — with providers and prose languages in
 * none of the other eight privacy fixture files, written by a helper that never read the redactor,
 * and committed before anyone ran the redactor on it). Held out until its first run, dev since:
 * the lead ran it once (2026-12-07, at 477c27c, before any change made from it) and
 * docs/privacy.md ("A ninth held-out set") reports that run, the held-out figure: 115 of 144
 * caught by the redactor alone, 39 of 48 look-alikes kept, 29 of 144 found in clear through every
 * door (the same 29: no door-only leak). Since the ninth-set pass every text goes through the
 * redactor alone and through every door Errata writes by (as held-out-doors.test.ts) on every
 * run, and the lists below are what is measured now: a secret newly missed, a look-alike newly
 * hurt, or a new door-only leak fails here. ERRATA_REPORT_DOORS9=1 is no longer read; the figures
 * are printed either way.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-9.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const set = loadCorpus(FILE);

/** Secrets the redactor leaves in clear (in part or whole), by id: none since the ninth-set pass. */
const MISSED: readonly string[] = [];
/**
 * Look-alikes it changes, by id: a `git log` and a `gpg --list-keys` whose e-mail addresses are
 * redacted (an e-mail address is personal data whatever its place; the SHA and the key's
 * fingerprint are kept); jwt.io's documented sample token, a well-formed JWT that only a list of
 * published samples would tell apart from a real one.
 */
const HURT: readonly string[] = ["h9-look-git-log-full-sha", "h9-look-gpg-list-keys", "h9-look-jwtio-documented-sample"];
/** Secrets the redactor alone takes but a door leaves in clear, by id. */
const DOOR_ONLY: readonly string[] = [];

describeHeldOutForm({ title: "the ninth held-out set: form", file: FILE, prefix: "h9-", others: OTHER_FILES, minSecrets: 100, minLookAlikes: 40 });

describeHeldOutReport({
  title: "the ninth held-out set (dev since its first run)",
  name: "ninth held-out set",
  tag: "doors9",
  set,
  expected: { missed: MISSED, hurt: HURT, doorOnly: DOOR_ONLY },
});
