/**
 * The fourth held-out set (test/fixtures/privacy/held-out-doors-4.yaml: secret shapes in none of
 * the other privacy fixture files, written by a helper that never read the redactor, and
 * committed before anyone ran the redactor on it). Without ERRATA_REPORT_DOORS4=1 this checks the
 * file's form only and prints one line saying the figures are report-only; with it, every text
 * goes through the redactor alone and through every door Errata writes by (the same doors as
 * held-out-doors.test.ts), and the figures are printed. They are a report, never a target: no
 * list of expected misses is kept here, so nobody tunes the redactor against this set while
 * working on it.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-4.yaml");
const REPORT = process.env["ERRATA_REPORT_DOORS4"] === "1";
const set = loadCorpus(FILE);

if (!REPORT) process.stdout.write("fourth held-out set (test/fixtures/privacy/held-out-doors-4.yaml): form checked only; its figures are report-only, printed with ERRATA_REPORT_DOORS4=1\n");
describeHeldOutForm({ title: "the fourth held-out set: form", file: FILE, prefix: "h4-", others: [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE], minSecrets: 45, minLookAlikes: 12, documented: false });

describeHeldOutReport({ title: "the fourth held-out set: report (ERRATA_REPORT_DOORS4=1)", name: "fourth held-out set", tag: "doors4", set, run: REPORT });
