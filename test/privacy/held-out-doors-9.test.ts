/**
 * The ninth held-out set (test/fixtures/privacy/held-out-doors-9.yaml: secrets as they appear in
 * an AI coding assistant's sessions — pasted command output, tool results, transcripts, stack
 * traces, request dumps, CI logs, mixed-language chats — with providers and prose languages in
 * none of the other eight privacy fixture files, written by a helper that never read the redactor,
 * and committed before anyone ran the redactor on it). Without ERRATA_REPORT_DOORS9=1 this checks
 * the file's form only and prints one line saying the figures are report-only; with it, every text
 * goes through the redactor alone and through every door Errata writes by (the same doors as
 * held-out-doors.test.ts), and the figures are printed. They are a report, never a target: no
 * list of expected misses is kept here, so nobody tunes the redactor against this set while
 * working on it.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-9.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const REPORT = process.env["ERRATA_REPORT_DOORS9"] === "1";
const set = loadCorpus(FILE);

if (!REPORT) process.stdout.write("ninth held-out set (test/fixtures/privacy/held-out-doors-9.yaml): form checked only; its figures are report-only until the lead's first run, printed with ERRATA_REPORT_DOORS9=1\n");
describeHeldOutForm({ title: "the ninth held-out set: form", file: FILE, prefix: "h9-", others: OTHER_FILES, minSecrets: 100, minLookAlikes: 40 });

describeHeldOutReport({ title: "the ninth held-out set: report (ERRATA_REPORT_DOORS9=1)", name: "ninth held-out set", tag: "doors9", set, run: REPORT });
