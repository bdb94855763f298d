/**
 * The eleventh held-out set (test/fixtures/privacy/held-out-doors-11.yaml: secrets ENCODED —
 * base64 in every variant, hex, base32, base58, ROT13, Basic headers, JWT payloads, data: URIs —
 * ASSEMBLED — concatenation in some forty programming languages, char and byte arrays, values
 * split over two variables or lines, printf and join in a shell, Excel and SQL formulas — or
 * CARRIED in the artefacts an AI coding assistant reads — CSV and SQL dumps, OCR and PDF text,
 * calendar invites, vCards, chat exports, Terraform state, Kubernetes jobs — beside providers and
 * prose languages none of the other ten privacy fixture files use, written by a helper that never
 * read the redactor, and committed before anyone ran the redactor on it). Held out until its first
 * run, dev since: the lead ran it once (2026-12-07, at 0cdea07, before any change made from it) and
 * docs/privacy.md ("An eleventh held-out set") reports that run, the held-out figure: 109 of 212
 * caught by the redactor alone (assembled values 3 of 67, encoded 22 of 36, artefacts 58 of 74,
 * prose 26 of 35), 75 of 81 look-alikes kept, 103 of 212 found in clear through every door (the
 * 103 misses; no door-only leak). Since the eleventh-set pass every text goes through the redactor
 * alone and through every door Errata writes by (as held-out-doors.test.ts) on every run, and the
 * lists below are what is measured now: a secret newly missed, a look-alike newly hurt, or a new
 * door-only leak fails here. ERRATA_REPORT_DOORS11=1 is no longer read; the figures are printed
 * either way.
 */
import { join } from "node:path";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { describeHeldOutForm } from "./held-out-form.js";
import { describeHeldOutReport } from "./held-out-report.js";

const FILE = join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-11.yaml");
const OTHER_FILES = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9, 10].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const set = loadCorpus(FILE);

/**
 * Secrets the redactor leaves in clear (in part or whole), by id, with why (docs/privacy.md "An
 * eleventh held-out set"). Encoded: a UTF-16LE command whose decoded head names no secret, base32
 * and base58 runs with no decoded head (base32 is no text a rule reads), a byte array whose only
 * name is in a comment after it, a key file printed by `cat` (lines of `n;<hex>`). Assembled,
 * read joined but the joined value is no shape a rule takes under its name (a one-case licence
 * key, random bytes under SEED, symbol-laden char codes under a one-letter name, twelve letters
 * without a digit, a bootstrap token's lower-case form), or a join not read (Perl's qw list, a
 * heredoc pasted with paste -sd, Tcl's append, a URL whose host is a variable in jq). Artefacts:
 * a transformation the text views own (an iCalendar fold, a PDF's hyphenated line end), a value
 * under a name no rule takes (OCR'd `pw:`, a vCard's X-PAGER-PIN, Terraform state's "result", a
 * PDF's "Pass-\nword:", HTML code spans after "creds"), hex or a UUID as a URL path segment (a
 * monitor's ping URL, an RPC URL's key). Prose: lower-case or hex tokens (never taken alone in a
 * sentence: ids and hashes look the same) and two letter-group passphrases. Measured on this branch
 * merged with main (gen11's context rule: 185 of 212; five of the branch's misses taken, one
 * more missed: a launchd plist's env value, `secret_live_…` under `ADAPTY_SECRET_KEY`, which the
 * context rule's slug test took for words; taken again since a slug's part may not be a generated
 * run: 186 of 212). The twelfth-set pass (silent-*.ts) takes two more: jq's joined URL (its two
 * literal parts are typed passwords among a prompt's command arguments, silent-fields.ts) and an
 * RPC URL's key (an RPC host's last path segment, silent-paths.ts): 188 of 212.
 */
const MISSED: readonly string[] = [
  "h11-enc-powershell-encodedcommand", "h11-enc-base32-backup-key", "h11-enc-storj-access-grant", "h11-enc-wasm-env-utf8-array", "h11-enc-mariadb-keyfile-hex",
  "h11-asm-lua-string-char", "h11-asm-cobol-string", "h11-asm-c-adjacent-literals", "h11-asm-perl-qw-join", "h11-asm-shell-paste-join", "h11-asm-hcl-join", "h11-asm-vba-chr", "h11-asm-tcl-append",
  "h11-art-pdf-extracted-onboarding", "h11-art-ics-description", "h11-art-vcard-x-field", "h11-art-teams-html-export", "h11-art-tfstate-attributes", "h11-art-cronitor-k8s-cronjob", "h11-art-healthchecks-ping-url-systemd",
  "h11-prose-hiligaynon-passphrase", "h11-prose-sesotho-api-key",
];

/**
 * Look-alikes it changes, by id: documentation examples a form cannot tell from a real value (RFC
 * 7617's `test:123£` Basic header, a provider's documented sample key) and an unsigned JWT (`alg`
 * none, empty signature: gitleaks' rule takes it). A Helm value naming an existing Secret
 * (`existingSecret: ledger-db`) is kept since issue 34's twelfth pass (kept-forms.ts
 * `existingObjectName`).
 */
const HURT: readonly string[] = ["h11-look-rfc7617-basic-example", "h11-look-unsigned-jwt-none", "h11-look-uptimerobot-docs-example-key"];
/**
 * Secrets the redactor alone takes but a door leaves in clear, by id: none. A Rust byte array
 * under `SEED` was one when the context rule was merged: a tool call's one-line input longer than
 * its summary was clipped before it was redacted, and the clip kept 15 of the 24 bytes, too few
 * for a key; such an input is now redacted whole before the clip (tool-summary.ts), as an input of
 * several lines was since the tenth-set pass.
 */
const DOOR_ONLY: readonly string[] = [];

describeHeldOutForm({ title: "the eleventh held-out set: form", file: FILE, prefix: "h11-", others: OTHER_FILES, minSecrets: 160, minLookAlikes: 50 });

describeHeldOutReport({
  title: "the eleventh held-out set (dev since its first run)",
  name: "eleventh held-out set",
  tag: "doors11",
  set,
  expected: { missed: MISSED, hurt: HURT, doorOnly: DOOR_ONLY },
});
