/**
 * The twelfth held-out set (test/fixtures/privacy/held-out-doors-12.yaml: SILENT secrets, whose
 * only sign is their position — positional arguments on command lines, in CI traces, launch
 * configs, Procfiles, unit files and container args; URL path segments and host labels in access
 * logs, notification, webhook, stream and calendar URLs; columns of tool output with at most a
 * header row; a command's whole output; values named on another line (alternating key and value
 * lines, length-prefixed records, a two-line file, an anchored list); positional arguments of
 * library calls; values read out, dictated or transcribed with separators — beside prose in
 * languages and scripts none of the other eleven privacy fixture files use (right-to-left Syriac,
 * Adlam, N'Ko and Perso-Arabic among them), written by a helper that never read the redactor, and
 * committed before anyone ran the redactor on it). Without ERRATA_REPORT_DOORS12=1 this checks the
 * file's form only and prints one line saying the figures are report-only; with it, every text goes
 * through the redactor alone and through every door Errata writes by (the same doors as
 * held-out-doors.test.ts), and the figures are printed. They are a report, never a target: no list
 * of expected misses is kept here, so nobody tunes the redactor against this set while working on
 * it. Ids are h12-<kind>-… and h12-look-<kind>-…, so the printed misses can be counted by kind.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-12.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9, 10, 11].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const REPORT = process.env["ERRATA_REPORT_DOORS12"] === "1";
const set = loadCorpus(FILE);

if (!REPORT) process.stdout.write("twelfth held-out set (test/fixtures/privacy/held-out-doors-12.yaml): form checked only; its figures are report-only until the lead's first run, printed with ERRATA_REPORT_DOORS12=1\n");
describeHeldOutForm({ title: "the twelfth held-out set: form", file: FILE, prefix: "h12-", others: OTHER_FILES, minSecrets: 190, minLookAlikes: 75 });

describeHeldOutReport({ title: "the twelfth held-out set: report (ERRATA_REPORT_DOORS12=1)", name: "twelfth held-out set", tag: "doors12", set, run: REPORT });
