/**
 * The eleventh held-out set (test/fixtures/privacy/held-out-doors-11.yaml: secrets ENCODED —
 * base64 in every variant, hex, base32, base58, ROT13, Basic headers, JWT payloads, data: URIs —
 * ASSEMBLED — concatenation in some forty programming languages, char and byte arrays, values
 * split over two variables or lines, printf and join in a shell, Excel and SQL formulas — or
 * CARRIED in the artefacts an AI coding assistant reads — CSV and SQL dumps, OCR and PDF text,
 * calendar invites, vCards, mail, chat exports, HAR and devtools copies, notebooks, crash reports,
 * Terraform state, Kubernetes events, API-client exports, OpenAPI, Helm, mobile and game configs —
 * beside providers none of the other ten privacy fixture files name and prose languages none of
 * them use, written by a helper that never read the redactor, and committed before anyone ran the
 * redactor on it). Without ERRATA_REPORT_DOORS11=1 this checks the file's form only and prints one
 * line saying the figures are report-only; with it, every text goes through the redactor alone and
 * through every door Errata writes by (the same doors as held-out-doors.test.ts), and the figures
 * are printed. They are a report, never a target: no list of expected misses is kept here, so
 * nobody tunes the redactor against this set while working on it.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-11.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9, 10].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const REPORT = process.env["ERRATA_REPORT_DOORS11"] === "1";
const set = loadCorpus(FILE);

if (!REPORT) process.stdout.write("eleventh held-out set (test/fixtures/privacy/held-out-doors-11.yaml): form checked only; its figures are report-only until the lead's first run, printed with ERRATA_REPORT_DOORS11=1\n");
describeHeldOutForm({ title: "the eleventh held-out set: form", file: FILE, prefix: "h11-", others: OTHER_FILES, minSecrets: 160, minLookAlikes: 50 });

describeHeldOutReport({ title: "the eleventh held-out set: report (ERRATA_REPORT_DOORS11=1)", name: "eleventh held-out set", tag: "doors11", set, run: REPORT });
