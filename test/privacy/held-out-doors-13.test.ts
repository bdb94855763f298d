/**
 * The thirteenth held-out set (test/fixtures/privacy/held-out-doors-13.yaml: HUMAN-MADE and
 * LINK-BORNE secrets, and secrets of classes other than a developer's API key — passwords,
 * passphrases, PINs and door codes people choose; recovery and backup code lists, TOTP seeds,
 * product and licence keys, Wi-Fi keys; presigned and signed URLs, magic sign-in, reset, invite
 * and share links, OAuth codes in redirects and fragments; cookies, session ids, CSRF tokens, SAML
 * and Kerberos material; wallet keys, seed phrases and key passphrases; password-manager exports
 * of brands no other file names — beside prose in languages none of the other twelve privacy
 * fixture files use, written by a helper that never read the redactor, and committed before anyone
 * ran the redactor on it). Without ERRATA_REPORT_DOORS13=1 this checks the file's form only and
 * prints one line saying the figures are report-only; with it, every text goes through the
 * redactor alone and through every door Errata writes by (the same doors as
 * held-out-doors.test.ts), and the figures are printed. They are a report, never a target: no list
 * of expected misses is kept here, so nobody tunes the redactor against this set while working on
 * it. Ids are h13-<kind>-… and h13-look-<kind>-…, so the printed misses can be counted by kind.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-13.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const REPORT = process.env["ERRATA_REPORT_DOORS13"] === "1";
const set = loadCorpus(FILE);

if (!REPORT) process.stdout.write("thirteenth held-out set (test/fixtures/privacy/held-out-doors-13.yaml): form checked only; its figures are report-only until the lead's first run, printed with ERRATA_REPORT_DOORS13=1\n");
describeHeldOutForm({ title: "the thirteenth held-out set: form", file: FILE, prefix: "h13-", others: OTHER_FILES, minSecrets: 210, minLookAlikes: 88 });

describeHeldOutReport({ title: "the thirteenth held-out set: report (ERRATA_REPORT_DOORS13=1)", name: "thirteenth held-out set", tag: "doors13", set, run: REPORT });
