/**
 * The tenth held-out set (test/fixtures/privacy/held-out-doors-10.yaml: secrets as they sit in a
 * session's text AFTER the transformations a session applies — ANSI colour codes around and inside
 * them, hard wraps at odd widths, JSON, URL, HTML and quoted-printable escapes, shell and Markdown
 * quoting, diff hunks and quoted replies, CRLF, wire captures and byte dumps, cookies, signed URLs —
 * beside tools, formats and providers in none of the other nine privacy fixture files and prose
 * languages none of them use, written by a helper that never read the redactor, and committed
 * before anyone ran the redactor on it). Without ERRATA_REPORT_DOORS10=1 this checks the file's
 * form only and prints one line saying the figures are report-only; with it, every text goes
 * through the redactor alone and through every door Errata writes by (the same doors as
 * held-out-doors.test.ts), and the figures are printed. They are a report, never a target: no list
 * of expected misses is kept here, so nobody tunes the redactor against this set while working on
 * it.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-10.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const REPORT = process.env["ERRATA_REPORT_DOORS10"] === "1";
const set = loadCorpus(FILE);

if (!REPORT) process.stdout.write("tenth held-out set (test/fixtures/privacy/held-out-doors-10.yaml): form checked only; its figures are report-only until the lead's first run, printed with ERRATA_REPORT_DOORS10=1\n");
describeHeldOutForm({ title: "the tenth held-out set: form", file: FILE, prefix: "h10-", others: OTHER_FILES, minSecrets: 150, minLookAlikes: 45 });

describeHeldOutReport({ title: "the tenth held-out set: report (ERRATA_REPORT_DOORS10=1)", name: "tenth held-out set", tag: "doors10", set, run: REPORT });
